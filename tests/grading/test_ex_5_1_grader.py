"""The grader of exercise 5.1 (a learner's reviewer gate): right answers pass, each wrong rule is named."""

import pytest

from agent_team.grading.gate import grade_gate, expected_gate

ORDER = ("failed", "cancelled", "skipped")
ACTION = {"failed": "retry_step", "cancelled": "resume_plan", "skipped": "user_decision"}


def make_gate(order=ORDER, empty_passes=False, blocking=("failed", "skipped", "cancelled")):
    def gate(outcomes):
        if not outcomes:
            return {"passed": empty_passes, "action": None if empty_passes else "user_decision", "step": None}
        bad = [o for o in outcomes if o["status"] in blocking]
        if not bad:
            return {"passed": True, "action": None, "step": None}
        kind = next(k for k in order if any(o["status"] == k for o in bad))
        first = next(o for o in bad if o["status"] == kind)
        return {"passed": False, "action": ACTION[kind], "step": first["step"]}
    return gate


def failed_checks(report):
    return [c.name for c in report.checks if c.passed is False]


def test_a_correct_gate_passes_every_check():
    report = grade_gate(make_gate())
    assert report.passed, str(report)
    reference = grade_gate(expected_gate)
    assert reference.passed, str(reference)


def test_the_untouched_stub_is_not_implemented():
    def gate(outcomes):
        raise NotImplementedError("Exercise: replace this line with your code")
    report = grade_gate(gate)
    assert report.outcome == "not implemented" and not report.passed


@pytest.mark.parametrize("gate, broken", [
    (make_gate(order=("skipped", "cancelled", "failed")), "precedence"),
    (make_gate(empty_passes=True), "empty list"),
    (make_gate(blocking=("failed", "cancelled")), "skipped"),
])
def test_each_wrong_rule_is_named(gate, broken):
    report = grade_gate(gate)
    assert not report.passed and broken in failed_checks(report)
    assert "success passes" not in failed_checks(report)


def test_a_gate_blocked_by_risk_fails_that_check_with_the_case_named():
    def nervous(outcomes):
        if any(o.get("risk") in ("write", "execute") for o in outcomes):
            return {"passed": False, "action": "user_decision", "step": outcomes[0]["step"]}
        return make_gate()(outcomes)
    report = grade_gate(nervous)
    check = next(c for c in report.checks if c.name == "risk does not block")
    assert check.passed is False and "a write and an execute step" in check.detail


def test_shape_and_crashes_are_reported_not_raised():
    report = grade_gate(lambda outcomes: True)
    assert "shape" in failed_checks(report) and "return a dict" in str(report)
    report = grade_gate(lambda outcomes: outcomes[5])
    assert not report.passed and "IndexError" in str(report)
    report = grade_gate(lambda outcomes: {"passed": "yes", "action": None, "step": None})
    assert "'passed' is 'yes'" in str(report)
