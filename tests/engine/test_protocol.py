"""The seed-000 protocol (reference run_team) and the scripted agents that drive it."""

import pytest

from agent_team.protocol import (SEED_EXAMPLE, Scenario, Script, random_scenario, random_scenarios,
                                 run_team)
from agent_team.protocol import TooManyCalls


def roles(log):
    return [role for role, _ in log]


# --- the seed's worked example ----------------------------------------------------------------

def test_the_worked_example_returns_v3_and_the_nine_entry_log():
    (code, log), script = SEED_EXAMPLE.run(run_team)
    assert code == "v3"
    assert log == [
        ("planner", SEED_EXAMPLE.plan),
        ("coder", "v1"), ("reviewer", "REJECT: no error handling"),
        ("coder", "v2"), ("reviewer", "APPROVE"), ("tester", "FAIL: test_empty"),
        ("coder", "v3"), ("reviewer", "APPROVE"), ("tester", "PASS"),
    ]


def test_the_worked_example_gives_the_coder_the_feedback_from_the_seed():
    _, script = SEED_EXAMPLE.run(run_team)
    feedback = [args[2] for role, args, _ in script.calls if role == "coder"]
    assert feedback == ["", "review: REJECT: no error handling", "test: FAIL: test_empty"]
    task, plan = SEED_EXAMPLE.task, SEED_EXAMPLE.plan
    assert script.calls[0] == ("planner", (task,), plan)
    assert all(args[:2] == (task, plan) for role, args, _ in script.calls if role == "coder")
    # the reviewer and the tester see the code just written
    assert [(r, a) for r, a, _ in script.calls if r in ("reviewer", "tester")] == [
        ("reviewer", ("v1",)), ("reviewer", ("v2",)), ("tester", ("v2",)),
        ("reviewer", ("v3",)), ("tester", ("v3",))]


def test_the_worked_example_with_exactly_three_rounds_still_passes():
    sc = Scenario("three", codes=SEED_EXAMPLE.codes, reviews=SEED_EXAMPLE.reviews,
                  results=SEED_EXAMPLE.results, max_rounds=3)
    (code, log), _ = sc.run(run_team)
    assert code == "v3" and len(log) == 9


def test_the_worked_example_with_two_rounds_runs_out():
    sc = Scenario("two", codes=SEED_EXAMPLE.codes, reviews=SEED_EXAMPLE.reviews,
                  results=SEED_EXAMPLE.results, max_rounds=2)
    (code, log), script = sc.run(run_team)
    assert code is None
    assert roles(log) == ["planner", "coder", "reviewer", "coder", "reviewer", "tester"]
    assert sum(1 for c in script.calls if c[0] == "coder") == 2


# --- edge cases -------------------------------------------------------------------------------

def test_zero_rounds_plans_and_returns_none():
    s = Script()
    code, log = run_team("t", *s.agents(), 0)
    assert code is None and log == [("planner", "PLAN")]
    assert [c[0] for c in s.calls] == ["planner"]


def test_approve_and_pass_at_once():
    s = Script(codes=["only"], reviews=["APPROVE"], results=["PASS"])
    code, log = run_team("t", *s.agents(), 5)
    assert code == "only"
    assert log == [("planner", "PLAN"), ("coder", "only"), ("reviewer", "APPROVE"), ("tester", "PASS")]


def test_tester_only_runs_on_approved_code():
    s = Script(codes=["a", "b", "c"], reviews=["REJECT", "NOT APPROVE", " APPROVE"], results=["PASS"])
    code, log = run_team("t", *s.agents(), 3)
    assert code is None
    assert "tester" not in roles(log)
    assert [c[0] for c in s.calls].count("coder") == 3


def test_keywords_must_start_the_reply():
    s = Script(codes=["a", "b", "c"], reviews=["APPROVE: ok"], results=["NO PASS", "FAIL: PASS expected",
                                                                          "PASS: 4/4"])
    code, log = run_team("t", *s.agents(), 3)
    assert code == "c"
    feedback = [args[2] for role, args, _ in s.calls if role == "coder"]
    assert feedback == ["", "test: NO PASS", "test: FAIL: PASS expected"]


def test_keywords_are_case_sensitive():
    s = Script(reviews=["approve"], results=["PASS"])
    code, log = run_team("t", *s.agents(), 2)
    assert code is None and "tester" not in roles(log)
    s = Script(reviews=["APPROVE"], results=["pass"])
    code, log = run_team("t", *s.agents(), 2)
    assert code is None and roles(log).count("tester") == 2


def test_feedback_is_the_latest_one_review_after_test():
    s = Script(codes=["a", "b", "c"], reviews=["APPROVE", "REJECT: again"], results=["FAIL: x"])
    run_team("t", *s.agents(), 3)
    feedback = [args[2] for role, args, _ in s.calls if role == "coder"]
    assert feedback == ["", "test: FAIL: x", "review: REJECT: again"]


def test_the_coder_is_called_at_most_max_rounds_times():
    for rounds in range(0, 6):
        s = Script(reviews=["REJECT"])
        run_team("t", *s.agents(), rounds)
        assert [c[0] for c in s.calls].count("coder") == rounds


def test_the_planner_is_called_once_with_the_task():
    s = Script(reviews=["REJECT"])
    run_team("the task", *s.agents(), 4)
    assert [c for c in s.calls if c[0] == "planner"] == [("planner", ("the task",), "PLAN")]


