"""Exercise 3.1: the wave-4 corpus's wrong readings (issue 35, item 5) of "how much of the tester's
answer becomes feedback", written from the text (notebooks/source/03_supervisor.py: the coder gets
``"test: " + result``, the whole result). Each is rejected by ``feedback``, first.

| the row says | wrong reading | mutant |
|---|---|---|
| feedback `"test: "` + result | only the result's first line | ``first_line`` |
| (same) | the result stripped of its surrounding blanks | ``stripped`` |
| (same) | the result up to its first colon | ``up_to_colon`` |
| (same) | the result after its first colon (the reason only) | ``reason_only`` |
| (same) | the review's same reading: only its first line | ``review_first_line`` |

Measured: before this file's grader changes, ``first_line`` and ``review_first_line`` were
accepted (2 of 5); now all 5 are rejected by ``feedback`` first. Two right styles pass before and after.
"""

import pytest
from grader_helpers import assert_accepted, assert_rejected_by

from agent_team.grading import grade_run_team


def team(test_feedback=lambda r: "test: " + r, review_feedback=lambda r: "review: " + r):
    def run_team(task, planner, coder, reviewer, tester, max_rounds):
        plan = planner(task)
        log, feedback = [("planner", plan)], ""
        for _ in range(max_rounds):
            code = coder(task, plan, feedback)
            log.append(("coder", code))
            review = reviewer(code)
            log.append(("reviewer", review))
            if not review.startswith("APPROVE"):
                feedback = review_feedback(review)
                continue
            result = tester(code)
            log.append(("tester", result))
            if result.startswith("PASS"):
                return code, log
            feedback = test_feedback(result)
        return None, log
    return run_team


WRONG = {
    "first_line": team(test_feedback=lambda r: "test: " + r.split("\n")[0]),
    "stripped": team(test_feedback=lambda r: "test: " + r.strip()),
    "up_to_colon": team(test_feedback=lambda r: "test: " + r.split(":")[0]),
    "reason_only": team(test_feedback=lambda r: "test: " + r.partition(":")[2].strip()),
    "review_first_line": team(review_feedback=lambda r: "review: " + r.split("\n")[0]),
}


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_reading_is_rejected_by_feedback_first(name):
    assert_rejected_by(grade_run_team(WRONG[name]), "feedback")


def while_style(task, planner, coder, reviewer, tester, max_rounds):
    plan, rounds, said = planner(task), 0, ""
    log = [("planner", plan)]
    while rounds < max_rounds:
        rounds += 1
        code = coder(task, plan, said)
        review = reviewer(code)
        log += [("coder", code), ("reviewer", review)]
        if review[:7] == "APPROVE":
            result = tester(code)
            log.append(("tester", result))
            if result[:4] == "PASS":
                return [code, log]
            said = f"test: {result}"
        else:
            said = f"review: {review}"
    return (None, log)


RIGHT = {"the default team": team(), "while and slices": while_style}


@pytest.mark.parametrize("name", RIGHT)
def test_a_right_team_in_another_style_passes(name):
    assert_accepted(grade_run_team(RIGHT[name]))
