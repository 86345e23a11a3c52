"""The grader of exercise 6.1 (a fault of the learner's own): the worked fault passes, each named
mistake fails the check it breaks, bad shapes and the stub are reported."""

from agent_team.faults import fizz_only_coder
from agent_team.grading import grade_my_fault
from agent_team.policies import output
from agent_team.repo import SRC_PATH


def empty_coder(goal, view):
    return output("coder", "an empty file is a start", [{"path": SRC_PATH, "content": ""}], "done")


def no_fizzbuzz(run):
    return next((err for e in run.trace if e["type"] == "tests" for err in e["tests"]["errors"]
                 if "no function named 'fizzbuzz'" in err or "fizzbuzz" in err and e["tests"]["passed"] == 0), None)


GOOD = {"name": "coder writes an empty file", "kwargs": {"coder": empty_coder, "max_rounds": 3},
        "expect": "budget", "evidence": no_fizzbuzz}


def failed(report):
    return {c.name for c in report.checks if c.passed is False}


def test_a_good_fault_passes_every_check():
    report = grade_my_fault(GOOD)
    assert report.passed, str(report)
    assert len(report.checks) == 8


def test_each_mistake_fails_its_own_check():
    assert failed(grade_my_fault({**GOOD, "expect": "pass"})) == {"expected status"}
    assert failed(grade_my_fault({**GOOD, "evidence": lambda run: "found"})) == {"evidence is specific"}
    assert failed(grade_my_fault({**GOOD, "evidence": lambda run: None})) == {"evidence found"}
    assert "new" in failed(grade_my_fault({**GOOD, "kwargs": {"coder": fizz_only_coder}}))
    assert "a real fault" in failed(grade_my_fault({**GOOD, "kwargs": {"max_rounds": 4}}))
    counter = iter(range(10**6))

    def drifting_coder(goal, view):
        return output("coder", "again", [{"path": SRC_PATH, "content": f"# {next(counter)}\n"}], "x")

    assert "replayable" in failed(grade_my_fault({**GOOD, "kwargs": {"coder": drifting_coder, "max_rounds": 2}}))


def test_bad_shapes_and_the_stub_are_reported_not_raised():
    assert grade_my_fault(None).outcome == "not implemented"
    assert failed(grade_my_fault({"name": "x"})) == {"shape"}
    assert failed(grade_my_fault({**GOOD, "kwargs": {"coders": empty_coder}})) == {"shape"}
    assert failed(grade_my_fault({**GOOD, "kwargs": {"max_rounds": -1}})) == {"runs"}
    assert "raised ZeroDivisionError" in str(grade_my_fault({**GOOD, "evidence": lambda run: 1 / 0}))


def test_an_evidence_function_that_hangs_passes_neither_evidence_check(short_caps):
    def hangs(run):
        while True:
            pass

    report = grade_my_fault({**GOOD, "evidence": hangs})
    assert report.check("evidence found").passed is False and "did not return" in report.check("evidence found").detail
    assert report.check("evidence is specific").passed is None  # never tried: the run stopped at the hang