# --- Script ------------------------------------------------------------------------------------

def test_script_answers_in_turn_and_repeats_the_last_answer():
    s = Script(codes=["v1", "v2"])
    assert [s.coder("t", "p", "") for _ in range(4)] == ["v1", "v2", "v2", "v2"]


def test_script_keeps_a_separate_count_per_role():
    s = Script(codes=["c1", "c2"], reviews=["r1", "r2"], results=["t1", "t2"])
    assert s.coder("t", "p", "") == "c1"
    assert s.reviewer("c1") == "r1"
    assert s.tester("c1") == "t1"
    assert s.coder("t", "p", "f") == "c2"
    assert s.reviewer("c2") == "r2"


def test_script_records_every_call_with_its_arguments_and_reply():
    s = Script(plan="P")
    s.planner("task")
    s.coder("task", "P", "")
    s.reviewer("v1")
    s.tester("v1")
    assert s.calls == [("planner", ("task",), "P"), ("coder", ("task", "P", ""), "v1"),
                       ("reviewer", ("v1",), "APPROVE"), ("tester", ("v1",), "PASS")]


def test_script_agents_are_in_protocol_order():
    s = Script()
    assert s.agents() == (s.planner, s.coder, s.reviewer, s.tester)


def test_script_stops_a_runaway_caller():
    s = Script(max_calls=10)
    for _ in range(10):
        s.reviewer("x")
    with pytest.raises(TooManyCalls):
        s.reviewer("x")
    assert issubclass(TooManyCalls, BaseException) and not issubclass(TooManyCalls, Exception)


def test_scenario_script_is_fresh_each_time():
    a, b = SEED_EXAMPLE.script(), SEED_EXAMPLE.script()
    a.coder("t", "p", "")
    assert b.calls == [] and a.codes is not b.codes


# --- random scenarios -------------------------------------------------------------------------

def test_random_scenarios_are_deterministic_for_a_seed():
    assert random_scenarios(50, seed=7) == random_scenarios(50, seed=7)
    assert random_scenarios(50, seed=7) != random_scenarios(50, seed=8)


def test_random_scenarios_default_count_and_names():
    scenarios = random_scenarios()
    assert len(scenarios) == 200
    assert len({s.name for s in scenarios}) == 200
    assert scenarios == random_scenarios()


def test_random_scenarios_cover_the_interesting_cases():
    scenarios = random_scenarios()
    results = [sc.run(run_team)[0] for sc in scenarios]
    assert any(code is not None for code, _ in results)        # some succeed
    assert any(code is None for code, _ in results)            # some run out
    assert any(sc.max_rounds == 0 for sc in scenarios)          # zero rounds
    assert any("tester" in roles(log) and code is None for code, log in results)


def test_random_scenario_has_enough_replies_for_every_round():
    import random
    rng = random.Random(1)
    for i in range(100):
        sc = random_scenario(rng, i)
        assert 0 <= sc.max_rounds <= 15
        assert len(sc.codes) >= sc.max_rounds and len(sc.reviews) >= sc.max_rounds
        assert all(type(x) is str for x in sc.codes + sc.reviews + sc.results + (sc.task, sc.plan))


def test_random_scenarios_cover_everything_the_exercise_allows():
    """Replies that start with the keyword and go on, contain it later, other words; repeated and
    empty code; codes that are not vN; max_rounds from 0 to at least 12."""
    scenarios = random_scenarios()
    reviews = {r for sc in scenarios for r in sc.reviews}
    results = {r for sc in scenarios for r in sc.results}
    assert {"APPROVED", "APPROVE: looks fine", "NOT APPROVE", "LGTM", "approve", " APPROVE", ""} <= reviews
    assert {"PASSED", "PASS: 4/4", "NO PASS", "pass", " PASS", "OK", ""} <= results
    assert any(len(set(sc.codes)) < len(sc.codes) for sc in scenarios)
    assert any("" in sc.codes for sc in scenarios)
    assert any(not code.startswith("v") for sc in scenarios for code in sc.codes if code)
    assert {sc.max_rounds for sc in scenarios} >= set(range(13))
    # and the reference really goes that far: some runs pass late, some use a dozen rounds
    logs = [sc.run(run_team)[0][1] for sc in scenarios]
    assert max(roles(log).count("coder") for log in logs) >= 12


@pytest.mark.parametrize("sc", random_scenarios(60, seed=99), ids=lambda s: s.name)
def test_reference_invariants_on_random_scenarios(sc):
    (code, log), script = sc.run(run_team)
    assert log[0] == ("planner", sc.plan)
    body = roles(log)[1:]
    assert body.count("coder") <= sc.max_rounds
    # each round is coder, reviewer, and a tester only right after an APPROVE review
    i = 0
    while i < len(body):
        assert body[i:i + 2] == ["coder", "reviewer"]
        review = log[1 + i + 1][1]
        if review.startswith("APPROVE"):
            assert body[i + 2] == "tester"
            i += 3
        else:
            assert body[i + 2:i + 3] in ([], ["coder"])
            i += 2
    if code is not None:
        assert log[-1][0] == "tester" and log[-1][1].startswith("PASS")
        assert log[-3] == ("coder", code)
    # the log is exactly what the agents said, in call order
    assert log == [(role, reply) for role, _, reply in script.calls]
