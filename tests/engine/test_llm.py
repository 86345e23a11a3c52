"""The LLM slot: prompts from narrow views, parsing replies, bounded retries, and models that misbehave."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_team.realteam.llm import RECORD_CAP, BadReply, ScriptedModel, build_prompt, llm_policy, parse_reply
from agent_team.policies import FULL_SOURCE, check_output
from agent_team.repo import SRC_PATH, apply_turn, initial_repo
from agent_team.roles import PROMPTS
from agent_team.views import make_view

GOAL = "make the tests pass"


def reply(role="coder", patches=None, **extra):
    if patches is None:
        patches = [{"path": SRC_PATH, "content": FULL_SOURCE}]
    return json.dumps({"role": role, "thought": "t", "patches": patches, "message": "m", **extra})


def coder_view():
    return make_view("coder", GOAL, initial_repo(), [])


# --- prompts ------------------------------------------------------------------------------------

def test_the_prompt_holds_the_system_prompt_role_tag_view_and_format():
    prompt = build_prompt("coder", GOAL, coder_view())
    assert prompt.startswith(PROMPTS["coder"])
    assert "Role: coder" in prompt and f"Goal: {GOAL}" in prompt
    assert "You may write only: src/fizzbuzz.py" in prompt
    assert "## source\ndef fizzbuzz(n):" in prompt and '"patches"' in prompt
    assert "test_spec" not in prompt  # the coder's view has no test spec: the prompt has none either


def test_the_reviewer_is_told_what_review_json_holds_and_a_problem_is_fed_back():
    view = make_view("reviewer", GOAL, initial_repo(), [])
    prompt = build_prompt("reviewer", GOAL, view, "Be brief.", problem="the reply is not JSON")
    assert prompt.startswith("Be brief.") and '"verdict"' in prompt
    assert prompt.endswith("Your previous reply could not be used: the reply is not JSON. "
                           "Reply again, with only the JSON object.")
    with pytest.raises(TypeError, match="view must be the dict"):
        build_prompt("coder", GOAL, "plan")


# --- parsing ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    reply(),
    "```json\n" + reply() + "\n```",
    "Here you go:\n```\n" + reply() + "\n```\nGood luck!",
    "Sure! " + reply() + " Hope that helps.",
])
def test_good_replies_parse_with_or_without_a_fence(text):
    out = parse_reply("coder", text)
    assert out == check_output("coder", json.loads(reply()))


@pytest.mark.parametrize("text, words", [
    (None, "returned NoneType, not text"),
    ("I think fizzbuzz is easy", "not JSON"),
    ("```json\n{'role': 'coder'}\n```", "not JSON"),
    ("[1, 2]", "JSON list; it must be one object"),
    ('{"thought": "hi"}', 'no "patches"'),
    (reply(role="planner"), "claims to be 'planner'"),
    (reply(patches="src/fizzbuzz.py"), "'patches' must be a list"),
    (reply(thought=5), "'thought' must be a string"),
    (reply(patches=[{"path": SRC_PATH}]), 'patch 0 must be {"path": str, "content": str}'),
    (reply(patches=[{"path": SRC_PATH, "content": 1}]), "patch 0 must be"),
    (reply(patches=[{"path": SRC_PATH, "content": "", "mode": "w"}]), "patch 0 must be"),
    (reply(patches=[{"path": SRC_PATH, "content": ""}] * 9), "9 patches; at most 8"),
    (reply("reviewer", [{"path": "REVIEW.json", "content": "LGTM"}]), "REVIEW.json is not JSON"),
    (reply("reviewer", [{"path": "REVIEW.json", "content": '{"verdict": "ok"}'}]), "'approve' or"),
    ("[" * 5000 + "]" * 5000, "nested too deeply"),
])
def test_bad_replies_say_what_is_wrong(text, words):
    role = "reviewer" if "REVIEW" in str(text) else "coder"
    with pytest.raises(BadReply, match=words):
        parse_reply(role, text)


def test_the_allowlist_is_left_to_the_supervisor():
    # A well-formed patch to a path the coder may not write parses; apply_turn refuses it.
    out = parse_reply("coder", reply(patches=[{"path": "tests/test_fizzbuzz.py", "content": "x"}]))
    assert apply_turn(initial_repo(), "coder", out["patches"])[1].startswith("the coder may not write")


@given(st.text(max_size=200))
@settings(max_examples=300, deadline=None)
def test_parse_reply_never_raises_anything_but_badreply(text):
    try:
        out = parse_reply("coder", text)
    except BadReply as err:
        assert str(err)
    else:
        assert check_output("coder", out) == out


# --- the policy: retries, attempts, failures ---------------------------------------------------

def test_bad_first_then_good_retries_and_records_every_attempt():
    model = ScriptedModel(["no JSON here", reply(patches="oops"), "```json\n" + reply() + "\n```"])
    policy = llm_policy("coder", model, retries=2)
    out = policy(GOAL, coder_view())
    assert out["patches"] == [{"path": SRC_PATH, "content": FULL_SOURCE}]
    assert [a["attempt"] for a in out["attempts"]] == [1, 2, 3]
    assert [a["error"] is None for a in out["attempts"]] == [False, False, True]
    assert [a["failure"] for a in out["attempts"]] == ["bad reply", "bad reply", None]
    assert "not JSON" in out["attempts"][0]["error"] and out["attempts"][1]["reply"] == reply(patches="oops")
    # The error of each bad reply is fed back into the next prompt.
    assert "could not be used: the reply is not JSON" in model.prompts[1]
    assert "'patches' must be a list" in model.prompts[2]
    assert policy.history == [out["attempts"]]
    assert json.loads(json.dumps(out)) == out  # the trace can keep it as is
    assert check_output("coder", out)["patches"] == out["patches"]


def test_a_good_first_reply_is_one_attempt():
    out = llm_policy("coder", ScriptedModel([reply()]))(GOAL, coder_view())
    assert len(out["attempts"]) == 1 and out["message"] == "m"


@pytest.mark.parametrize("retries", [0, 1, 2, 5])
def test_retries_are_bounded_and_failure_is_a_noop_that_says_why(retries):
    model = ScriptedModel(["nope"])
    out = llm_policy("coder", model, retries=retries)(GOAL, coder_view())
    assert len(model.prompts) == len(out["attempts"]) == retries + 1
    assert out["patches"] == [] and out["role"] == "coder"
    assert out["message"].startswith(f"no change: no usable reply in {retries + 1} attempt")
    assert "not JSON" in out["message"]
    assert check_output("coder", out)  # a valid output, so the supervisor records a no-op turn


def test_exceptions_from_the_model_are_failed_attempts_not_crashes():
    model = ScriptedModel([ConnectionError("offline"), KeyError("choices"), reply()])
    out = llm_policy("coder", model)(GOAL, coder_view())
    errors = [a["error"] for a in out["attempts"]]
    assert errors == ["the model raised ConnectionError: offline", "the model raised KeyError: 'choices'", None]
    assert [a["failure"] for a in out["attempts"]] == ["error", "error", None]
    assert out["attempts"][0]["reply"] is None
    # A crash is nothing the model said, so the next prompt does not pretend it was.
    assert "could not be used" not in model.prompts[1]


def test_a_model_that_hangs_times_out_and_the_policy_returns():
    def hangs(prompt):
        n = 0
        while True:
            n += 1

    out = llm_policy("planner", hangs, retries=1, seconds=0.1)(GOAL, {"plan": ""})
    assert [a["error"] for a in out["attempts"]] == ["the model did not answer within 0.1 s"] * 2
    assert [a["failure"] for a in out["attempts"]] == ["timeout"] * 2
    assert out["patches"] == []


def test_a_model_that_returns_no_text():
    out = llm_policy("coder", ScriptedModel([{"patches": []}]), retries=0)(GOAL, coder_view())
    assert "returned dict, not text" in out["message"]


def test_long_prompts_and_replies_are_capped_in_the_record():
    long_reply = "x" * (RECORD_CAP * 2)
    out = llm_policy("coder", ScriptedModel([long_reply]), retries=0)(GOAL, coder_view())
    kept = out["attempts"][0]["reply"]
    assert len(kept) < RECORD_CAP + 60 and kept.endswith("… [8,000 characters]")


@pytest.mark.parametrize("args, kwargs, error, words", [
    (("tester", print), {}, ValueError, "role is 'tester'"),
    (("coder", "gpt"), {}, TypeError, "model must be a function prompt -> str"),
    (("coder", print, 3), {}, TypeError, "system_prompt must be a str"),
    (("coder", print), {"retries": -1}, ValueError, "retries must be a whole number"),
    (("coder", print), {"retries": True}, ValueError, "retries must be a whole number"),
    (("coder", print), {"seconds": 0}, ValueError, "seconds must be a number > 0"),
])
def test_misuse_of_llm_policy(args, kwargs, error, words):
    with pytest.raises(error, match=words):
        llm_policy(*args, **kwargs)


def test_scripted_model_repeats_its_last_answer_and_checks_its_list():
    model = ScriptedModel(["a", "b"])
    assert [model("p") for _ in range(3)] == ["a", "b", "b"] and model.prompts == ["p"] * 3
    with pytest.raises(ValueError, match="non-empty list"):
        ScriptedModel([])
    with pytest.raises(ValueError, match="non-empty list"):
        ScriptedModel("abc")


@settings(deadline=None)  # timing varies on a busy machine; the logic does not
@given(st.lists(st.sampled_from(["bad", "boom", "good"]), min_size=1, max_size=6), st.integers(0, 4))
def test_attempts_stop_at_the_first_good_reply_or_the_bound(script, retries):
    answers = {"bad": "not json", "boom": RuntimeError("boom"), "good": reply()}
    model = ScriptedModel([answers[s] for s in script])
    out = llm_policy("coder", model, retries=retries)(GOAL, coder_view())
    padded = script + [script[-1]] * (retries + 1)
    first_good = padded.index("good") if "good" in padded else None
    expected = retries + 1 if first_good is None or first_good > retries else first_good + 1
    assert len(out["attempts"]) == len(model.prompts) == expected
    assert bool(out["patches"]) == (first_good is not None and first_good <= retries)


# --- in the team: the supervisor runs an LLM policy like any other ------------------------------

def test_an_llm_coder_in_a_supervised_run():
    from agent_team.supervisor import supervise
    coder = llm_policy("coder", ScriptedModel(["```json\n{oops}\n```", reply()]))
    run = supervise(coder=coder)
    assert (run.status, run.rounds) == ("pass", 1)
    assert [len(turn) for turn in coder.history] == [2]


def test_a_model_that_never_answers_well_costs_rounds_not_a_crash():
    from agent_team.supervisor import supervise
    coder = llm_policy("coder", ScriptedModel([RuntimeError("rate limited"), "nope"]), retries=1)
    run = supervise(coder=coder, max_rounds=2)
    assert run.status == "budget"
    turns = [e for e in run.trace if e["type"] == "turn" and e["role"] == "coder"]
    assert all(t["applied"] and t["patches"] == [] and t["message"].startswith("no change") for t in turns)
