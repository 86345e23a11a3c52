"""A team run judged by the reviewer gate: its work as four steps, and a status of its own.

``supervise`` ends a run on the oracle or the budget. Part 5's gate asks a
different question: was every step of the work actually done? Read a finished
run as the plan it silently follows::

    plan    (write)    PLAN.md holds a plan at the end of the run
    code    (write)    at least one coder turn landed a patch
    tests   (execute)  the last test run was green
    review  (write)    the last review left a verdict in REVIEW.json

and a run the oracle passed can still be incomplete: the planner never managed
to write a plan, or the reviewer never left a verdict. Such a run ends
``blocked``, the gate's own status, with the gate's reasons and proposal kept.
The gate only takes success away: a ``budget`` run stays ``budget``.
"""

from dataclasses import dataclass, field

from .contracts import ReviewReport
from .gate import review_run
from ..repo import PLAN_PATH
from ..supervisor import RUN_STATUSES
from ..trace import oracle_reports, turns

__all__ = ["STEPS", "GATED_STATUSES", "GatedRun", "run_outcomes", "gated"]

STEPS = (("plan", "write"), ("code", "write"), ("tests", "execute"), ("review", "write"))
GATED_STATUSES = (*RUN_STATUSES, "blocked")  # the gate adds one ending of its own
_RISK = dict(STEPS)


def _outcome(step, status, detail=""):
    return {"step": step, "status": status, "risk": _RISK[step], "detail": detail}


def run_outcomes(run):
    """The four step outcomes of a finished run (a ``RunResult``), in plan order."""
    trace, repo = getattr(run, "trace", None), getattr(run, "repo", None)
    if not isinstance(trace, list) or not isinstance(repo, dict):
        raise TypeError(f"run must be the result of supervise(...), not {type(run).__name__}")
    plan = repo.get(PLAN_PATH)
    outcomes = [_outcome("plan", "success") if isinstance(plan, str) and plan.strip()
                else _outcome("plan", "failed", "PLAN.md is empty at the end of the run")]
    coder = turns(trace, "coder")
    if not coder:
        outcomes.append(_outcome("code", "skipped", "the coder never had a turn"))
    elif any(e.get("applied") and e.get("patches") for e in coder):
        outcomes.append(_outcome("code", "success"))
    elif any(e.get("applied") for e in coder):  # "fixed", with no patch: words change no file
        outcomes.append(_outcome("code", "failed", "no coder turn landed a patch: every turn that landed sent none"))
    else:
        outcomes.append(_outcome("code", "failed", f"no coder turn landed; last: {coder[-1].get('error')}"))
    tests = oracle_reports(trace)
    if not tests:
        outcomes.append(_outcome("tests", "skipped", "the tests never ran"))
    elif tests[-1].get("ok"):
        outcomes.append(_outcome("tests", "success"))
    else:
        errors = tests[-1].get("errors") or ["no error recorded"]
        outcomes.append(_outcome("tests", "failed", errors[0]))
    reviewer = turns(trace, "reviewer")
    if not reviewer:
        outcomes.append(_outcome("review", "skipped", "the reviewer never had a turn"))
    elif reviewer[-1].get("verdict"):
        outcomes.append(_outcome("review", "success"))
    else:
        outcomes.append(_outcome("review", "failed",
                                 f"the last review left no verdict: {reviewer[-1].get('error')}"))
    return outcomes


@dataclass
class GatedRun:
    """A run with the gate's verdict on it: ``status`` is pass, budget or blocked."""

    run: object = field(repr=False)
    outcomes: list
    report: ReviewReport

    @property
    def status(self):
        """The run's own status, except that the gate takes a pass away when it blocks."""
        if self.run.status == "pass" and not self.report.decision.passed:
            return "blocked"
        return self.run.status

    @property
    def stop_reason(self):
        if self.status == "blocked":
            return "the tests passed, but the gate blocked the run: " + "; ".join(self.report.decision.reasons)
        return self.run.stop_reason


def gated(run, outcomes=None):
    """Judge a finished run with the reviewer gate; ``outcomes`` defaults to :func:`run_outcomes`."""
    outcomes = run_outcomes(run) if outcomes is None else outcomes
    return GatedRun(run, outcomes, review_run("success" if run.status == "pass" else "failed", outcomes))
