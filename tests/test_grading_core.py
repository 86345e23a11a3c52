"""Report.fail only fails declared checks, so a typo in a grader cannot invent a new check."""

import pytest

from agent_team.grading import Report


def test_fail_marks_the_declared_check_and_keeps_the_first_reason():
    report = Report("demo")
    report.declare("rounds", "the coder is called at most max_rounds times")
    report.fail("rounds", "called 4 times")
    report.fail("rounds", "called 9 times")
    (check,) = report.checks
    assert check.passed is False and check.detail == "called 4 times"
    assert report.finish(ran=True).status == "not yet"


def test_failing_an_undeclared_check_is_a_grader_bug():
    report = Report("demo")
    report.declare("rounds", "...")
    with pytest.raises(KeyError, match="no check 'round'"):
        report.fail("round", "typo")


def test_declare_all_keeps_the_order_a_learner_reads():
    report = Report("demo").declare_all([("b", "second"), ("a", "first")])
    assert [(c.name, c.requirement) for c in report.checks] == [("b", "second"), ("a", "first")]
