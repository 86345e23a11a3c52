"""The reviewer gate: a deterministic check that a run's step outcomes add up to success.

The failure it prevents::

    step S1 succeeded, step S2 was skipped  ->  "plan status: success"

Rules, in order of importance:

* A step that succeeded passes. A step that failed, was skipped or was
  cancelled blocks: unfinished work cannot silently become success.
* Risk never blocks by itself. A step that writes files or runs code adds a
  risk note and suggested checks, so the person accepting knows what to look at
  (unless it was skipped: a step that never ran did nothing risky).
* When the gate blocks it makes one read-only :class:`~agent_team.realteam.contracts.RetryProposal`,
  with the command that would carry it out and ``requires_approval``. It is data
  and text: nothing here retries, resumes or runs anything.
* :func:`review_run` applies the gate to a run that execution already called
  successful; if the gate blocks, the run ends as ``failed`` with the reason kept.

No model is asked and nothing random happens, so the same outcomes always get
the same decision: the gate can be tested exhaustively and trusted as a rule.
"""

import dataclasses
from collections.abc import Mapping

from ..clip import safe_repr
from .contracts import (
    PLAN_RUN_STATUSES, RISK_WORDS, GateDecision, RetryProposal, ReviewReport, StepOutcome, final_status,
)

__all__ = ["review_gate", "review_run", "PRECEDENCE"]

# When several kinds of blocked step occur, the proposal targets the first kind
# in this order (and the first step of that kind in the list):
# * failed first: a failure is a known defect with a concrete fix (retry that
#   step), and later steps usually build on it, so resuming or asking about
#   them before it is fixed would only run into it again;
# * cancelled next: resuming the plan reaches the remaining steps on its own,
#   skipped ones included if the user now allows them;
# * skipped last: a skip was a person's choice (an approval was denied), so we
#   ask that person again only when nothing can be done without them.
# Every blocked step is still listed in ``reasons``; only the proposal picks one.
PRECEDENCE = ("failed", "cancelled", "skipped")

_REASONS = {
    "failed": "step {step} failed{detail}",
    "skipped": "step {step} was skipped{detail}, so its work was never done",
    "cancelled": "step {step} was cancelled{detail} before it finished",
}

_PROPOSALS = {
    "failed": ("retry_step", "Retry step {step} after looking at why it failed{detail}. "
               "Nothing retries automatically: this needs your approval."),
    "skipped": ("user_decision", "Step {step} was skipped. Decide: retry it (optional, needs your "
                "approval), skip it explicitly, or accept its work as out of scope."),
    "cancelled": ("resume_plan", "The plan was cancelled at step {step}. Resume the plan from {step} "
                  "when you are ready; nothing resumes automatically."),
}

# The call a person would run to carry a proposal out (agent_team.realteam.execution.execute_plan with
# the names they used); the proposal only shows it. A cancelled plan resumes from the
# cancelled step to the end; a failed or skipped step is retried on its own.
COMMAND = "execute_plan(plan, goal, do_step, approve, steps={steps!r})"

# What a risky step (one of contracts.RISK_WORDS) should be checked for, whatever its status.
_RISK_CHECKS = {
    "write": ["look at the diff of every file step {step} wrote", "run the tests"],
    "execute": ["read the output of what step {step} ran", "run the tests again from a clean state"],
}

# Blocking on nothing done is the safe choice: an empty list is what a run
# that crashed before its first step, or a caller that lost the outcomes,
# looks like, and neither is success.
_EMPTY_REASON = "no step outcomes were recorded, so nothing shows the work was done"
_EMPTY_TEXT = ("No step outcomes were recorded. Check whether the plan ran at all, "
               "then run it again or accept it by hand.")

def _read(i, outcome):
    """One outcome as a :class:`~agent_team.realteam.contracts.StepOutcome`: the one validator of that record.

    A dict is read strictly (``StepOutcome.from_dict``); any other object by its
    attributes of the same names. A ``ValueError`` names the outcome's index and the field.
    """
    where = f"outcome {i}"
    if isinstance(outcome, StepOutcome):
        return outcome
    if isinstance(outcome, (str, bytes, int, float, list, tuple)) or outcome is None:
        raise ValueError(f"{where} is {type(outcome).__name__} {safe_repr(outcome, 40)}; each outcome must be a dict "
                         "or object with 'step' and 'status', like {'step': 'S1', 'status': 'success'}")
    if not isinstance(outcome, Mapping):
        names = [f.name for f in dataclasses.fields(StepOutcome)]
        outcome = {name: getattr(outcome, name) for name in names if hasattr(outcome, name)}
    return StepOutcome.from_dict(dict(outcome), where)


