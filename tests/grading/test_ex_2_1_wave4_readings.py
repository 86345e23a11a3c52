"""Exercise 2.1: the wave-4 corpus's wrong readings (issue 35, item 5), written from the text
(notebooks/source/02_policies.py, exercise 2.1 and its check table): the boundaries of the plan
and of an empty first error. Each is rejected by the check of its row, first.

| the row says | wrong reading | mutant |
|---|---|---|
| green: approve, always | approve only with a plan (none: request changes) | ``approves_with_a_plan`` |
| (same) | no plan read as no test report | ``no_plan_is_no_report`` |
| notes: exactly `errors[0]` | an empty first error replaced by "no test results yet" | ``empty_error_is_no_report`` |
| (same) | the first error stripped | ``stripped_error`` |
| (same) | the first non-empty error | ``first_non_empty_error`` |

Measured: before this file's grader changes all 5 were accepted; now all 5 are rejected by their
row first. Two right readings in other styles pass before and after.
"""

import pytest
from grader_helpers import assert_accepted, assert_rejected_by
from test_ex_2_1_wrong_readings import LIMIT

from agent_team.grading import grade_nits_reviewer
from agent_team.policies import output, review_patch

NO_REPORT = "no test results yet"


def reviewer(notes_of=lambda last: last["errors"][0], green=lambda view, last: bool(last and last["ok"]),
             no_report=lambda view, last: last is None):
    """A right reviewer but for the one reading passed in."""
    def review(goal, view):
        last = view.get("last_tests")
        if green(view, last):
            return output("reviewer", "green", [review_patch("approve", "tests green")], "tests green")
        notes = NO_REPORT if no_report(view, last) else notes_of(last)
        asked = view["past_verdicts"].count("request_changes")
        return output("reviewer", "red", [review_patch("request_changes", notes)],
                      "escalate" if asked >= LIMIT else notes)
    return review


WRONG = {
    "approves_with_a_plan": (reviewer(green=lambda view, last: bool(last and last["ok"] and view.get("plan"))),
                             "green: approve"),
    "no_plan_is_no_report": (reviewer(no_report=lambda view, last: last is None or not view.get("plan"),
                                      green=lambda view, last: bool(view.get("plan") and last and last["ok"])),
                             "green: approve"),
    "empty_error_is_no_report": (reviewer(notes_of=lambda last: last["errors"][0] or NO_REPORT), "notes"),
    "stripped_error": (reviewer(notes_of=lambda last: last["errors"][0].strip()), "notes"),
    "first_non_empty_error": (reviewer(notes_of=lambda last: next((e for e in last["errors"] if e), NO_REPORT)),
                              "notes"),
}


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_reading_is_rejected_by_its_row_first(name):
    fn, check = WRONG[name]
    assert_rejected_by(grade_nits_reviewer(fn), check)


def index_style(goal, view):
    tests = view["last_tests"]
    if tests is not None and tests["ok"] is True:
        return output("reviewer", "ok", [review_patch("approve", "")], "approve")
    first = NO_REPORT if tests is None else tests["errors"][0]
    n = sum(1 for v in view["past_verdicts"] if v == "request_changes")
    return output("reviewer", f"{n} asked", [review_patch("request_changes", first)], first if n < 3 else "escalate")


RIGHT = {"the default reviewer": reviewer(), "index style": index_style}


@pytest.mark.parametrize("name", RIGHT)
def test_a_right_reading_in_another_style_passes(name):
    assert_accepted(grade_nits_reviewer(RIGHT[name]))
