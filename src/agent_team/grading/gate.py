"""Grader for exercise 5.1: a reviewer gate with retry proposals, written by the learner.

The learner writes ``gate(outcomes) -> {"passed": bool, "action": str | None, "step": id | None}``.
Each requirement is one check, run on named cases first (so a failure names
the rule it breaks) and then on random outcome lists, all compared with the
reference :func:`agent_team.gate.review_gate`.
"""

import copy
import random

from ..contracts import ACTIONS, STEP_STATUSES
from ..gate import review_gate
from .core import Report, call_learner, grading_run, show

__all__ = ["check_gate", "expected_gate", "GATE_CASES"]


def _o(step, status, risk="read"):
    return {"step": step, "status": status, "risk": risk}


# (check name, requirement, [(case name, outcomes), ...])
GATE_CASES = (
    ("success passes", "only successful steps: passed, no action, no step", [
        ("one success", [_o("S1", "success")]),
        ("three successes", [_o("S1", "success"), _o("S2", "success"), _o("S3", "success")]),
    ]),
    ("risk does not block", "write and execute risks never block by themselves", [
        ("a write and an execute step, both successful", [_o("S1", "success", "write"),
                                                         _o("S2", "success", "execute")]),
    ]),
    ("failed", "a failed step blocks and proposes retry_step on it", [
        ("S2 failed", [_o("S1", "success"), _o("S2", "failed")]),
        ("S2 and S3 failed", [_o("S1", "success"), _o("S2", "failed"), _o("S3", "failed")]),
    ]),
    ("skipped", "a skipped step blocks and proposes user_decision on it", [
        ("S1 skipped", [_o("S1", "skipped"), _o("S2", "success")]),
    ]),
    ("cancelled", "a cancelled step blocks and proposes resume_plan from it", [
        ("S3 cancelled", [_o("S1", "success"), _o("S2", "success"), _o("S3", "cancelled")]),
    ]),
    ("precedence", "failed before cancelled before skipped, the first step of that kind", [
        ("S1 skipped, S2 failed", [_o("S1", "skipped"), _o("S2", "failed")]),
        ("S1 cancelled, S2 failed", [_o("S1", "cancelled"), _o("S2", "failed")]),
        ("S1 skipped, S2 cancelled", [_o("S1", "skipped"), _o("S2", "cancelled")]),
        ("all four kinds", [_o("S1", "skipped"), _o("S2", "cancelled"), _o("S3", "failed"),
                            _o("S4", "success")]),
    ]),
    ("empty list", "no outcomes at all: blocked, user_decision, step None", [
        ("no outcomes", []),
    ]),
)

WHY = {
    "retry_step": "a failed step is retried first",
    "resume_plan": "with no failed step, a cancelled run is resumed",
    "user_decision": "only skipped steps are left (or nothing ran), so the user decides",
    None: "every step succeeded",
}


def expected_gate(outcomes):
    """What the learner's gate should return, from the reference gate."""
    decision = review_gate(outcomes)
    proposal = decision.proposal
    return {"passed": decision.passed, "action": proposal.action if proposal else None,
            "step": proposal.step if proposal else None}


def random_cases(n=200, seed=5):
    rng = random.Random(seed)
    return [[_o(f"S{i + 1}", rng.choice(STEP_STATUSES), rng.choice(("read", "write", "execute")))
             for i in range(rng.randint(1, 6))] for _ in range(n)]


def _describe(outcomes):
    return "[" + ", ".join(f"{o['step']} {o['status']}" for o in outcomes) + "]" if outcomes else "[]"


def _shape_problem(value):
    if not isinstance(value, dict) or not {"passed", "action", "step"} <= set(value):
        return f"it returned {show(value)}; return a dict with 'passed', 'action' and 'step'."
    if not isinstance(value["passed"], bool):
        return f"'passed' is {show(value['passed'])}; it must be True or False."
    if value["action"] is not None and value["action"] not in ACTIONS:
        return f"'action' is {show(value['action'])}; use None or one of {', '.join(ACTIONS)}."
    return None


def _grade_one(report, check, fn, name, outcomes):
    """Run one case; return False when grading must stop (the stub is untouched)."""
    call = call_learner(fn, copy.deepcopy(outcomes), what="your gate")
    if call.not_implemented:
        report.status_override = "not implemented"
        return False
    if not call.ok:
        check.fail(f"On {name} {_describe(outcomes)}: {call.problem}")
        return True
    problem = _shape_problem(call.value)
    if problem:
        report.fail("shape", f"On {name}: {problem}")
        return True
    want = expected_gate(outcomes)
    got = {key: call.value[key] for key in ("passed", "action", "step")}
    if got != want:
        check.fail(f"On {name} {_describe(outcomes)} your gate returned {show(got)}, but it should be "
                   f"{show(want)}: {WHY[want['action']]}.")
    return True


@grading_run
def check_gate(fn):
    """Grade a learner's ``gate(outcomes)`` against the reference reviewer gate."""
    report = Report("Exercise 5.1: the reviewer gate", exercise="5.1",
                    hint="Collect the statuses that are not 'success'. None: passed. Otherwise take the "
                         "first kind present in ('failed', 'cancelled', 'skipped'), the first step with "
                         "that status, and the matching action.")
    report.declare("shape", "returns a dict with passed (bool), action (None or a proposal action) and step")
    for check_name, requirement, _ in GATE_CASES:  # every requirement listed up front
        report.declare(check_name, requirement)
    check = report.declare("random outcomes", "agrees with the reference gate on 200 random outcome lists")
    for check_name, _, cases in GATE_CASES:
        for name, outcomes in cases:
            if not _grade_one(report, report.check(check_name), fn, f"'{name}'", outcomes):
                return report.finish()
    for i, outcomes in enumerate(random_cases()):
        _grade_one(report, check, fn, f"random case {i + 1}", outcomes)
        if check.passed is False or report.check("shape").passed is False:
            break
    return report.finish()
