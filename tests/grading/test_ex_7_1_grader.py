"""Exercise 7.1's grader: what it drives, what it says, and that nothing a learner writes breaks it.

The wrong and right decisions written from the text are in test_ex_7_1_mutants.py; here: the
reference passes, the stub is "not implemented", the grader's made-up
attempts have the keys the real slot gives, the slot holds a decision to its budget, recorded
replies are the model's and scripted ones say so, and hostile answers fail a check with words
(never raise, never poison the next grading).
"""

import math
import time

import pytest
from grader_helpers import assert_accepted, assert_rejected_by, first_failing
from hostile import HOSTILE_VALUES, Exploding, ExplodingInt, ExplodingStr

from agent_team.grading import grade_retry_or_stop
from agent_team.grading import ex_retry
from agent_team.grading.ex_retry import MOMENTS, reference_retry_or_stop
from agent_team.grading.ex_retry_turns import LABEL, RECORDINGS, REPLAYS, recorded_model
from agent_team.realteam.llm import ScriptedModel, llm_policy
from agent_team.realteam.models import ModelError
from agent_team.realteam.recordings import load_recording
from agent_team.repo import GOAL, initial_repo
from agent_team.realteam.retry import STOP_REASONS, BadDecision, ManualClock, check_decision
from agent_team.supervisor import supervise
from agent_team.views import make_view

REAL_SLEEP = time.sleep

VIEW = make_view("coder", GOAL, initial_repo(), [])


def test_the_reference_passes():  # the notebook's solution: test_ex_7_1_reference_mutants.py
    assert_accepted(grade_retry_or_stop(reference_retry_or_stop))


def test_the_stub_is_not_implemented_and_a_non_function_says_what_to_do():
    def stub(attempts, budget):
        raise NotImplementedError("decide")
    assert grade_retry_or_stop(stub).outcome == "not implemented"
    report = grade_retry_or_stop(None)
    assert report.outcome == "not yet" and "not a function" in report.check("shape").detail


def test_every_check_has_named_cases_and_every_turn_is_replayed():
    names = {name for name, _ in ex_retry.REQUIREMENTS}
    assert {check for check, _, _ in MOMENTS} == names - {"shape", "in the slot"}
    assert len(REPLAYS) >= 12
    assert set(STOP_REASONS) <= names  # a failed stop case quotes the rule of its reason (ex_retry._why)


def test_the_graders_attempts_have_the_keys_the_slot_gives():
    seen = []
    policy = llm_policy("coder", ScriptedModel([ModelError("busy", status=503)]), retries=1,
                        retry=lambda attempts, budget: seen.append(attempts) or ("retry", 0),
                        clock=ManualClock(), turn_seconds=10)
    policy(GOAL, VIEW)
    made = ex_retry._attempt(1, ex_retry.E(503))
    assert set(made) == set(seen[0][0])


def test_recorded_replies_are_labelled_and_scripted_ones_say_so():
    assert LABEL == load_recording("retry").label  # one format: the label every recording has
    assert LABEL["model"].startswith("SmolLM2-135M-Instruct") and LABEL["quantisation"].startswith("Q4_1")
    assert LABEL["date"] and LABEL["kernels"]
    assert all(not r.get("scripted") and r["temperature"] == 0.0 and "max_tokens" in r for r in RECORDINGS)
    for what, outcomes, _, _ in REPLAYS:
        for outcome in outcomes:
            assert outcome in RECORDINGS or (outcome["scripted"] and "(scripted)" in outcome["name"]), what


def test_a_replayed_turn_is_the_same_every_time_and_takes_no_real_time():
    clock = ManualClock()
    timeouts = [r for r in RECORDINGS if r["failure"] == "timeout"]
    policy = llm_policy("coder", recorded_model(timeouts, clock), retries=2, retry=reference_retry_or_stop,
                        clock=clock, turn_seconds=120)
    started = time.perf_counter()
    out = policy(GOAL, VIEW)
    assert time.perf_counter() - started < 2.5  # generous; real waits alone would be 3 s
    assert [a["decision"] for a in out["attempts"]] == [["retry", 1], ["retry", 2], ["stop", "out of attempts"]]
    assert math.isclose(clock.now(), 3 * timeouts[0]["seconds"] + 1 + 2)
    assert out["attempts"][-1]["stop"] == "out of attempts" and STOP_REASONS["out of attempts"] in out["message"]


def test_the_slot_holds_a_decision_to_its_budget_whatever_it_says():
    clock = ManualClock()
    forever = llm_policy("coder", ScriptedModel([TimeoutError("slow")]), retries=3,
                         retry=lambda a, b: ("retry", 0), clock=clock, turn_seconds=10)
    assert len(forever(GOAL, VIEW)["attempts"]) == 4
    patient = llm_policy("coder", ScriptedModel([TimeoutError("slow")]), retries=3,
                         retry=lambda a, b: ("retry", 50), clock=clock, turn_seconds=10)
    out = patient(GOAL, VIEW)
    assert len(out["attempts"]) == 1 and out["attempts"][-1]["stop"] == "out of time"


