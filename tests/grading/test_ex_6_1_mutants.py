"""Exercise 6.1: wrong faults a learner might write from the exercise text, and correct ones in
other styles. Each wrong one is rejected by the check for the sentence it misreads.

The exercise's sentences and their plausible wrong readings (each is a mutant below):

| the text says | wrong reading | mutant |
|---|---|---|
| a policy or hook you write, not part 4's | a lambda around a part 4 policy is "mine" | ``wrapped_fizz`` |
| (same) | part 4's fault retyped as a new function is "mine" | ``retyped_fizz`` |
| (same) | part 4's fault with another budget is new | ``fizz_other_budget`` |
| (same) | the course's healthy coder, frozen at its first cut (fault 1's code) | ``frozen_healthy_coder`` |
| evidence: run -> str or None, nothing in a healthy run | ``""`` means "nothing" | ``blank_for_none`` |
| (same) | returns a blank str on the faulty run | ``blank_evidence`` |
| finds nothing in a healthy run | evidence that is always there (any oracle error) | ``any_oracle_error`` |

And two readings that are right, whatever the old grader said: a coder that hangs (part 5's
natural fault) with a small ``seconds``, graded in well under the grader's time; without
``seconds`` the report says how to make it gradable, and never blames "a loop that never ends".
Measured: before this suite, all but ``any_oracle_error`` were accepted (6 of 7); now all 7 are
rejected, and the worked fault, the hanging coder and the other correct styles pass.
"""

import pytest
from grader_helpers import assert_accepted, assert_rejected_by

from agent_team import faults
from agent_team.faults import fizz_only_coder
from agent_team.grading import grade_my_fault
from agent_team.policies import FIZZ_ONLY_SOURCE, fake_coder, fake_reviewer, output
from agent_team.repo import SRC_PATH
from agent_team.trace import oracle_reports, turns


def empty_coder(goal, view):
    return output("coder", "an empty file is a start", [{"path": SRC_PATH, "content": ""}], "done")


def no_fizzbuzz(run):
    for report in oracle_reports(run.trace):
        for err in report["errors"]:
            if "fizzbuzz" in err and report["passed"] == 0:
                return err
    return None


GOOD = {"name": "coder writes an empty file", "kwargs": {"coder": empty_coder, "max_rounds": 3},
        "expect": "budget", "evidence": no_fizzbuzz}


def fizz_evidence(run):
    """The last test run still red (the healthy team's first cut is Fizz-only too, but it goes on)."""
    reports = oracle_reports(run.trace)
    return reports[-1]["errors"][0] if reports and not reports[-1]["ok"] else None


def retyped(goal, view):  # part 4's fizz-only coder, typed in again
    return output("coder", "fizz only", [{"path": SRC_PATH, "content": FIZZ_ONLY_SOURCE}], "done")


def hanging_coder(goal, view):
    while True:
        pass


def timed_out(run):
    for e in turns(run.trace, "coder"):
        if e.get("failure") == "timeout":
            return f"round {e['round']}: {e['error']}"
    return None


WRONG = {
    "wrapped_fizz": ({**GOOD, "kwargs": {"coder": lambda g, v: fizz_only_coder(g, v), "max_rounds": 4},
                      "evidence": fizz_evidence}, "new"),
    "retyped_fizz": ({**GOOD, "kwargs": {"coder": retyped, "max_rounds": 4}, "evidence": fizz_evidence}, "new"),
    "fizz_other_budget": ({**GOOD, "kwargs": {"coder": retyped, "max_rounds": 2}, "evidence": fizz_evidence},
                          "new"),
    "frozen_healthy_coder": ({**GOOD, "kwargs": {"coder": lambda g, v: fake_coder(g, {**v, "last_tests": None}),
                                                 "max_rounds": 3}, "evidence": fizz_evidence}, "new"),
    "blank_for_none": ({**GOOD, "evidence": lambda run: no_fizzbuzz(run) or ""}, "evidence is specific"),
    "blank_evidence": ({**GOOD, "evidence": lambda run: "  " if no_fizzbuzz(run) else None}, "evidence found"),
    "any_oracle_error": ({**GOOD, "evidence": lambda run: next(
        (err for r in oracle_reports(run.trace) for err in r["errors"]), None)}, "evidence is specific"),
}


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_reading_is_rejected_by_its_sentence(name):
    fault, check = WRONG[name]
    assert_rejected_by(grade_my_fault(fault), check)


def test_a_wrapped_part_4_fault_is_named():
    detail = grade_my_fault(WRONG["wrapped_fizz"][0]).check("new").detail
    assert "fizz-only coder" in detail


def test_blank_evidence_says_what_to_return():
    assert "None" in grade_my_fault(WRONG["blank_for_none"][0]).check("evidence is specific").detail


def test_evidence_everywhere_quotes_what_it_found_on_the_healthy_run():
    detail = grade_my_fault(WRONG["any_oracle_error"][0]).check("evidence is specific").detail
    assert "fizzbuzz(" in detail  # the healthy run's first oracle error, quoted


def reviewer_patches(goal, view):
    out = fake_reviewer(goal, view)
    return {**out, "patches": out["patches"] + [{"path": SRC_PATH, "content": "x = 1\n"}]}


def reviewer_refused(run):
    return next((f"round {e['round']}: {e['error']}" for e in turns(run.trace, "reviewer")
                 if not e["applied"] and e["error"]), None)


RIGHT = {
    "empty file": GOOD,
    "hanging coder, small seconds": {"name": "the model hangs", "kwargs": {
        "coder": hanging_coder, "max_rounds": 3, "seconds": 0.05}, "expect": "budget", "evidence": timed_out},
    "reviewer patches the source": {"name": "reviewer patches", "kwargs": {"reviewer": reviewer_patches},
                                    "expect": "pass", "evidence": reviewer_refused},
    "a fault built on part 4's coder, changed": {"name": "fizz, then silent", "kwargs": {
        "coder": lambda g, v: fizz_only_coder(g, v) if v.get("last_tests") is None else empty_coder(g, v),
        "max_rounds": 3}, "expect": "budget", "evidence": no_fizzbuzz},
}


@pytest.mark.parametrize("name", RIGHT)
def test_a_right_fault_in_another_style_is_accepted(name):
    assert_accepted(grade_my_fault(RIGHT[name]))


def test_a_hanging_coder_without_seconds_is_told_to_add_seconds(short_caps, monkeypatch):
    from agent_team.grading import ex_own_fault
    monkeypatch.setattr(ex_own_fault, "RUN_SECONDS", 0.2)
    fault = {**RIGHT["hanging coder, small seconds"]}
    fault["kwargs"] = {k: v for k, v in fault["kwargs"].items() if k != "seconds"}
    report = grade_my_fault(fault)
    assert not report.passed
    text = str(report)
    assert "seconds" in text and "loop that never ends" not in text, text


def test_seconds_too_large_for_the_grader_is_refused_in_words():
    fault = {**RIGHT["hanging coder, small seconds"]}
    fault["kwargs"] = {**fault["kwargs"], "seconds": 3}
    report = grade_my_fault(fault)
    assert_rejected_by(report, "shape")
    assert "seconds" in report.check("shape").detail and "supervise takes" not in report.check("shape").detail


def test_every_course_policy_is_known_to_the_new_check():
    assert callable(faults.fizz_only_coder)
