"""Planned execution: carry out a plan step by step, and hand off at every change of hands.

    planner  --Plan, planner handoff (with its risk summary)-->  executor (the coder)
    executor --a handoff at the start, after each step, at the end-->  reviewer gate

For each step the coder gets an :class:`~agent_team.realteam.contracts.ExecutorContract`.
A step that reads runs at once; a step that writes files or runs code first
asks ``approve(contract)``, and a denied approval skips it. The run ends as a
:class:`PlanRun`: the plan, every step outcome and every handoff in one record
that saves to JSON and comes back exactly, so the plan file also answers who
planned, what the executor did or skipped, and what the reviewer recommends.

Execution's own status counts only what it can see go wrong: a step that
raised (``failed``) or a person cancelling (``cancelled``). A skipped step does
not change it, exactly the blind spot the reviewer gate (:mod:`agent_team.realteam.gate`)
exists for: :meth:`PlanRun.reviewed` applies the gate and records its verdict.
Nothing here retries or resumes by itself; a retry is a new call with ``steps=``.
"""

from dataclasses import dataclass, field

from .contracts import RISK_WORDS, PLAN_RUN_STATUSES, Handoff, Plan, ReviewReport, StepOutcome, _Record
from .gate import review_run
from ..limits import describe_error

__all__ = ["execute_plan", "plan_handoff", "risk_summary", "PlanRun", "CANCEL"]

CANCEL = "cancel"  # what approve() returns to stop the whole plan here
_DID = {"success": "completed", "failed": "failed", "skipped": "was skipped", "cancelled": "was cancelled"}


def risk_summary(steps):
    """What the steps may do to the world, in one line, e.g. ``S2 writes files; S3 runs code``."""
    parts = [f"{s.id} {RISK_WORDS[s.risk]}" for s in steps if s.risk in RISK_WORDS]
    return "; ".join(parts) if parts else "no step " + " or ".join(RISK_WORDS.values())


def plan_handoff(plan):
    """The planner's handoff: the plan's summary, its steps, the risk summary and the next action."""
    if not isinstance(plan, Plan):
        raise TypeError(f"plan must be a Plan, not {type(plan).__name__}; build one with Plan(summary, steps)")
    first = f"coder: execute step {plan.steps[0].id} ({plan.steps[0].title})" if plan.steps else \
        "nobody: the plan has no steps, so there is nothing to execute"
    return Handoff(role="planner", summary=f"planned {plan.summary!r} in {len(plan.steps)} steps",
                   status="success", next_action=first, risk_summary=risk_summary(plan.steps))


@dataclass
class PlanRun(_Record):
    """A plan with everything that happened to it: saved and shown as one JSON record."""

    goal: str
    plan: Plan
    execution_status: str
    outcomes: list[StepOutcome] = field(default_factory=list)
    handoffs: list[Handoff] = field(default_factory=list)
    review: ReviewReport | None = None
    _choices = {"execution_status": PLAN_RUN_STATUSES}

    @property
    def status(self):
        """The final status: the gate's, once reviewed; execution's until then."""
        return self.review.status if self.review is not None else self.execution_status

    def reviewed(self):
        """A copy with the reviewer gate's report and the reviewer's handoff added."""
        report = review_run(self.execution_status, self.outcomes)
        return PlanRun(self.goal, self.plan, self.execution_status, list(self.outcomes),
                       [*self.handoffs, report.handoff()], report)


def _step_result(do_step, contract):
    """``(status, detail)`` of one step: its return value is the detail; raising fails it."""
    try:
        detail = do_step(contract)
    except Exception as err:  # noqa: BLE001 -- a step's failure is an outcome, never a crash of the executor
        return "failed", describe_error(err)
    return "success", detail if isinstance(detail, str) else ""


def execute_plan(plan, goal, do_step, approve=None, steps=None):
    """Run ``plan``'s steps in order (or only those in ``steps``) and return a :class:`PlanRun`.

    ``do_step(contract) -> str`` does one step and returns what it did (raising
    fails the step). ``approve(contract)`` is asked before every step that
    writes or executes: ``True`` runs it, ``False`` skips it, ``"cancel"``
    cancels it and every later step. ``approve=None`` approves every step.
    """
    if not isinstance(plan, Plan):
        raise TypeError(f"plan must be a Plan, not {type(plan).__name__}; build one with Plan(summary, steps)")
    if not callable(do_step):
        raise TypeError("do_step must be a function contract -> str that does one step")
    if approve is not None and not callable(approve):
        raise TypeError("approve must be a function contract -> True, False or 'cancel', or None")
    chosen = plan.steps if steps is None else [plan.step(s) for s in steps]
    contracts = [c for c in plan.contracts(goal) if c.step_id in {s.id for s in chosen}]
    names = ", ".join(c.step_id for c in contracts) or "none"
    handoffs = [Handoff("coder", f"execution starts: {len(contracts)} of {len(plan.steps)} steps ({names})",
                        "success", f"coder: step {contracts[0].step_id}" if contracts else "reviewer: nothing ran",
                        risk_summary=risk_summary(chosen))]
    outcomes, cancelled = [], False
    for i, contract in enumerate(contracts):
        answer = True if approve is None or contract.risk == "read" or cancelled else approve(contract)
        if cancelled or answer == CANCEL:
            cancelled, status, detail = True, "cancelled", "the plan was cancelled before this step ran"
        elif answer is True:
            status, detail = _step_result(do_step, contract)
        elif answer is False:
            status, detail = "skipped", "approval was denied"
        else:
            raise ValueError(f"approve returned {answer!r} for step {contract.step_id}; "
                             f"return True, False or {CANCEL!r}")
        outcomes.append(StepOutcome(contract.step_id, status, contract.risk, detail))
        following = f"coder: step {contracts[i + 1].step_id}" if i + 1 < len(contracts) \
            else "reviewer: check the outcomes with the gate"
        handoffs.append(Handoff("coder", f"step {contract.step_id} {_DID[status]}: {detail or contract.title}",
                                status, following, risk_summary=risk_summary([plan.step(contract.step_id)])))
    execution = "cancelled" if cancelled else "failed" if any(o.status == "failed" for o in outcomes) \
        else "success"
    counts = ", ".join(f"{sum(o.status == k for o in outcomes)} {_DID[k].split()[-1]}"
                       for k in _DID if any(o.status == k for o in outcomes))
    handoffs.append(Handoff("coder", f"execution finished: {counts or 'no steps'}", execution,
                            "reviewer: check the outcomes with the gate"))
    return PlanRun(goal, plan, execution, outcomes, handoffs)