def test_a_429_s_retry_after_reaches_the_decision_from_the_client_s_error():
    seen = []
    policy = llm_policy("coder", ScriptedModel([ModelError("slow down", status=429, retry_after=7.0)]), retries=0,
                        retry=lambda a, b: seen.append(a[-1]) or ("stop", "out of attempts"), clock=ManualClock())
    policy(GOAL, VIEW)
    assert seen[0]["status"] == 429 and seen[0]["retry_after"] == 7.0 and seen[0]["failure"] == "error"


@pytest.mark.parametrize("value", [("retry", -1), ("retry", math.nan), ("retry", math.inf), ("retry", True),
                                   ("retry", "1"), ("stop", "Bad key"), ["retry", 1], ("wait", 1), ("retry",),
                                   ("retry", 10 ** 400 * -1), ("stop", ExplodingStr("bad key")),
                                   ("retry", ExplodingInt(1)), Exploding(), None])
def test_check_decision_refuses_in_words(value):
    with pytest.raises(BadDecision) as err:
        check_decision(value)
    assert "retry" in str(err.value) or "reason" in str(err.value)


def test_a_huge_wait_is_still_a_number_the_slot_can_refuse():
    assert check_decision(("retry", 10 ** 400)) == ("retry", 10 ** 400)
    policy = llm_policy("coder", ScriptedModel([TimeoutError("slow")]), retries=3,
                        retry=lambda a, b: ("retry", 10 ** 400), clock=ManualClock(), turn_seconds=10)
    assert policy(GOAL, VIEW)["attempts"][-1]["stop"] == "out of time"


def returning(value):
    def learner(attempts, budget):
        return value
    return learner


def assert_failing_report(report):
    assert not report.passed
    failing = first_failing(report)
    assert failing is not None and failing.detail.strip(), str(report)
    str(report)
    report._repr_html_()


@pytest.mark.parametrize("value", HOSTILE_VALUES + [("retry", ExplodingInt(1)), ("stop", ExplodingStr("bad key")),
                                                    (Exploding(), 1)], ids=lambda v: type(v).__name__)
def test_a_hostile_answer_fails_shape_and_poisons_nothing(value):
    assert_rejected_by(grade_retry_or_stop(returning(value)), "shape")
    assert_accepted(grade_retry_or_stop(reference_retry_or_stop))


def test_a_decision_that_scribbles_on_what_it_is_given_poisons_nothing():
    def scribbler(attempts, budget):
        answer = reference_retry_or_stop(attempts, budget)
        attempts.clear()
        attempts.append({"failure": None})
        budget.update(attempts=0, seconds=0.0, elapsed=1e9)
        return answer
    assert_accepted(grade_retry_or_stop(scribbler))
    assert_accepted(grade_retry_or_stop(reference_retry_or_stop))


def test_a_decision_that_raises_fails_the_check_of_its_case_with_the_error():
    def raises(attempts, budget):
        if attempts[-1]["status"] == 404:
            raise KeyError("model")
        return reference_retry_or_stop(attempts, budget)
    report = grade_retry_or_stop(raises)
    assert_rejected_by(report, "unknown model")
    assert "KeyError" in report.check("unknown model").detail


def test_a_decision_that_waits_itself_is_refused_at_once_under_shape(short_caps):
    """Row 1: "the slot does the waiting, not your function". Its sleeps are recorded, not waited
    (before: each case slept until the call's cap, and the report blamed a hang on 'transient')."""
    def sleeper(attempts, budget):
        answer = reference_retry_or_stop(attempts, budget)
        if answer[0] == "retry":
            time.sleep(answer[1])
        return answer
    started = time.perf_counter()
    report = grade_retry_or_stop(sleeper)
    assert time.perf_counter() - started < 30  # a hang guard, not a speed check
    assert_rejected_by(report, "shape")
    assert "the slot does the waiting" in report.check("shape").detail
    assert time.sleep is REAL_SLEEP  # the real sleep is back (a builtin in CPython, a function in Pyodide)


def test_a_decision_that_works_alone_but_not_in_the_slot_fails_in_the_slot():
    def strict(attempts, budget):  # refuses records with keys it was not told about
        if any(set(a) - {"attempt", "prompt", "reply", "error", "failure", "status", "retry_after"} for a in attempts):
            raise ValueError("unexpected keys")
        return reference_retry_or_stop(attempts, budget)
    report = grade_retry_or_stop(strict)
    assert_rejected_by(report, "in the slot")
    assert "Replaying" in report.check("in the slot").detail


def test_an_injection_or_a_lie_is_not_the_decisions_business_the_allowlist_and_oracle_hold():
    injection = next(o for _, outs, _, _ in REPLAYS for o in outs if o["name"].startswith("a reply that obeys"))
    lie = next(o for _, outs, _, _ in REPLAYS for o in outs if o["name"].startswith("a reply claiming"))
    for outcome, status in ((injection, "refused"), (lie, None)):
        clock = ManualClock()
        coder = llm_policy("coder", recorded_model([outcome], clock), retry=reference_retry_or_stop, clock=clock,
                           turn_seconds=60)
        run = supervise(max_rounds=1, coder=coder)
        turn = next(e for e in run.trace if e.get("role") == "coder")
        assert turn["failure"] == status and run.status == "budget"
