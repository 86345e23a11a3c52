"""Exercise 4.1: what a learner walk tried and found puzzling, each now answered in words.

| attempt | before | now |
|---|---|---|
| a `Fault` object as a row's kwargs | "kwargs is a Fault … it must be a dict" | also: pass its `.kwargs` |
| a typo, `max_round` | every keyword of `supervise` listed | the close match first: "did you mean 'max_rounds'?" |
| a row that hangs (default `seconds`) | `rows` went from judged to "not run" | `rows` stays judged (shapes checked) |

Copying `FAULTS` into rows (`{**f.kwargs, "max_rounds": 4}`) is not a wrong reading: the text asks
for "a policy from `agent_team.faults` or one of your own", so it stays a correct eval in
test_ex_4_1_mutants.py ("from the FAULTS table"); `expectations` still makes the learner run each row.
"""

from grader_helpers import GOOD, H1, H4, assert_rejected_by

from agent_team.faults import FAULTS
from agent_team.grading import grade_fault_eval


def sleepy_coder(goal, view):
    while True:
        pass


def test_a_fault_object_as_kwargs_is_told_to_pass_its_kwargs():
    fault = next(iter(FAULTS.values()))
    report = grade_fault_eval([H1, H4, ("fizz", fault, fault.expect)])
    assert_rejected_by(report, "rows")
    assert "kwargs is a Fault" in report.check("rows").detail
    assert ".kwargs" in report.check("rows").detail.split("kwargs is a Fault")[1]


def test_a_misspelt_keyword_is_given_its_close_match():
    report = grade_fault_eval([H1, H4, ("fizz", {"coder": None, "max_round": 4}, "pass")])
    assert_rejected_by(report, "rows")
    assert "did you mean 'max_rounds'?" in report.check("rows").detail, report.check("rows").detail


def test_a_row_that_runs_out_of_time_leaves_rows_judged(short_caps):
    report = grade_fault_eval(GOOD + [("sleepy", {"coder": sleepy_coder, "max_rounds": 4}, "budget")])
    assert_rejected_by(report, "row limits")
    assert report.check("rows").passed is True, str(report)
