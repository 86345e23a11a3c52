"""Role contracts: exact JSON round trips, strict reading, and handoffs derived from a trace."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_team.realteam.contracts import (ACTIONS, RISKS, PLAN_RUN_STATUSES, STEP_STATUSES, ExecutorContract,
                                  GateDecision, Handoff, Plan, PlanStep, RetryProposal, ReviewReport,
                                  StepOutcome, final_status)
from agent_team.realteam.handoffs import handoffs_from_trace
from agent_team.roles import ROLES

text = st.text(max_size=30)
ids = st.text(min_size=1, max_size=6).filter(str.strip)
step_ids = ids | st.integers(-10**6, 10**6)
texts = st.lists(text, max_size=4)

plan_steps = st.builds(PlanStep, id=ids, title=text, risk=st.sampled_from(RISKS), suggested_checks=texts)
plans = st.builds(Plan, summary=text,
                  steps=st.lists(plan_steps, max_size=5, unique_by=lambda s: s.id))
contracts = st.builds(ExecutorContract, goal=text, step_id=ids, title=text, risk=st.sampled_from(RISKS),
                      instructions=text)
outcomes = st.builds(StepOutcome, step=step_ids, status=st.sampled_from(STEP_STATUSES),
                     risk=st.sampled_from(RISKS), detail=text)
proposals = st.builds(RetryProposal, action=st.sampled_from(ACTIONS), step=step_ids | st.none(), text=text)


@st.composite
def decisions(draw):
    passed = draw(st.booleans())
    return GateDecision(passed=passed, reasons=draw(texts), risk_notes=draw(texts),
                        suggested_checks=draw(texts), proposal=None if passed else draw(proposals))


@st.composite
def reports(draw):
    execution, decision = draw(st.sampled_from(PLAN_RUN_STATUSES)), draw(decisions())
    return ReviewReport(execution_status=execution, status=final_status(execution, decision.passed),
                        decision=decision, reason=draw(text), next_action=draw(text))


handoffs = st.builds(Handoff, role=st.sampled_from(ROLES), summary=text, status=st.sampled_from(STEP_STATUSES),
                     next_action=text, round=st.integers(0, 100))

any_record = plans | contracts | outcomes | proposals | decisions() | reports() | handoffs


@settings(deadline=None)  # timing varies on a busy machine; the logic does not
@given(any_record)
def test_every_record_round_trips_exactly_through_json(record):
    data = record.to_dict()
    assert type(record).from_dict(data) == record
    assert type(record).from_dict(json.loads(json.dumps(data))) == record


@settings(deadline=None)  # timing varies on a busy machine; the logic does not
@given(any_record)
def test_to_dict_is_plain_json_and_a_fresh_copy(record):
    data = record.to_dict()
    assert json.loads(json.dumps(data)) == data
    again = type(record).from_dict(data)
    for value in data.values():
        if isinstance(value, list):
            value.append("scribble")
    assert again == record  # reading copied the lists


def test_a_plan_and_its_executor_contracts():
    plan = Plan("fizzbuzz", [PlanStep("S1", "write the plan", "write"),
                             PlanStep("S2", "run the tests", "execute", ["tests pass"])])
    first, second = plan.contracts("make the tests pass")
    assert (first.step_id, first.risk, first.goal) == ("S1", "write", "make the tests pass")
    assert "Do step S2 only" in second.instructions and "tests pass" in second.instructions
    assert plan.step("S2").title == "run the tests"
    assert plan.to_markdown() == "- S1 [write] write the plan\n- S2 [execute] run the tests\n"
    with pytest.raises(KeyError, match="no step 'S9'"):
        plan.step("S9")
    with pytest.raises(TypeError, match="PlanStep"):
        ExecutorContract.for_step("goal", {"id": "S1"})


def test_tuples_are_read_as_lists_so_equality_survives_json():
    step = PlanStep("S1", "t", "read", ("a", "b"))
    assert step.suggested_checks == ["a", "b"]
    assert PlanStep.from_dict(json.loads(json.dumps(step.to_dict()))) == step


@pytest.mark.parametrize("data, words", [
    ({"summary": "x", "steps": [{"id": "S1", "title": "t", "risk": "writ"}]},
     ["Plan.steps[0].risk", "'writ'", "'write'"]),
    ({"summary": "x", "steps": [{"id": "S1"}]}, ["Plan.steps[0].title is missing"]),
    ({"sumary": "x"}, ["no field 'sumary'", "did you mean 'summary'"]),
    ({"summary": 1}, ["Plan.summary must be str", "int"]),
    ({"summary": "x", "steps": {"id": "S1"}}, ["Plan.steps must be a list"]),
    ({"summary": "x", "steps": ["S1"]}, ["Plan.steps[0] must be a PlanStep"]),
    ({"summary": "x", "steps": [{"id": "S1", "title": ""}, {"id": "S1", "title": ""}]},
     ["Plan.steps[1].id", "used twice"]),
    ({"summary": "x", "steps": [{"id": " ", "title": ""}]}, ["Plan.steps[0].id is empty"]),
    ({"summary": "x", "steps": [{"id": "S1", "title": "", "suggested_checks": [1]}]},
     ["Plan.steps[0].suggested_checks[0] must be str"]),
])
def test_reading_a_bad_plan_names_the_field(data, words):
    with pytest.raises(ValueError) as err:
        Plan.from_dict(data)
    for word in words:
        assert word in str(err.value)


def test_reading_a_bad_review_report_names_the_nested_field():
    good = ReviewReport("success", "failed", GateDecision(False, ["x"], proposal=RetryProposal(
        "retry_step", "S2", "retry it"))).to_dict()
    bad_action = json.loads(json.dumps(good))
    bad_action["decision"]["proposal"]["action"] = "retry"
    with pytest.raises(ValueError, match=r"ReviewReport\.decision\.proposal\.action is 'retry'"):
        ReviewReport.from_dict(bad_action)
    with pytest.raises(ValueError, match="must be 'failed'"):
        ReviewReport.from_dict({**good, "status": "success"})
    with pytest.raises(ValueError, match=r"decision\.proposal is missing"):
        ReviewReport.from_dict({**good, "decision": {"passed": False}})
    with pytest.raises(ValueError, match="must be null when the gate passed"):
        GateDecision.from_dict({"passed": True, "proposal": good["decision"]["proposal"]})
    with pytest.raises(ValueError, match="must be a dict"):
        ReviewReport.from_dict([good])


@pytest.mark.parametrize("make, words", [
    (lambda: StepOutcome(True, "success"), "StepOutcome.step must be str or int"),
    (lambda: StepOutcome("S1", "done"), "StepOutcome.status is 'done'"),
    (lambda: Handoff("executor", "", "success", ""), "Handoff.role is 'executor'"),
    (lambda: Handoff("coder", "", "success", "", -1), "rounds count from 0"),
    (lambda: Handoff("coder", "", "success", "", True), "Handoff.round must be int"),
    (lambda: GateDecision("yes"), "GateDecision.passed must be bool"),
])
def test_constructors_check_the_same_rules(make, words):
    with pytest.raises(ValueError, match=words):
        make()


def test_final_status_only_takes_success_away():
    assert final_status("success", True) == "success"
    assert final_status("success", False) == "failed"
    assert final_status("cancelled", True) == "cancelled"
    assert final_status("failed", True) == "failed"


def test_a_report_hands_off_to_the_user():
    report = ReviewReport("success", "success", GateDecision(True), next_action="accept")
    handoff = report.handoff()
    assert (handoff.role, handoff.status, handoff.next_action) == ("reviewer", "success", "accept")


# --- handoffs derived from a trace (a hand-built trace in the supervisor's format) ---------------

def turn(role, rnd, **extra):
    event = {"type": "turn", "round": rnd, "state": role.upper(), "role": role, "view": {},
             "thought": "", "message": "", "patches": [], "applied": True, "error": None, "changes": []}
    event.update(extra)
    return event


def wrote(path):
    return [{"path": path, "content": "x"}]


RED = {"ok": False, "passed": 2, "failed": 2, "errors": ["fizzbuzz(5) == '5', expected 'Buzz'"]}
GREEN = {"ok": True, "passed": 4, "failed": 0, "errors": []}

TRACE = [
    {"type": "start", "round": 0, "state": "START"},
    turn("planner", 0, patches=wrote("PLAN.md"), message="planned"),
    turn("coder", 1, patches=wrote("src/fizzbuzz.py"), message="first cut"),
    {"type": "tests", "round": 1, "state": "TEST", "tests": RED},
    turn("reviewer", 1, patches=wrote("REVIEW.json"),
         verdict={"verdict": "request_changes", "notes": "add Buzz"}),
    {"type": "tamper", "round": 2, "state": "FAULT", "error": None, "changes": []},
    turn("planner", 2, patches=wrote("PLAN.md")),
    turn("coder", 2, applied=False, error="the coder may not write 'tests/test_fizzbuzz.py'",
         patches=wrote("tests/test_fizzbuzz.py"),
         attempts=[{}, {}, {}]),
    {"type": "tests", "round": 2, "state": "TEST", "tests": GREEN},
    turn("reviewer", 2, patches=wrote("REVIEW.json"), override=True,
         verdict={"verdict": "request_changes", "notes": "style"}),
    {"type": "stop", "round": 2, "state": "STOP_OK", "status": "pass", "stop_reason": "the tests passed"},
]


def test_one_handoff_per_role_transition():
    got = handoffs_from_trace(TRACE)
    assert [(h.role, h.round, h.status) for h in got] == [
        ("planner", 0, "success"), ("coder", 1, "success"), ("reviewer", 1, "success"),
        ("planner", 2, "success"), ("coder", 2, "failed"), ("reviewer", 2, "success")]
    planner, coder, reviewer, replan, refused, last = got
    assert planner.next_action.startswith("coder: write src/fizzbuzz.py")
    assert "tests are red (2 failing" in coder.next_action and coder.next_action.startswith("reviewer")
    assert reviewer.next_action == "planner: write PLAN.md (it is empty)"
    assert replan.next_action == "coder: write src/fizzbuzz.py to the plan in round 2"
    assert "did not land (after 3 model attempts)" in refused.summary
    assert "tests are green" in refused.next_action
    assert "overridden" in last.summary and last.next_action == "stop (pass): the tests passed"


def test_after_a_request_for_changes_the_coder_is_told_what_was_asked():
    trace = TRACE[:5] + [turn("coder", 2)]
    reviewer = handoffs_from_trace(trace)[2]
    assert reviewer.next_action == "coder: revise src/fizzbuzz.py in round 2; the review asked: add Buzz"


def test_consecutive_turns_of_one_role_are_one_stint():
    trace = [turn("planner", 0, patches=wrote("PLAN.md")), turn("planner", 1, message="skip"),
             turn("coder", 1)]
    first, second = handoffs_from_trace(trace)
    assert first.summary.count("round") == 2 and first.round == 1
    assert second.next_action == "the supervisor decides who goes next (the trace ends here)"


def test_handoffs_round_trip_and_accept_a_run_result():
    class Run:
        trace = TRACE
    got = handoffs_from_trace(Run())
    assert got == handoffs_from_trace(TRACE)
    assert [Handoff.from_dict(json.loads(json.dumps(h.to_dict()))) for h in got] == got
    assert handoffs_from_trace([]) == []


@pytest.mark.parametrize("trace, words", [
    ("not a trace", "list of events"),
    ([{"round": 0}], "trace event 0"),
    ([turn("tester", 1)], "role 'tester'"),
])
def test_a_bad_trace_is_refused_by_name(trace, words):
    with pytest.raises(ValueError, match=words):
        handoffs_from_trace(trace)


# --- handoffs from real supervised runs --------------------------------------------------------

def test_handoffs_of_the_default_run():
    from agent_team.supervisor import supervise
    run = supervise()
    got = handoffs_from_trace(run.trace)
    assert [h.role for h in got] == ["planner", "coder", "reviewer", "coder", "reviewer"]
    assert all(h.status == "success" for h in got)
    assert got[0].summary.startswith("round 0: the planner wrote PLAN.md")
    assert got[2].next_action.startswith("coder: revise src/fizzbuzz.py in round 2")
    assert got[-1].next_action.startswith("stop (pass)")


def test_handoffs_when_the_coder_writes_where_it_may_not():
    from agent_team.supervisor import supervise

    def sneaky(goal, view):
        return {"role": "coder", "patches": [{"path": "tests/test_fizzbuzz.py", "content": ""}]}

    got = handoffs_from_trace(supervise(coder=sneaky, max_rounds=1))
    assert got[1].role == "coder" and got[1].status == "failed" and "may not write" in got[1].summary
    assert got[-1].next_action.startswith("stop (budget)")


def test_trace_with_handoffs_attaches_each_handoff_to_its_last_turn_without_touching_the_trace():
    from agent_team.realteam.handoffs import trace_with_handoffs
    before = json.dumps(TRACE)
    shown = trace_with_handoffs(TRACE)
    assert json.dumps(TRACE) == before and len(shown) == len(TRACE)
    attached = [Handoff.from_dict(e["handoff"]) for e in shown if "handoff" in e]
    assert attached == handoffs_from_trace(TRACE)
    assert [i for i, e in enumerate(shown) if "handoff" in e] == [1, 2, 4, 6, 7, 9]  # every turn
    two = trace_with_handoffs([turn("planner", 0), turn("planner", 1), turn("coder", 1)])
    assert ["handoff" in e for e in two] == [False, True, True]  # a stint's handoff sits on its last turn
