"""The grader of exercise 6.2 (a run through the gate): the reference passes, each named mutant
fails the step it breaks, the stub and a crash are reported."""

from agent_team.realteam.gated import run_outcomes
from agent_team.grading import grade_run_outcomes


def failed(report):
    return {c.name for c in report.checks if c.passed is False}


def test_run_outcomes_reference_passes_and_mutants_fail_their_step():
    assert grade_run_outcomes(run_outcomes).passed

    def plan_always_ok(run):
        return [{**run_outcomes(run)[0], "status": "success"}, *run_outcomes(run)[1:]]

    def no_skips(run):
        return [{**o, "status": "failed" if o["status"] == "skipped" else o["status"]} for o in run_outcomes(run)]

    assert failed(grade_run_outcomes(plan_always_ok)) == {"plan step", "gated status"}
    assert failed(grade_run_outcomes(no_skips)) == {"code step", "tests step", "review step"}
    assert failed(grade_run_outcomes(lambda run: run_outcomes(run)[::-1])) == {"shape"}


def test_run_outcomes_stub_and_crash():
    def stub(run):
        raise NotImplementedError

    assert grade_run_outcomes(stub).outcome == "not implemented"
    crashed = grade_run_outcomes(lambda run: run["missing"])
    assert not crashed.passed and "raised" in str(crashed)


def test_a_crash_on_one_run_leaves_no_check_passed():
    def crashes_on_garbage(run):
        if any(e.get("role") == "reviewer" and e.get("verdict") is None for e in run.trace if e["type"] == "turn"):
            raise KeyError("verdict")
        return run_outcomes(run)

    report = grade_run_outcomes(crashes_on_garbage)
    assert failed(report) == {"returns"} and not any(c.passed for c in report.checks), str(report)


def test_a_crash_is_filed_as_a_crash_not_as_a_wrong_shape():
    # The walk's attempt: the verdict read one level too deep raises on a review with no verdict.
    # That is no shape mistake: the outcomes it returns elsewhere are the right shape.
    from agent_team.trace import turns

    def verdict_twice(run):
        reviews = turns(run.trace, "reviewer")
        if reviews:
            reviews[-1]["verdict"]["verdict"]
        return run_outcomes(run)

    report = grade_run_outcomes(verdict_twice)
    assert failed(report) == {"returns"}, str(report)
    detail = report.check("returns").detail
    assert "TypeError" in detail and "must return" in detail, detail
