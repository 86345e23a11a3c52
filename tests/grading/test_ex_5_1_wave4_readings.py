"""Exercise 5.1: the wave-4 corpus's wrong readings (issue 35, item 5), written from the text
(notebooks/source/05_real_team.py: "every outcome counts, however long the list"): a window over
long outcome lists. Each is rejected by ``every outcome counts``, first.

| wrong reading | mutant |
|---|---|
| only the last thousand outcomes (the recent ones) | ``last_thousand`` |
| only the last hundred | ``last_hundred`` |
| only the first two thousand (longer than any list seen before) | ``first_two_thousand`` |

Measured: before this file's grader changes all 3 were accepted (the longest case, 1,500
successes then a failure, keeps its blocker last); now all 3 are rejected by ``every outcome
counts`` first. A right gate in another style passes before and after.
"""

import pytest
from grader_helpers import assert_accepted, assert_rejected_by
from test_ex_5_1_wrong_readings import decide

from agent_team.grading.gate import grade_gate


def window(cut):
    return lambda outcomes: decide(cut(outcomes)) if outcomes else decide(outcomes)


WRONG = {
    "last_thousand": window(lambda o: o[-1000:]),
    "last_hundred": window(lambda o: o[-100:]),
    "first_two_thousand": window(lambda o: o[:2000]),
}


@pytest.mark.parametrize("name", WRONG)
def test_a_window_is_rejected_by_every_outcome_counts(name):
    assert_rejected_by(grade_gate(WRONG[name]), "every outcome counts")


def by_index(outcomes):
    """One pass, remembering the first index of each kind."""
    first = {}
    for i, o in enumerate(outcomes):
        first.setdefault(o["status"], i)
    for kind, action in (("failed", "retry_step"), ("cancelled", "resume_plan"), ("skipped", "user_decision")):
        if kind in first:
            return {"passed": False, "action": action, "step": outcomes[first[kind]]["step"]}
    if not outcomes:
        return {"passed": False, "action": "user_decision", "step": None}
    return {"passed": True, "action": None, "step": None}


def test_a_right_gate_in_one_pass_passes():
    assert_accepted(grade_gate(by_index))
