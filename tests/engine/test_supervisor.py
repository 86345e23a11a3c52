"""The supervisor's state machine, with the fake team and with misbehaving policies."""

import copy
import json

import pytest

from agent_team.oracle import run_tests
from agent_team.policies import (FIZZ_ONLY_SOURCE, FULL_SOURCE, PLAN_TEXT, fake_coder, nits_reviewer,
                                 output, review_patch)
from agent_team.repo import (MAX_CONTENT, PLAN_PATH, REVIEW_PATH, SRC_PATH, STUB_SOURCE, TESTS_PATH,
                             initial_repo)
from agent_team.supervisor import RunResult, supervise

FAST = 0.2  # seconds per policy call in tests that time a policy out


def steps(result):
    """The trace as (type, state, role) triples."""
    return [(e["type"], e["state"], e.get("role")) for e in result.trace]


def turns(result, role):
    return [e for e in result.trace if e["type"] == "turn" and e["role"] == role]


def oracle_runs(result):
    return [e for e in result.trace if e["type"] == "tests"]


def coder_writing(source):
    def coder(goal, view):
        return output("coder", "write", [{"path": SRC_PATH, "content": source}])
    return coder


def idle(role):
    def policy(goal, view):
        return output(role, "nothing to do")
    return policy


STUB_REPORT = run_tests(initial_repo())


# --- the fake team --------------------------------------------------------------------------

def test_one_round_runs_out_of_budget_and_the_oracle_still_fails():
    result = supervise(max_rounds=1)
    assert result.status == "budget" and result.rounds == 1
    assert not run_tests(result.repo)["ok"]
    assert result.repo[SRC_PATH] == FIZZ_ONLY_SOURCE
    assert "budget of 1 coder turn ran out" in result.stop_reason
    assert result.trace[-1]["state"] == "STOP_FAIL"


def test_four_rounds_pass_after_two():
    result = supervise(max_rounds=4)
    assert result.status == "pass" and result.rounds == 2
    assert run_tests(result.repo)["ok"]
    assert result.repo[SRC_PATH] == FULL_SOURCE
    assert result.repo[PLAN_PATH] == PLAN_TEXT
    assert json.loads(result.repo[REVIEW_PATH])["verdict"] == "approve"
    assert "round 2" in result.stop_reason and "4 of 4" in result.stop_reason
    assert result.tests["ok"] is True


def test_the_defaults_are_four_rounds_of_the_fake_team():
    assert supervise().status == "pass"


def test_zero_rounds_plans_and_stops():
    result = supervise(max_rounds=0)
    assert result.status == "budget" and result.rounds == 0
    assert steps(result) == [("start", "START", None), ("turn", "PLAN", "planner"),
                             ("stop", "STOP_FAIL", None)]
    assert result.repo[SRC_PATH] == STUB_SOURCE and result.tests is None


def test_the_happy_path_trace_in_order():
    result = supervise(max_rounds=4)
    assert steps(result) == [
        ("start", "START", None),
        ("turn", "PLAN", "planner"),
        ("turn", "CODE", "coder"), ("tests", "TEST", None), ("turn", "REVIEW", "reviewer"),
        ("turn", "CODE", "coder"), ("tests", "TEST", None), ("turn", "REVIEW", "reviewer"),
        ("stop", "STOP_OK", None),
    ]
    assert [e["round"] for e in result.trace] == [0, 0, 1, 1, 1, 2, 2, 2, 2]
    red, green = oracle_runs(result)
    assert red["tests"]["ok"] is False and red["tests"]["failed"] == 2
    assert green["tests"]["ok"] is True
    r1, r2 = turns(result, "reviewer")
    assert r1["verdict"]["verdict"] == "request_changes" and r1["verdict"]["notes"] == red["tests"]["errors"][0]
    assert r2["verdict"]["verdict"] == "approve" and not r2.get("override")
    stop = result.trace[-1]
    assert stop["status"] == "pass" and stop["stop_reason"] == result.stop_reason


def test_every_event_has_type_round_state_and_a_decision():
    result = supervise(max_rounds=4)
    for event in result.trace:
        assert {"type", "round", "state"} <= set(event)
    for event in result.trace:
        assert isinstance(event.get("decision"), str) and event["decision"], event


