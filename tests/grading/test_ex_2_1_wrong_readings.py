"""Exercise 2.1: wrong readings an unseen corpus and a learner walk found accepted or puzzling.

| the text says | wrong reading | mutant |
|---|---|---|
| count every request_changes, wherever it stands | in the last ten verdicts (a window) | ``window_of_ten`` |
| (same) | in the last twelve (a window as long as any list seen so far) | ``window_of_twelve`` |
| count from the view (its past_verdicts) | a counter of its own, kept between calls | ``counter_kept_between_calls`` |

Measured: before, ``window_of_ten`` and ``window_of_twelve`` were accepted (2 of 3 wrong
readings), and the counter kept between calls was rejected with a message that did not name the
cause; now all three are rejected, the counter by a message that names state kept between calls.
"""

import pytest
from grader_helpers import assert_rejected_by

from agent_team.grading import grade_nits_reviewer
from agent_team.policies import output, review_patch

LIMIT = 3


def reply(view, asked):
    last = view.get("last_tests")
    if last and last["ok"]:
        return output("reviewer", "green", [review_patch("approve", "tests green")], "tests green")
    notes = last["errors"][0] if last else "no test results yet"
    return output("reviewer", "red", [review_patch("request_changes", notes)],
                  "escalate" if asked >= LIMIT else notes)


def window(n):
    def reviewer(goal, view):
        return reply(view, view["past_verdicts"][-n:].count("request_changes"))
    return reviewer


def counter_kept_between_calls(goal, view, asked=[0]):  # noqa: B006 -- the mistake under test
    last = view.get("last_tests")
    result = reply(view, asked[0])
    if not (last and last["ok"]):
        asked[0] += 1
    return result


WRONG = {
    "window_of_ten": (window(10), "counts requests", "approvals do not count"),
    "window_of_twelve": (window(12), "counts requests", "approvals do not count"),
    "counter_kept_between_calls": (counter_kept_between_calls, "escalate at the limit", "between calls"),
}


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_reading_is_rejected_by_its_sentence(name):
    fn, check, words = WRONG[name]
    report = grade_nits_reviewer(fn)
    assert_rejected_by(report, check)
    assert words in report.check(check).detail, report.check(check).detail
