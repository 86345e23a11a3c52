"""Exercise 5.1: wrong readings an unseen corpus found accepted (long or unusual inputs), each now
rejected by the check of its rule; and a correct gate's second failure no longer charged to a rule
it keeps.

| the text says | wrong reading | mutant |
|---|---|---|
| every outcome counts, however long the list (1,500 here) | the first thousand are enough | ``first_thousand`` |
| (same) | a recursive walk (fine for a dozen, not for thousands) | ``recursive`` |
| `step` is the id as given (any str or int) | an id of digits is a number: `int(...)` it | ``digits_to_int`` |
| (same) | ids of digits compared as numbers: the smallest first | ``smallest_number_first`` |
| failed, then cancelled, then skipped | (a precedence mistake, reported as precedence only) | ``list_order_only`` |

Measured: before, ``first_thousand``, ``recursive`` and ``digits_to_int`` were accepted (3 of 4
wrong readings; ``smallest_number_first`` was rejected), and ``list_order_only`` also failed
"every outcome counts"; now all 4 are rejected by their own check, and the precedence mistake
fails only "precedence".
"""

import pytest
from grader_helpers import assert_rejected_by

from agent_team.grading.gate import grade_gate

ACTION = {"failed": "retry_step", "cancelled": "resume_plan", "skipped": "user_decision"}


def decide(outcomes, key=lambda o: o["step"]):
    if not outcomes:
        return {"passed": False, "action": "user_decision", "step": None}
    for kind in ("failed", "cancelled", "skipped"):
        for o in outcomes:
            if o["status"] == kind:
                return {"passed": False, "action": ACTION[kind], "step": key(o)}
    return {"passed": True, "action": None, "step": None}


def first_thousand(outcomes):
    return decide(outcomes[:1000]) if outcomes else decide(outcomes)


def recursive(outcomes, kinds=("failed", "cancelled", "skipped")):
    if not outcomes:
        return {"passed": False, "action": "user_decision", "step": None}

    def find(kind, rest):
        if not rest:
            return None
        return rest[0] if rest[0]["status"] == kind else find(kind, rest[1:])
    for kind in kinds:
        found = find(kind, outcomes)
        if found:
            return {"passed": False, "action": ACTION[kind], "step": found["step"]}
    return {"passed": True, "action": None, "step": None}


def digits_to_int(outcomes):
    return decide(outcomes, key=lambda o: int(o["step"]) if str(o["step"]).isdigit() else o["step"])


def smallest_number_first(outcomes):
    ordered = sorted(outcomes, key=lambda o: (0, int(o["step"])) if str(o["step"]).isdigit() else (1, 0))
    return decide(ordered)


def list_order_only(outcomes):
    if not outcomes:
        return {"passed": False, "action": "user_decision", "step": None}
    for o in outcomes:
        if o["status"] != "success":
            return {"passed": False, "action": ACTION[o["status"]], "step": o["step"]}
    return {"passed": True, "action": None, "step": None}


WRONG = {
    "first_thousand": (first_thousand, "every outcome counts"),
    "recursive": (recursive, "every outcome counts"),
    "digits_to_int": (digits_to_int, "ids as given"),
    "smallest_number_first": (smallest_number_first, "first in list order"),
}


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_reading_is_rejected_by_its_rule(name):
    fn, check = WRONG[name]
    assert_rejected_by(grade_gate(fn), check)


def test_a_precedence_mistake_fails_precedence_only():
    report = grade_gate(list_order_only)
    assert [c.name for c in report.checks if c.passed is False] == ["precedence"], str(report)
