"""The reviewer gate: every status combination, the proposal rules, review_run, and every misuse."""

import itertools
import json
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_team.realteam.contracts import STEP_STATUSES, GateDecision, ReviewReport, StepOutcome
from agent_team.realteam.gate import PRECEDENCE, review_gate, review_run

EXPECTED_ACTION = {"failed": "retry_step", "skipped": "user_decision", "cancelled": "resume_plan"}


def outcome(step, status, **extra):
    return {"step": step, "status": status, **extra}


def expected(statuses):
    """The rules, restated independently: (passed, action, target index)."""
    blocked = [s for s in statuses if s != "success"]
    if not statuses:
        return False, "user_decision", None
    if not blocked:
        return True, None, None
    kind = next(k for k in ("failed", "cancelled", "skipped") if k in statuses)
    return False, EXPECTED_ACTION[kind], statuses.index(kind)


# Every combination of the four statuses over one, two and three steps: 4 + 16 + 64 cases.
COMBINATIONS = [c for n in (1, 2, 3) for c in itertools.product(STEP_STATUSES, repeat=n)]


@pytest.mark.parametrize("statuses", COMBINATIONS, ids="-".join)
def test_every_status_combination(statuses):
    outcomes = [outcome(f"S{i + 1}", s) for i, s in enumerate(statuses)]
    decision = review_gate(outcomes)
    passed, action, target = expected(list(statuses))
    assert decision.passed is passed
    assert len(decision.reasons) == sum(s != "success" for s in statuses)
    if passed:
        assert decision.proposal is None
    else:
        assert decision.proposal.action == action
        assert decision.proposal.step == f"S{target + 1}"
        assert decision.proposal.text


@settings(deadline=None)  # timing varies on a busy machine; the logic does not
@given(st.lists(st.tuples(st.text(min_size=1, max_size=4) | st.integers(), st.sampled_from(STEP_STATUSES),
                          st.sampled_from(["read", "write", "execute"])), max_size=12))
def test_gate_properties(rows):
    rows = [(step.strip() or "S" if isinstance(step, str) else step, status, risk) for step, status, risk in rows]
    outcomes = [outcome(step, status, risk=risk) for step, status, risk in rows]
    decision = review_gate(outcomes)
    statuses = [s for _, s, _ in rows]
    assert decision.passed == (bool(rows) and all(s == "success" for s in statuses))
    assert (decision.proposal is None) == decision.passed
    if decision.proposal is not None and rows:
        kind = next(k for k in PRECEDENCE if k in statuses)
        assert decision.proposal.step == rows[statuses.index(kind)][0]
    # Risk never changes the decision: the same outcomes without risk decide the same.
    plain = review_gate([outcome(step, status) for step, status, _ in rows])
    assert (plain.passed, plain.reasons, plain.proposal) == (decision.passed, decision.reasons, decision.proposal)
    risky = sum(1 for _, s, r in rows if r in ("write", "execute") and s != "skipped")
    assert len(decision.risk_notes) == risky
    assert GateDecision.from_dict(json.loads(json.dumps(decision.to_dict()))) == decision
    assert review_gate(outcomes) == decision  # deterministic


def test_proposal_texts_say_what_to_do_and_that_nothing_happens_by_itself():
    failed = review_gate([outcome("S1", "success"), outcome("S2", "failed", detail="ImportError")]).proposal
    assert failed.action == "retry_step" and failed.step == "S2"
    assert "ImportError" in failed.text and "approval" in failed.text
    skipped = review_gate([outcome("S1", "skipped")]).proposal
    assert skipped.action == "user_decision" and "retry" in skipped.text and "optional" in skipped.text
    cancelled = review_gate([outcome("S3", "cancelled")]).proposal
    assert cancelled.action == "resume_plan" and "S3" in cancelled.text


def test_precedence_failed_before_cancelled_before_skipped():
    mixed = [outcome("S1", "skipped"), outcome("S2", "cancelled"), outcome("S3", "failed"),
             outcome("S4", "failed")]
    assert review_gate(mixed).proposal.step == "S3"
    assert review_gate(mixed[:2]).proposal.action == "resume_plan"
    assert len(review_gate(mixed).reasons) == 4  # every blocked step is still named


def test_risky_steps_add_notes_and_checks_but_do_not_block():
    decision = review_gate([outcome("S1", "success", risk="write"), outcome("S2", "success", risk="execute"),
                            outcome("S3", "success", risk="read", suggested_checks=["fizzbuzz(15) works"])])
    assert decision.passed and decision.proposal is None and decision.reasons == []
    assert decision.risk_notes == ["step S1 writes files", "step S2 runs code"]
    assert "run the tests" in decision.suggested_checks
    assert "fizzbuzz(15) works" in decision.suggested_checks
    assert len(decision.suggested_checks) == len(set(decision.suggested_checks))


def test_a_skipped_step_never_ran_so_its_risk_adds_no_note():
    decision = review_gate([outcome("S1", "skipped", risk="write"), outcome("S2", "failed", risk="execute")])
    assert decision.risk_notes == ["step S2 runs code"]