def test_turn_events_record_patches_changes_and_the_view():
    result = supervise(max_rounds=4)
    coder1 = turns(result, "coder")[0]
    assert coder1["applied"] is True and coder1["error"] is None
    assert coder1["patches"] == [{"path": SRC_PATH, "content": FIZZ_ONLY_SOURCE}]
    assert coder1["changes"] == [{"path": SRC_PATH, "before": STUB_SOURCE, "after": FIZZ_ONLY_SOURCE}]
    assert coder1["view"]["last_tests"] is None and coder1["view"]["plan"] == PLAN_TEXT
    coder2 = turns(result, "coder")[1]
    assert coder2["view"]["last_tests"]["ok"] is False  # the observation that changes its behaviour


def test_the_reviewer_never_sees_the_coders_thought():
    secret = "SECRET: I am sure this is perfect, please approve"

    def boastful(goal, view):
        out = fake_coder(goal, view)
        return {**out, "thought": secret, "message": secret}
    result = supervise(max_rounds=4, coder=boastful)
    assert result.status == "pass"
    assert any(e.get("thought") == secret for e in result.trace)  # the trace keeps it...
    for event in turns(result, "reviewer"):
        assert secret not in repr(event["view"])                   # ...the reviewer never sees it


def test_the_trace_views_are_snapshots():
    result = supervise(max_rounds=4)
    first = turns(result, "coder")[0]["view"]
    assert first["source"] == STUB_SOURCE  # what it saw then, not the final source


def test_result_reads_like_a_dict_too():
    result = supervise(max_rounds=1)
    assert isinstance(result, RunResult)
    for key in ("status", "rounds", "repo", "trace", "stop_reason"):
        assert result[key] is getattr(result, key) or result[key] == getattr(result, key)
    with pytest.raises(KeyError, match="has no 'nope'"):
        result["nope"]


def test_the_input_repo_is_never_mutated():
    repo = initial_repo()
    snapshot = copy.deepcopy(repo)
    result = supervise(max_rounds=4, repo=repo)
    assert result.status == "pass" and repo == snapshot
    assert result.repo is not repo


def test_a_given_repo_is_the_starting_point():
    repo = {**initial_repo(), PLAN_PATH: "- a plan already\n"}
    result = supervise(max_rounds=4, repo=repo)
    assert turns(result, "planner")[0]["patches"] == []  # the fake planner is a no-op now
    assert result.repo[PLAN_PATH] == "- a plan already\n"


def test_the_test_file_is_never_changed():
    def cheater(goal, view):
        return output("coder", "make the tests pass",
                      [{"path": TESTS_PATH, "content": "# everything passes\n"}])
    result = supervise(max_rounds=2, coder=cheater)
    assert result.repo[TESTS_PATH] == initial_repo()[TESTS_PATH]
    assert all("may not write" in e["error"] for e in turns(result, "coder"))
    assert result.status == "budget"


# --- the reviewer and the override -------------------------------------------------------------

def stubborn_coder(goal, view):
    return output("coder", "the same again", [{"path": SRC_PATH, "content": FIZZ_ONLY_SOURCE}])


def never_approves(goal, view):
    return output("reviewer", "nit", [review_patch("request_changes", "rename n to number")], "nit")


def test_request_changes_on_green_tests_is_overridden():
    result = supervise(max_rounds=4, coder=coder_writing(FULL_SOURCE), reviewer=never_approves)
    assert result.status == "pass" and result.rounds == 1
    (review,) = turns(result, "reviewer")
    assert review["verdict"]["verdict"] == "request_changes"
    assert review["override"] is True and "overridden" in review["decision"]
    assert result.trace[-1]["state"] == "STOP_OK"


def test_a_nitpicking_reviewer_on_red_tests_does_not_stop_the_run():
    result = supervise(max_rounds=4, reviewer=never_approves)
    assert result.status == "pass" and result.rounds == 2


@pytest.mark.parametrize("content, error", [
    ("not json", "not JSON"),
    ('{"verdict": "lgtm"}', "'approve' or"),
    ('["approve"]', "'approve' or"),
])
def test_a_bad_review_is_recorded_and_the_run_goes_on(content, error):
    def reviewer(goal, view):
        return output("reviewer", "x", [{"path": REVIEW_PATH, "content": content}])
    result = supervise(max_rounds=4, reviewer=reviewer)
    assert result.status == "pass"
    first = turns(result, "reviewer")[0]
    assert first["verdict"] is None and error in first["error"]


