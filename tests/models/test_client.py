"""The HTTP client (CPython side) against the fault server: replies, schemas, failures in words, the key."""

import copy
import json
import pickle
import time

import pytest

from agent_team import oracle
from agent_team.limits import call_limited
from agent_team.realteam.llm import llm_policy
from agent_team.realteam.models import ModelError, anthropic_messages, openai_chat, total_usage
from agent_team.realteam.models.client import Secret
from agent_team.runners.isolated import run_isolated
from agent_team.supervisor import supervise
from agent_team.views import make_view
from agent_team.repo import GOAL, initial_repo

KEY = "sk-test-0123456789abcdefghijklmnopqrstuvwxyz"


def view(role):
    return make_view(role, GOAL, initial_repo(), [])


def openai(faults, fault="ok", **kw):
    return openai_chat(f"{faults.url}/{fault}/v1", "smol", key=KEY, **kw)


def test_a_coder_turn_asks_for_its_schema_and_records_usage(faults):
    policy = llm_policy("coder", openai(faults), retries=0, seconds=10)
    out = policy(GOAL, view("coder"))
    assert out["patches"][0]["path"] == "src/fizzbuzz.py" and out["message"] == "done"
    sent = faults.requests[-1]
    assert sent["headers"]["authorization"] == f"Bearer {KEY}"
    schema = sent["body"]["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["patches"]["items"]["properties"]["path"]["enum"] == ["src/fizzbuzz.py"]
    assert schema["properties"]["role"]["enum"] == ["coder"]
    usage = out["attempts"][0]["usage"]
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0


def test_the_reviewer_answers_flat_and_the_adapter_writes_review_json(faults):
    out = llm_policy("reviewer", openai(faults), retries=0, seconds=10)(GOAL, view("reviewer"))
    schema = faults.requests[-1]["body"]["response_format"]["json_schema"]["schema"]
    assert set(schema["properties"]) == {"role", "thought", "verdict", "notes", "message"}
    [patch] = out["patches"]
    assert patch["path"] == "REVIEW.json"
    assert json.loads(patch["content"]) == {"verdict": "approve", "notes": "tests pass"}


def test_anthropic_sends_its_headers_and_forces_the_reply_tool(faults):
    model = anthropic_messages("claude-x", key=KEY, base_url=f"{faults.url}/ok/v1")
    out = llm_policy("planner", model, retries=0, seconds=10)(GOAL, view("planner"))
    sent = faults.requests[-1]
    assert sent["path"].endswith("/v1/messages")
    assert sent["headers"]["x-api-key"] == KEY
    assert sent["headers"]["anthropic-dangerous-direct-browser-access"] == "true"
    assert sent["body"]["tool_choice"] == {"type": "tool", "name": "reply"}
    assert out["patches"][0]["path"] == "PLAN.md" and out["attempts"][0]["usage"]["prompt_tokens"] > 0


def test_structured_false_sends_no_schema(faults):
    llm_policy("coder", openai(faults, structured=False), retries=0, seconds=10)(GOAL, view("coder"))
    assert "response_format" not in faults.requests[-1]["body"]


def test_the_default_team_on_a_model_passes_with_the_oracle_isolated(faults):
    model = openai(faults)
    assert oracle.current_runner() is run_isolated  # making a model moved the oracle out of this process
    team = {role: llm_policy(role, model, retries=0, seconds=10) for role in ("planner", "coder", "reviewer")}
    result = supervise(seconds=30, **team)
    assert result.status == "pass" and result.rounds == 1
    turns = [e for e in result.trace if e["type"] == "turn"]
    assert [t["role"] for t in turns] == ["planner", "coder", "reviewer"]
    assert all(len(t["attempts"]) == 1 and t["attempts"][0]["usage"] for t in turns)
    total = total_usage(result)
    assert total["calls"] == 3
    assert total["prompt_tokens"] == sum(t["attempts"][0]["usage"]["prompt_tokens"] for t in turns)


FAULTS = [
    ("401", "error", "refused the key (401)"),
    ("403", "error", "forbade the call (403)"),
    ("404", "error", "check the model name 'smol'"),
    ("500", "error", "the server failed (500)"),
    ("503", "error", "the server failed (503)"),
    ("notjson", "error", "not JSON: '<html>"),
    ("truncated", "error", "was cut short"),
    ("huge", "error", "over 1,000,000 bytes"),
    ("429-100", "error", "asks to wait 100 s"),
]


@pytest.mark.parametrize("fault, failure, words", FAULTS, ids=[f[0] for f in FAULTS])
def test_every_failure_is_a_failed_attempt_in_words(faults, fault, failure, words):
    out = llm_policy("coder", openai(faults, fault), retries=0, seconds=10)(GOAL, view("coder"))
    [attempt] = out["attempts"]
    assert out["patches"] == [] and out["message"].startswith("no change: no usable reply")
    assert attempt["failure"] == failure and words in attempt["error"], attempt["error"]
    assert attempt["usage"] is None  # no tokens counted for a call that failed


@pytest.mark.parametrize("fault", ["slow-30", "drip"])
def test_a_hung_server_is_a_timeout_within_the_callers_limit(faults, fault):
    started = time.monotonic()
    out = llm_policy("coder", openai(faults, fault), retries=0, seconds=1.0)(GOAL, view("coder"))
    assert time.monotonic() - started < 8  # generous: the limit is 1 s
    assert out["attempts"][0]["failure"] == "timeout"


def test_the_request_timeout_is_what_is_left_of_the_callers_seconds(faults):
    model = openai(faults, "slow-30", seconds=60)  # the model's own limit is far longer
    started = time.monotonic()
    out = call_limited(model.for_role("coder"), "hi", seconds=1.0)
    assert isinstance(out.error, ModelError), out  # the client's own timeout, in its words
    assert out.error.failure == "timeout" and time.monotonic() - started < 8


def test_retry_after_within_the_budget_is_honoured_by_the_slot_on_real_time(faults):
    started = time.monotonic()
    out = llm_policy("coder", openai(faults, "429-1"), retries=1, seconds=10)(GOAL, view("coder"))
    first, second = out["attempts"]
    assert (first["status"], first["retry_after"], first["decision"]) == (429, 1.0, ["retry", 1.0])
    assert second["failure"] is None and time.monotonic() - started >= 1
    assert sum(r["path"].startswith("/429-1/") for r in faults.requests) == 2


def test_nothing_listening_says_so():
    model = openai_chat("http://127.0.0.1:9/v1", "smol")
    out = llm_policy("coder", model, retries=0, seconds=5)(GOAL, view("coder"))
    assert "nothing answered at http://127.0.0.1:9" in out["attempts"][0]["error"]


def test_the_key_is_in_no_repr_trace_or_error(faults):
    model = openai(faults, "echo")
    assert KEY not in repr(model) and "<hidden>" in repr(model)
    team = {role: llm_policy(role, model, retries=0, seconds=10) for role in ("planner", "coder", "reviewer")}
    result = supervise(seconds=30, **team)
    text = json.dumps(result.trace) + repr(result) + repr(team)
    assert KEY not in text and KEY[-12:] not in text
    assert "your key is <hidden>" in text  # the server did echo it: the client hid it
    with pytest.raises(ValueError, match="looks like an API key") as err:  # a key in the address: refused
        openai_chat(f"{faults.url}/401/v1?k={KEY}", "smol", key=KEY)
    assert KEY not in str(err.value) and KEY[-12:] not in str(err.value)
    with pytest.raises(TypeError, match="never saved"):
        pickle.dumps(model)
    assert KEY not in repr(copy.deepcopy(model.__dict__))
    assert repr(Secret(KEY)) == str(Secret(KEY)) == "<hidden>"


@pytest.mark.parametrize("args, words", [
    (("api.openai.com/v1", "m"), "base_url must be the API's address"),
    (("http://x/v1", ""), "model must be the model's name"),
    (("http://x/v1", "m", 5), "positional"),
])
def test_misuse_says_what_to_write(args, words):
    with pytest.raises((TypeError, ValueError), match=words):
        openai_chat(*args)
