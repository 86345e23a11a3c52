"""Exercise 6.1: the wave-4 corpus's wrong reading (issue 35, item 5), written from the text
(notebooks/source/06_your_team.py: the evidence "returns None (not "") in a healthy run", any
healthy run): evidence that holds in a healthy run with no coder turn (a budget of 0 rounds).
Rejected by ``evidence is specific``, first.

| wrong reading | mutant |
|---|---|
| evidence = "no coder patch landed" (true of a run whose coder never spoke) | ``no_landed_patch`` |
| evidence read from the first coder turn, which a run may not have (it raises) | ``first_coder_turn`` |

Measured: before this file's grader changes both were accepted; now both are rejected by
``evidence is specific`` first. The worked fault and a right evidence in another style pass.
"""

import pytest
from grader_helpers import assert_accepted, assert_rejected_by

from agent_team.grading import grade_my_fault
from agent_team.policies import output
from agent_team.repo import SRC_PATH
from agent_team.trace import turns


def flooding_coder(goal, view):
    """A coder that sends more patches than a turn may carry: every turn is refused."""
    return output("coder", "many files", [{"path": SRC_PATH, "content": f"# {i}\n"} for i in range(20)], "done")


def no_landed_patch(run):
    return None if any(t["applied"] for t in turns(run.trace, "coder")) else "no coder patch landed"


def first_coder_turn(run):
    first = turns(run.trace, "coder")[0]
    return None if first["applied"] else f"round 1: {first['error']}"


def refused_coder_turn(run):
    return next((f"round {t['round']}: {t['error']}" for t in turns(run.trace, "coder")
                 if not t["applied"] and t["error"]), None)


def fault(evidence):
    return {"name": "a coder that floods the turn", "kwargs": {"coder": flooding_coder, "max_rounds": 2},
            "expect": "budget", "evidence": evidence}


@pytest.mark.parametrize("evidence", [no_landed_patch, first_coder_turn], ids=lambda f: f.__name__)
def test_evidence_true_of_a_run_with_no_coder_turn_is_not_specific(evidence):
    assert_rejected_by(grade_my_fault(fault(evidence)), "evidence is specific")


def test_evidence_that_names_the_refusal_passes():
    assert_accepted(grade_my_fault(fault(refused_coder_turn)))