def test_the_gate_reads_outcomes_exactly_as_the_step_outcome_record_does():
    # One validator for one record: what StepOutcome refuses, the gate refuses with the same words.
    for bad in ({"step": "S1", "status": "success", "risk": "WRITE"}, {"step": "S1", "status": "done"},
                {"step": "S1", "status": "success", "riks": "write"}, {"step": "", "status": "success"}):
        with pytest.raises(ValueError) as record:
            StepOutcome.from_dict(bad, "outcome 0")
        with pytest.raises(ValueError) as gate:
            review_gate([bad])
        assert str(gate.value) == str(record.value)
    good = {"step": "S1", "status": "success", "risk": "write", "suggested_checks": ["diff it"]}
    assert review_gate([good]) == review_gate([StepOutcome.from_dict(good)])


def test_an_empty_list_blocks_because_nothing_shows_the_work_was_done():
    decision = review_gate([])
    assert decision.passed is False
    assert decision.proposal.action == "user_decision" and decision.proposal.step is None
    assert "no step outcomes" in decision.reasons[0]


def test_objects_dataclasses_and_tuples_of_outcomes_work():
    objects = (SimpleNamespace(step=1, status="success"), StepOutcome("S2", "failed", risk="write"))
    decision = review_gate(objects)
    assert not decision.passed and decision.proposal.step == "S2"


@pytest.mark.parametrize("outcomes, words", [
    (None, "outcomes must be a list"),
    ({"step": "S1", "status": "success"}, "outcomes must be a list"),
    ("S1", "outcomes must be a list"),
    ([outcome("S1", "success"), "S2"], "outcome 1 is str"),
    ([None], "outcome 0 is NoneType"),
    ([{"status": "success"}], "outcome 0.step is missing"),
    ([outcome(None, "success")], "outcome 0.step must be str or int, not NoneType"),
    ([outcome(True, "success")], "outcome 0.step must be str or int, not bool"),
    ([outcome("", "success")], "outcome 0.step is empty"),
    ([outcome("S1", "success"), {"step": "S2"}], "outcome 1.status is missing"),
    ([outcome("S1", 1)], "outcome 0.status must be str, not int"),
    ([outcome("S1", "passed")], "outcome 0.status is 'passed'; write one of 'success'"),
    ([outcome("S1", "Failed")], "did you mean 'failed'"),
    ([outcome("S1", "success", risk=2)], "outcome 0.risk must be str"),
    ([outcome("S1", "success", risk="WRITE")], "outcome 0.risk is 'WRITE'; did you mean 'write'"),
    ([outcome("S1", "success", detail=2)], "outcome 0.detail must be str"),
    ([outcome("S1", "success", suggested_checks="run it")], "outcome 0.suggested_checks must be a list"),
    ([outcome("S1", "success", riks="write")], "outcome 0 has no field 'riks'; did you mean 'risk'"),
    ([SimpleNamespace(step="S1")], "outcome 0.status is missing"),
])
def test_misuse_names_the_field_and_the_index(outcomes, words):
    with pytest.raises(ValueError, match=words):
        review_gate(outcomes)


class _NoRepr:
    def __repr__(self):
        raise RuntimeError("a hostile __repr__")


@pytest.mark.parametrize("outcomes, words", [
    ([[_NoRepr()]], "outcome 0 is list <list whose repr failed>"),
    ([{"step": _NoRepr(), "status": "success"}], "outcome 0.step must be str or int, not _NoRepr"),
])
def test_a_value_whose_repr_raises_is_still_named_in_a_value_error(outcomes, words):
    with pytest.raises(ValueError, match=words):
        review_gate(outcomes)


def test_review_run_turns_a_blocked_success_into_a_failure_with_the_reason():
    report = review_run("success", [outcome("S1", "success"), outcome("S2", "skipped")])
    assert report.status == "failed" and report.execution_status == "success"
    assert "blocked" in report.reason and "S2 was skipped" in report.reason
    assert report.next_action == report.decision.proposal.text
    assert ReviewReport.from_dict(json.loads(json.dumps(report.to_dict()))) == report


@pytest.mark.parametrize("execution", ["success", "failed", "cancelled"])
@pytest.mark.parametrize("statuses", [("success",), ("success", "failed"), ("cancelled",), ()])
def test_review_run_never_grants_success(execution, statuses):
    report = review_run(execution, [outcome(f"S{i}", s) for i, s in enumerate(statuses)])
    gate_passed = bool(statuses) and all(s == "success" for s in statuses)
    assert report.status == ("success" if execution == "success" and gate_passed else
                             "failed" if execution == "success" else execution)
    assert bool(report.reason) == (report.status != execution)


def test_review_run_next_actions_when_the_gate_passes():
    assert review_run("success", [outcome("S1", "success")]).next_action == "accept"
    risky = review_run("success", [outcome("S1", "success", risk="write")])
    assert risky.next_action.startswith("accept after these checks") and "run the tests" in risky.next_action
    odd = review_run("failed", [outcome("S1", "success")])
    assert odd.status == "failed" and "find out why" in odd.next_action


def test_review_run_checks_the_execution_status():
    with pytest.raises(ValueError, match="execution_status is 'pass'; write one of success"):
        review_run("pass", [])