def _risk(step, risk):
    """The risk note and checks for one step."""
    if risk not in RISK_WORDS:
        return None, []
    return f"step {step} {RISK_WORDS[risk]}", [c.format(step=step) for c in _RISK_CHECKS[risk]]


def review_gate(outcomes):
    """Decide whether ``outcomes`` (step results, in plan order) add up to success.

    Returns a :class:`~agent_team.realteam.contracts.GateDecision`: ``passed``,
    ``reasons`` (why it blocked; empty when it passed), ``risk_notes``,
    ``suggested_checks`` and ``proposal`` (None when it passed). Each outcome
    is a :class:`~agent_team.realteam.contracts.StepOutcome`, or a dict or an object
    with its fields: ``step`` and ``status`` (one of ``success``, ``failed``,
    ``skipped``, ``cancelled``), and optionally ``risk`` (``read``, ``write``,
    ``execute``), ``detail`` and ``suggested_checks``; it is read as exactly
    as the record itself reads it.
    Every outcome counts: if a step was retried, pass only its latest outcome.
    """
    if not isinstance(outcomes, (list, tuple)):
        raise ValueError(f"outcomes must be a list, not {type(outcomes).__name__}; "
                         "pass e.g. [{'step': 'S1', 'status': 'success'}]")
    steps = [(o.step, o.status, o.risk, o.detail, o.suggested_checks)
             for o in (_read(i, o) for i, o in enumerate(outcomes))]
    if not steps:
        return GateDecision(passed=False, reasons=[_EMPTY_REASON],
                            proposal=RetryProposal(action="user_decision", step=None, text=_EMPTY_TEXT))
    reasons, notes, checks = [], [], []
    for step, status, risk, detail, extra in steps:
        said = f" ({detail})" if detail else ""
        if status != "success":
            reasons.append(_REASONS[status].format(step=step, detail=said))
        # A skipped step never ran, so its risk never came true; a failed or
        # cancelled one may have done part of its work, so it still gets notes.
        note, more = _risk(step, risk) if status != "skipped" else (None, [])
        if note:
            notes.append(note)
        checks += [c for c in more + extra if c not in checks]
    if not reasons:
        return GateDecision(passed=True, risk_notes=notes, suggested_checks=checks)
    kind = next(k for k in PRECEDENCE if any(s[1] == k for s in steps))
    at = next(i for i, s in enumerate(steps) if s[1] == kind)
    step, _, _, detail, _ = steps[at]
    action, text = _PROPOSALS[kind]
    targets = [s[0] for s in steps[at:]] if kind == "cancelled" else [step]
    proposal = RetryProposal(action=action, step=step,
                             text=text.format(step=step, detail=f" ({detail})" if detail else ""),
                             command=COMMAND.format(steps=targets), requires_approval=True)
    return GateDecision(passed=False, reasons=reasons, risk_notes=notes, suggested_checks=checks,
                        proposal=proposal)


def review_run(execution_status, outcomes):
    """Review a planned run: the gate decision and the run's final status, as a ReviewReport.

    A run execution marked ``success`` that the gate blocks ends as
    ``failed``, and ``reason`` says why. A run that already failed or was
    cancelled keeps its status: the gate can only take success away, never grant it.
    """
    if execution_status not in PLAN_RUN_STATUSES:
        raise ValueError(f"execution_status is {safe_repr(execution_status, 40)}; "
                         f"write one of {', '.join(PLAN_RUN_STATUSES)}")
    decision = review_gate(outcomes)
    status = final_status(execution_status, decision.passed)
    reason = ""
    if status != execution_status:
        reason = ("execution marked the run successful, but the reviewer gate blocked it: "
                  + "; ".join(decision.reasons))
    if decision.proposal is not None:
        next_action = decision.proposal.text
    elif execution_status != "success":
        next_action = (f"every step succeeded, but execution reported {execution_status!r}: "
                       "find out why before accepting")
    elif decision.suggested_checks:
        next_action = "accept after these checks: " + "; ".join(decision.suggested_checks)
    else:
        next_action = "accept"
    return ReviewReport(execution_status=execution_status, status=status, decision=decision,
                        reason=reason, next_action=next_action)
