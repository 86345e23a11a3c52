"""Exercise 6.2: grade ``run_outcomes(run)``, a finished run read as four step outcomes.

Requirements (each sentence of the exercise text, and the check that grades it):

=====================================================================  =============================
the exercise says                                                      check
=====================================================================  =============================
the four outcomes as dicts ``{"step", "status", "risk"}``, in the      ``shape``
order plan, code, tests, review
plan: PLAN.md holds a plan at the end (else failed)                    ``plan step``
code: a coder turn landed (none: failed; no turn: skipped)             ``code step``
tests: the last run green (red: failed; never ran: skipped)            ``tests step``
review: the last review left a verdict (none: failed; no turn:         ``review step``
skipped)
the status the gate then gives each run                                ``gated status``
=====================================================================  =============================

Scenarios: healthy runs with 0, 1 and 4 rounds and every fault of part 4,
compared step by step with :func:`agent_team.gated.run_outcomes`.
Measured (tests/grading/test_ex_6_2_grader.py): the reference passes; a plan step
always 'success' and 'failed' for 'skipped' fail their own checks.
"""

import copy
import functools

from ..clip import safe_repr
from ..faults import FAULTS, run_fault
from ..gated import STEPS, gated
from ..gated import run_outcomes as reference_outcomes
from ..supervisor import supervise
from .core import Report, call_learner, grading_run

__all__ = ["grade_run_outcomes"]

REQUIREMENTS = (
    ("shape", "four dicts with step, status and risk, for plan, code, tests, review in order"),
    *((f"{step} step", f"the {step} step has the right status, and risk {risk!r}") for step, risk in STEPS),
    ("gated status", "with your outcomes, the gate gives every run the right status"),
)


@functools.cache  # 16 deterministic runs: made at the first grading, not again at each one (nor at import)
def grading_runs():
    """``((name, run), ...)``: healthy runs at three budgets and every fault of part 4.

    Shared by every grading, so never handed to learner code: it gets a deep copy."""
    runs = [(f"healthy team, max_rounds={b}", supervise(max_rounds=b)) for b in (0, 1, 4)]
    return tuple(runs + [(name, run_fault(name)) for name in FAULTS])


def _outcome_shape(value):
    """What is wrong with the outcomes' shape, in words, or None. Exact types first (see shapes.py)."""
    if type(value) not in (list, tuple) or len(value) != len(STEPS):
        return f"it returned {safe_repr(value)}; return a list of {len(STEPS)} outcomes, one per step."
    for i, (item, (step, _)) in enumerate(zip(value, STEPS)):
        if type(item) is not dict or not all(type(k) is str for k in item) \
                or not all(type(item.get(k)) is str for k in ("step", "status", "risk")):
            return f"outcome {i} is {safe_repr(item)}; each is a dict with 'step', 'status' and 'risk' (each a str)."
        if item["step"] != step:
            return f"outcome {i} is for step {safe_repr(item['step'])}; the steps are, in order: " + \
                   ", ".join(s for s, _ in STEPS) + "."
    return None


@grading_run
def grade_run_outcomes(fn):
    """Grade exercise 6.2: ``run_outcomes(run)`` against the reference over healthy and faulty runs."""
    report = Report(exercise="6.2")
    report.declare_all(REQUIREMENTS)
    ran = False
    for name, run in grading_runs():
        call = call_learner(fn, copy.deepcopy(run), what="your run_outcomes")
        if call.not_implemented:
            report.outcome_override = "not implemented"
            return report.finish(ran=False)
        if not call.ok:
            report.fail("shape", f"On '{name}': {call.problem}")
            continue
        problem = _outcome_shape(call.value)
        if problem:
            report.fail("shape", f"On '{name}': {problem}")
            continue
        ran = True
        want = reference_outcomes(run)
        for got, ref in zip(call.value, want):
            if (got["status"], got["risk"]) != (ref["status"], ref["risk"]):
                why = f" ({ref['detail']})" if ref["detail"] else ""
                report.fail(f"{ref['step']} step", f"On '{name}' your {ref['step']} step is "
                            f"{safe_repr(got['status'])} with risk {safe_repr(got['risk'])}; it should be "
                            f"{ref['status']!r}{why}, risk {ref['risk']!r}.")
        call_gate = call_learner(lambda: gated(run, [dict(o) for o in call.value]),  # noqa: B023 -- called at once
                                 what="the gate on your outcomes")
        expected = gated(run).status
        if not call_gate.ok or call_gate.value.status != expected:
            got_status = call_gate.value.status if call_gate.ok else call_gate.problem
            report.fail("gated status", f"On '{name}' the gate on your outcomes gives {safe_repr(got_status)}; "
                                        f"it should be {expected!r}.")
    return report.finish(ran=ran)