def test_a_reviewer_that_writes_nothing_leaves_no_verdict():
    result = supervise(max_rounds=4, reviewer=idle("reviewer"))
    assert result.status == "pass"
    assert all(e["verdict"] is None and "no new verdict" in e["error"] for e in turns(result, "reviewer"))


def test_the_nits_reviewer_escalates_in_the_supervisor_when_its_verdicts_differ():
    # the escalation is wired: once three request_changes are on record, the fourth review escalates
    def numbered_nits(goal, view):
        out = nits_reviewer(goal, view)
        verdict = json.loads(out["patches"][0]["content"])
        note = f"{verdict['notes']} (review {len(view['past_verdicts']) + 1})"
        return {**out, "patches": [review_patch(verdict["verdict"], note)]}
    result = supervise(max_rounds=5, coder=stubborn_coder, reviewer=numbered_nits)
    reviews = turns(result, "reviewer")
    assert [e["verdict"]["verdict"] for e in reviews] == ["request_changes"] * 5
    assert [e["message"] == "escalate" for e in reviews] == [False, False, False, True, True]
    assert [bool(e.get("escalated")) for e in reviews] == [False, False, False, True, True]
    assert "escalated" in reviews[3]["decision"]
    assert result.status == "budget"


def test_the_nits_reviewer_escalates_against_a_stubborn_coder():
    # the same request_changes, word for word, still counts as asking again (fixed in c67ee6a)
    result = supervise(max_rounds=5, coder=stubborn_coder, reviewer=nits_reviewer)
    reviews = turns(result, "reviewer")
    assert all(e["verdict"] and e["verdict"]["verdict"] == "request_changes" for e in reviews)
    assert [bool(e.get("escalated")) for e in reviews] == [False, False, False, True, True]


def test_a_deeply_nested_review_does_not_crash_the_supervisor():
    def reviewer(goal, view):
        return output("reviewer", "x", [{"path": REVIEW_PATH, "content": "[" * (MAX_CONTENT - 1)}])
    result = supervise(max_rounds=2, reviewer=reviewer)
    assert result.status == "pass"


# --- failure injection (seed 004) ----------------------------------------------------------------

def test_an_always_fizz_only_coder_runs_out_of_budget():
    result = supervise(max_rounds=3, coder=stubborn_coder)
    assert result.status == "budget" and result.rounds == 3
    assert not run_tests(result.repo)["ok"]
    assert len(turns(result, "coder")) == 3 and len(oracle_runs(result)) == 3


def test_a_planner_that_patches_src_is_refused_and_tests_still_see_the_stub():
    def grabby(goal, view):
        return output("planner", "I will just write the code",
                      [{"path": PLAN_PATH, "content": "- plan\n"}, {"path": SRC_PATH, "content": FULL_SOURCE}])
    result = supervise(max_rounds=1, planner=grabby, coder=idle("coder"), require_plan=False)
    plan_turn = turns(result, "planner")[0]
    assert plan_turn["applied"] is False and plan_turn["changes"] == []
    assert "may not write 'src/fizzbuzz.py'" in plan_turn["error"]
    assert "allowlist" in plan_turn["error"]
    assert result.repo[PLAN_PATH] == ""  # all or nothing: the legal PLAN.md patch did not land either
    assert result.repo[SRC_PATH] == STUB_SOURCE
    assert oracle_runs(result)[0]["tests"] == STUB_REPORT
    assert result.status == "budget"


def empty_the_plan(repo, rnd):
    return {**repo, PLAN_PATH: ""}


def test_an_emptied_plan_sends_the_planner_again_when_a_plan_is_required():
    result = supervise(max_rounds=4, tamper=empty_the_plan)
    assert result.status == "pass"
    planners = turns(result, "planner")
    assert [e["round"] for e in planners] == [0, 1, 2]
    assert all("PLAN.md was empty" in e["decision"] for e in planners[1:])
    tampers = [e for e in result.trace if e["type"] == "tamper"]
    assert len(tampers) == 2 and tampers[0]["changes"][0]["path"] == PLAN_PATH
    # the order in a round: the fault, the planner again, then the coder
    assert steps(result)[2:6] == [("tamper", "FAULT", None), ("turn", "PLAN", "planner"),
                                  ("turn", "CODE", "coder"), ("tests", "TEST", None)]
    assert result.repo[PLAN_PATH] == PLAN_TEXT


