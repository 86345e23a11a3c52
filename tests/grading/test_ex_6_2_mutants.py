"""Exercise 6.2: wrong ``run_outcomes`` a learner might write from the exercise text (the table of
section 2 and the exercise's sentences), each rejected by the check of the step it misreads; and
right ones in other styles, accepted.

| the text says | wrong reading | mutant |
|---|---|---|
| plan: PLAN.md holds a plan at the end of the run | the planner's first turn landed | ``plan_first_turn`` |
| (same) | some planner turn landed | ``plan_any_turn`` |
| (same) | PLAN.md is not empty (whitespace counts) | ``plan_not_empty`` |
| code: at least one coder turn landed a patch | the last coder turn landed | ``code_last_turn`` |
| (same) | a turn that landed with no patch counts | ``code_no_patch_counts`` |
| tests: the last test run was green | any test run was green | ``tests_any_green`` |
| review: the last reviewer turn left a verdict | any reviewer turn left a verdict | ``review_any_verdict`` |
| (same) | the verdict was approve | ``review_approve_only`` |
| dicts {"step", "status", "risk"} | an extra key is harmless | ``extra_key`` |

Measured: before this suite and its scenarios, ``plan_first_turn``, ``plan_any_turn``,
``code_last_turn``, ``code_no_patch_counts``, ``tests_any_green`` (no run can tell it apart: green
tests end a run, so it is kept only as a right style) and ``review_any_verdict`` were accepted,
and ``extra_key`` was refused only through a garbled gate error; now every wrong one is rejected
by its own check, with a message that names the step.
"""

import pytest
from grader_helpers import assert_accepted, assert_rejected_by

from agent_team.realteam.gated import run_outcomes
from agent_team.grading import grade_run_outcomes
from agent_team.repo import PLAN_PATH
from agent_team.trace import oracle_reports, turns


def outcome(step, risk, done, never=False):
    return {"step": step, "risk": risk, "status": "skipped" if never else "success" if done else "failed"}


def make(plan=None, code=None, tests=None, review=None):
    """A learner's run_outcomes whose only mistake is the one step given (the others are right)."""
    def run_outcomes_(run):
        t = oracle_reports(run.trace)
        coder, reviewer, planner = (turns(run.trace, r) for r in ("coder", "reviewer", "planner"))
        right = {
            "plan": bool(run.repo.get(PLAN_PATH, "").strip()),
            "code": any(e["applied"] and e["patches"] for e in coder),
            "tests": bool(t) and t[-1]["ok"],
            "review": bool(reviewer) and reviewer[-1].get("verdict") is not None,
        }
        mine = {"plan": plan, "code": code, "tests": tests, "review": review}
        done = {k: (mine[k](run, planner, coder, t, reviewer) if mine[k] else v) for k, v in right.items()}
        return [outcome("plan", "write", done["plan"]),
                outcome("code", "write", done["code"], never=not coder),
                outcome("tests", "execute", done["tests"], never=not t),
                outcome("review", "write", done["review"], never=not reviewer)]
    return run_outcomes_


WRONG = {
    "plan_first_turn": (make(plan=lambda run, p, c, t, r: bool(p) and p[0]["applied"]), "plan step"),
    "plan_any_turn": (make(plan=lambda run, p, c, t, r: any(e["applied"] for e in p)), "plan step"),
    "plan_not_empty": (make(plan=lambda run, p, c, t, r: run.repo.get(PLAN_PATH, "") != ""), "plan step"),
    "code_last_turn": (make(code=lambda run, p, c, t, r: bool(c) and c[-1]["applied"]), "code step"),
    "code_no_patch_counts": (make(code=lambda run, p, c, t, r: any(e["applied"] for e in c)), "code step"),
    "review_any_verdict": (make(review=lambda run, p, c, t, r: any(e.get("verdict") for e in r)), "review step"),
    "review_approve_only": (make(review=lambda run, p, c, t, r: bool(r) and (r[-1].get("verdict") or {}).get(
        "verdict") == "approve"), "review step"),
    "extra_key": (lambda run: [{**o, "note": "mine"} for o in make()(run)], "shape"),
}


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_reading_is_rejected_by_its_step(name):
    fn, check = WRONG[name]
    assert_rejected_by(grade_run_outcomes(fn), check)


def test_an_extra_key_is_named_in_the_shape_check_not_in_a_gate_error():
    detail = grade_run_outcomes(WRONG["extra_key"][0]).check("shape").detail
    assert "'note'" in detail and "raised" not in detail


RIGHT = {
    "the reference": run_outcomes,
    "table-driven": make(),
    "any green (no run can be green, then red: green ends a run)": make(
        tests=lambda run, p, c, t, r: any(x["ok"] for x in t)),
    "tuple of dicts, with detail": lambda run: tuple({**o, "detail": ""} for o in make()(run)),
}


@pytest.mark.parametrize("name", RIGHT)
def test_a_right_reading_is_accepted(name):
    assert_accepted(grade_run_outcomes(RIGHT[name]))
