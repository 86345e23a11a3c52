"""Report.fail only fails declared checks, so a typo in a grader cannot invent a new check; importing
the graders does no grading work."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent_team.grading import Report

SRC = Path(__file__).resolve().parents[2] / "src"


def test_fail_marks_the_declared_check_and_keeps_the_first_reason():
    report = Report("demo")
    report.declare("rounds", "the coder is called at most max_rounds times")
    report.fail("rounds", "called 4 times")
    report.fail("rounds", "called 9 times")
    (check,) = report.checks
    assert check.passed is False and check.detail == "called 4 times"
    assert report.finish(ran=True).outcome == "not yet"


def test_failing_an_undeclared_check_is_a_grader_bug():
    report = Report("demo")
    report.declare("rounds", "...")
    with pytest.raises(KeyError, match="no check 'round'"):
        report.fail("round", "typo")


def test_declare_all_keeps_the_order_a_learner_reads():
    report = Report("demo").declare_all([("b", "second"), ("a", "first")])
    assert [(c.name, c.requirement) for c in report.checks] == [("b", "second"), ("a", "first")]


def test_importing_the_graders_runs_no_oracle():
    """Every notebook imports the graders: their cases (nits' oracle reports) are made at the first grading."""
    code = ("import agent_team.oracle as oracle\n"
            "calls = []\n"
            "real = oracle.run_tests\n"
            "oracle.run_tests = lambda *a, **k: calls.append(a) or real(*a, **k)\n"
            "import agent_team.grading\n"
            "assert calls == [], len(calls)\n")
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONPATH": str(SRC)})


def test_a_grading_run_belongs_to_the_thread_that_runs_it():
    """The run is a context variable: learner code that hangs in another thread is not this run's hang."""
    import threading

    from agent_team.grading.core import call_learner, grading_run

    def loop():
        while True:
            pass

    @grading_run
    def grader(fn):
        report = Report("two threads").declare_all([("other", "another thread's hang"), ("this", "returns")])
        elsewhere = []
        worker = threading.Thread(target=lambda: elsewhere.append(call_learner(loop, seconds=0.2)))
        worker.start()
        worker.join()
        assert elsewhere[0].timed_out
        call = call_learner(fn)  # this run saw no hang: the learner's function is still called
        if not call.ok:
            report.fail("this", call.problem)
        return report.finish()

    report = grader(lambda: 1)
    assert report.passed, str(report)