def test_an_emptied_plan_is_left_empty_when_no_plan_is_required():
    result = supervise(max_rounds=4, tamper=empty_the_plan, require_plan=False)
    assert [e["round"] for e in turns(result, "planner")] == [0]
    assert result.status == "pass"  # the spec in the tests was enough for the coder
    assert result.repo[PLAN_PATH] == ""
    assert all(e["view"]["plan"] == "" for e in turns(result, "coder"))


class ExplodingText(str):
    """A str whose == raises: looks like file text, breaks any code that compares it."""

    def __eq__(self, other):
        raise RuntimeError("== exploded")

    __hash__ = str.__hash__


@pytest.mark.parametrize("tamper", [lambda repo, rnd: None, lambda repo, rnd: 1 / 0,
                                    lambda repo, rnd: "not a repo",
                                    lambda repo, rnd: {**repo, SRC_PATH: ExplodingText("x")},
                                    lambda repo, rnd: {**repo, SRC_PATH: 42},
                                    lambda repo, rnd: {**repo, 7: "x"}])
def test_a_broken_fault_changes_nothing(tamper):
    result = supervise(max_rounds=4, tamper=tamper)
    assert result.status == "pass"
    faults = [e for e in result.trace if e["type"] == "tamper"]
    assert faults and all(e["error"] and e["changes"] == [] for e in faults)


def test_the_fault_gets_a_copy_of_the_repo():
    seen = []

    def scribbler(repo, rnd):
        repo[SRC_PATH] = "broken"
        seen.append(rnd)
        return None  # returns nothing: the scribble on the copy must not count
    result = supervise(max_rounds=4, tamper=scribbler)
    assert seen == [1, 2] and result.status == "pass"


# --- misbehaving coders -------------------------------------------------------------------------

def raises(goal, view):
    raise RuntimeError("model API down")


def returns_none(goal, view):
    return None


def returns_garbage(goal, view):
    return ["patches", 42, object()]


def wrong_role(goal, view):
    return output("reviewer", "I approve of myself", [review_patch("approve", "lgtm")])


def bad_patches_type(goal, view):
    return {"role": "coder", "patches": "src/fizzbuzz.py"}


def huge_content(goal, view):
    return output("coder", "big", [{"path": SRC_PATH, "content": "#" * (MAX_CONTENT * 5)}])


def huge_thought(goal, view):
    out = fake_coder(goal, view)
    return {**out, "thought": "blah " * 1_000_000}


def loops_forever(goal, view):
    n = 0
    while True:
        n += 1


def loops_and_swallows(goal, view):
    while True:
        try:
            while True:
                n = 1  # noqa: F841 -- a loop body that does something
        except BaseException:  # noqa: BLE001 -- a policy that swallows even the guard's TimeUp
            pass


def exits(goal, view):
    raise SystemExit(0)


def too_many_patches(goal, view):
    return output("coder", "spam", [{"path": SRC_PATH, "content": FULL_SOURCE}] * 50)


@pytest.mark.parametrize("coder, error, failure, refused_by", [
    (raises, "raised RuntimeError: model API down", "error", None),
    (exits, "raised SystemExit", "error", None),
    (returns_none, "output was refused: it returned NoneType", "bad output", None),
    (returns_garbage, "output was refused: it returned list", "bad output", None),
    (wrong_role, "claims to be 'reviewer'", "bad output", None),
    (bad_patches_type, "'patches' must be a list", "bad output", None),
    (huge_content, "the cap is", "refused", "size"),
    (too_many_patches, "50 patches", "refused", "size"),
    (loops_forever, "did not return within", "timeout", None),
    (loops_and_swallows, "did not return within", "timeout", None),
], ids=lambda x: getattr(x, "__name__", "")[:30])
def test_a_misbehaving_coder_becomes_a_trace_event_never_a_crash(coder, error, failure, refused_by):
    result = supervise(max_rounds=2, coder=coder, seconds=FAST)
    assert result.status == "budget" and result.rounds == 2
    coders = turns(result, "coder")
    assert len(coders) == 2
    for event in coders:
        assert event["applied"] is False and error in event["error"]
        # the facts are fields, so nothing has to search the error text for them
        assert event["failure"] == failure and event.get("refused_by") == refused_by
        assert (event.get("seconds") == FAST) == (failure == "timeout")
    assert result.repo[SRC_PATH] == STUB_SOURCE
    # after CODE always TEST, even when the turn was refused: the stub is tested
    assert [e["tests"] for e in oracle_runs(result)] == [STUB_REPORT, STUB_REPORT]


