"""Exercise 6.2: the wave-4 corpus's wrong readings (issue 35, item 5), written from the text
(notebooks/source/06_your_team.py, section 2's table and exercise 6.2): a run whose PLAN.md is
deleted, and a reviewer whose REVIEW.json is prose. Each is rejected by its step (or by
``returns`` for the one that raises), first.

| the text says | wrong reading | mutant | check |
|---|---|---|---|
| plan: PLAN.md holds a plan at the end | always there: ``run.repo[PLAN_PATH]`` | ``plan_indexed`` | returns |
| (same) | a PLAN.md that was deleted is "not wiped": success | ``plan_missing_is_fine`` | plan step |
| review: the last turn left a verdict | REVIEW.json has a verdict word | ``review_file_has_a_word`` | review step |
| (same) | the last turn landed (prose lands, with no verdict) | ``review_turn_landed`` | review step |
| (same) | REVIEW.json is not empty | ``review_file_not_empty`` | review step |

Measured: before this file's grader changes, all 4 were accepted; now all 4 are rejected by their
check first. The reference and a right style pass before and after.

The extra key: the text says the outcomes hold "step", "status", "risk" and "no other keys: the
gate refuses them", while ``gated.run_outcomes`` writes a "detail" and the gate accepts it (and
"suggested_checks"); the grader follows the gate (``test_ex_6_2_mutants``: "detail" right, "note"
wrong). The text is the one to change (the gate's optional fields are real: part 5 passes a
"detail" to the gate itself); the lead has the sentence.
"""

import pytest
from grader_helpers import assert_accepted, assert_rejected_by
from test_ex_6_2_mutants import make

from agent_team.realteam.contracts import StepOutcome
from agent_team.realteam.gated import run_outcomes
from agent_team.grading import grade_run_outcomes
from agent_team.repo import PLAN_PATH, REVIEW_PATH
from agent_team.supervisor import supervise

WRONG = {
    "plan_indexed": (make(plan=lambda run, p, c, t, r: bool(run.repo[PLAN_PATH].strip())), "returns"),
    "plan_missing_is_fine": (make(plan=lambda run, p, c, t, r: PLAN_PATH not in run.repo
                                  or bool(run.repo[PLAN_PATH].strip())), "plan step"),
    "review_file_has_a_word": (make(review=lambda run, p, c, t, r: bool(r) and any(
        w in run.repo.get(REVIEW_PATH, "") for w in ("approve", "request_changes"))), "review step"),
    "review_turn_landed": (make(review=lambda run, p, c, t, r: bool(r) and r[-1]["applied"]), "review step"),
    "review_file_not_empty": (make(review=lambda run, p, c, t, r: bool(r) and bool(run.repo.get(REVIEW_PATH, "")
                                                                                   .strip())), "review step"),
}


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_reading_is_rejected_first_by_its_check(name):
    fn, check = WRONG[name]
    assert_rejected_by(grade_run_outcomes(fn), check)


def verdict_of_the_last_turn(run, p, c, t, r):
    """The last reviewer turn's verdict, as the trace records it, read with a default."""
    return bool(r) and dict(r[-1]).get("verdict", None) is not None


RIGHT = {"the reference": run_outcomes, "the turn's verdict read defensively": make(review=verdict_of_the_last_turn)}


@pytest.mark.parametrize("name", RIGHT)
def test_a_right_reading_is_accepted(name):
    assert_accepted(grade_run_outcomes(RIGHT[name]))


def test_the_engine_writes_only_keys_the_gate_accepts():
    fields = set(StepOutcome.__dataclass_fields__)
    assert all(set(o) <= fields for o in run_outcomes(supervise()))