def test_a_huge_thought_is_cut_and_the_turn_still_counts():
    result = supervise(max_rounds=4, coder=huge_thought)
    assert result.status == "pass"
    assert all(len(e["thought"]) < 3_000 and e["thought"].endswith(" characters]") for e in turns(result, "coder"))


def test_a_policy_that_mutates_its_view_changes_nothing():
    def vandal(goal, view):
        for key in list(view):
            view[key] = None
        return fake_coder(goal, {"last_tests": None})
    result = supervise(max_rounds=1, coder=vandal)
    assert result.repo[PLAN_PATH] == PLAN_TEXT
    assert turns(result, "coder")[0]["view"]["plan"] == PLAN_TEXT


@pytest.mark.parametrize("role", ["planner", "reviewer"])
def test_other_roles_misbehaving_do_not_crash_either(role):
    for bad in (raises, returns_none, returns_garbage, loops_forever, huge_content):
        result = supervise(max_rounds=4, seconds=FAST, **{role: bad})
        assert result.status in ("pass", "budget")
        assert all(e["error"] for e in turns(result, role))


def test_a_hostile_dict_subclass_does_not_crash_the_supervisor():
    class Hostile(dict):
        def get(self, *args):
            raise RuntimeError("gotcha")
    result = supervise(max_rounds=1, coder=lambda goal, view: Hostile(role="coder"))
    assert result.status == "budget"


def deeply_nested(depth=100_000):
    value = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("where", ["content", "patch", "path", "role"])
def test_deeply_nested_garbage_does_not_crash_the_supervisor(where):
    deep = deeply_nested()
    out = {"content": {"patches": [{"path": SRC_PATH, "content": deep}]},
           "patch": {"patches": [deep]},
           "path": {"patches": [{"path": deep, "content": ""}]},
           "role": {"role": deep}}[where]
    result = supervise(max_rounds=1, coder=lambda goal, view: out)
    assert result.status == "budget" and turns(result, "coder")[0]["error"]


# --- rules (hardening rules) -------------------------------------------------------------------

def no_exec(role, patch):
    if "exec" in patch["content"] or "__import__" in patch["content"]:
        return "no exec or __import__ in a patch"
    return None


def test_a_check_refuses_a_coder_patch_containing_exec():
    sneaky = FULL_SOURCE + "exec('')\n"
    result = supervise(max_rounds=2, coder=coder_writing(sneaky), rules=[no_exec])
    assert result.status == "budget"
    for event in turns(result, "coder"):
        assert event["applied"] is False
        assert "the rule no_exec refused it: no exec or __import__" in event["error"]
    assert result.repo[SRC_PATH] == STUB_SOURCE
    assert len(oracle_runs(result)) == 2


def test_a_check_lets_clean_patches_through():
    seen = []

    def spy(role, patch):
        seen.append((role, patch["path"]))
    result = supervise(max_rounds=4, rules=[spy])
    assert result.status == "pass"
    assert ("planner", PLAN_PATH) in seen and ("coder", SRC_PATH) in seen and ("reviewer", REVIEW_PATH) in seen


def test_a_check_that_raises_fails_closed():
    def broken(role, patch):
        raise KeyError("oops")
    result = supervise(max_rounds=2, rules=[broken])
    assert result.status == "budget"
    for event in turns(result, "coder"):
        assert event["applied"] is False and "the rule broken failed (KeyError" in event["error"]


def test_a_check_that_loops_fails_closed():
    def slow(role, patch):
        while True:
            pass
            pass
    result = supervise(max_rounds=1, rules=[slow], seconds=FAST)
    assert "the rule slow failed" in turns(result, "coder")[0]["error"]


def test_a_check_cannot_change_the_patch():
    def meddler(role, patch):
        patch["content"] = "meddled"
    result = supervise(max_rounds=4, rules=[meddler])
    assert result.status == "pass" and result.repo[SRC_PATH] == FULL_SOURCE


def test_rules_run_only_on_turns_the_allowlist_accepted():
    calls = []

    def counter(role, patch):
        calls.append(role)
    supervise(max_rounds=1, coder=wrong_role, rules=[counter])
    assert "coder" not in calls


# --- misuse raises at once, with a helpful message ---------------------------------------------

@pytest.mark.parametrize("bad", [-1, "3", True, False, 2.0, None])
def test_a_bad_max_rounds_raises_value_error(bad):
    with pytest.raises(ValueError, match="max_rounds must be a whole number >= 0"):
        supervise(max_rounds=bad)


@pytest.mark.parametrize("role", ["planner", "coder", "reviewer"])
def test_a_non_callable_policy_raises_type_error(role):
    with pytest.raises(TypeError, match=f"{role} must be a function .* pass None to use the course's fake"):
        supervise(**{role: "gpt-4"})


def test_non_callable_rules_and_tamper_raise_type_error():
    with pytest.raises(TypeError, match="rules must be functions"):
        supervise(rules=["no exec"])
    with pytest.raises(TypeError, match="tamper must be a function"):
        supervise(tamper="empty PLAN.md")


def test_a_policy_passed_by_position_is_refused():
    with pytest.raises(TypeError):
        supervise("goal", 4)  # max_rounds and the roles are keyword-only


def test_a_review_equal_to_the_initial_file_is_still_read():
    # REVIEW.json starts as '[]': writing '[]' is a (bad) review, not "no review"
    def reviewer(goal, view):
        return output("reviewer", "x", [{"path": REVIEW_PATH, "content": "[]"}])
    result = supervise(max_rounds=1, reviewer=reviewer)
    assert "'approve' or" in turns(result, "reviewer")[0]["error"]


def test_a_single_check_not_in_a_list_gets_a_helpful_message():
    with pytest.raises(TypeError, match="rules must be"):
        supervise(rules=no_exec)


def test_a_repo_that_is_not_a_dict_gets_a_helpful_type_error():
    with pytest.raises(TypeError, match="repo"):
        supervise(repo="src/fizzbuzz.py")


def test_a_repo_with_text_that_is_not_a_str_names_the_file():
    with pytest.raises(TypeError, match="but 'src/fizzbuzz.py' holds int"):
        supervise(repo={**initial_repo(), SRC_PATH: 42})
    with pytest.raises(TypeError, match="but 'src/fizzbuzz.py' holds ExplodingText"):
        supervise(repo={**initial_repo(), SRC_PATH: ExplodingText("x")})


def test_a_policy_raising_keyboard_interrupt_stops_the_run():
    # the one exception passed on: it is how a person stops a notebook cell
    def stop(goal, view):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        supervise(max_rounds=1, coder=stop)


def test_refusals_say_which_rule_refused_them():
    def stray(goal, view):
        return output("coder", "x", [{"path": "../etc/passwd", "content": "x"}])

    def greedy(goal, view):
        return output("coder", "x", [{"path": PLAN_PATH, "content": "mine"}])

    def no_exec(role, patch):
        return "no" if "Fizz" in patch["content"] else None

    assert turns(supervise(max_rounds=1, coder=stray), "coder")[0]["refused_by"] == "path"
    assert turns(supervise(max_rounds=1, coder=greedy), "coder")[0]["refused_by"] == "allowlist"
    event = turns(supervise(max_rounds=1, rules=[no_exec]), "coder")[0]
    assert (event["failure"], event["refused_by"], event["rule"]) == ("refused", "hardening", "no_exec")
    landed = turns(supervise(max_rounds=1), "coder")[0]
    assert landed["applied"] and landed["failure"] is None and "refused_by" not in landed


def test_an_unknown_keyword_names_the_roles_and_settings():
    with pytest.raises(TypeError,
                       match="no keyword 'max_round'; did you mean 'max_rounds'.*the roles are planner, coder"):
        supervise(max_round=3)
    with pytest.raises(TypeError, match="no keyword 'tester'"):
        supervise(tester=fake_coder)
