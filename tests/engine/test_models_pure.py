"""agent_team.realteam.models without a network: schemas, the reviewer's flat form, the wire formats, the key.

Pure, so it also runs inside Pyodide (the client's transport is replaced by a function here;
tests/models tests the real transports against servers).
"""

import json

import pytest

from agent_team import oracle
from agent_team.realteam.llm import llm_policy, parse_reply
from agent_team.realteam.models import ModelError, client, total_usage
from agent_team.realteam.models.client import HttpModel, Secret
from agent_team.realteam.models.http import Response
from agent_team.realteam.models.schema import reply_schema, unflatten
from agent_team.realteam.models.wire import ANTHROPIC, OPENAI, explain, hint_for
from agent_team.repo import GOAL, initial_repo
from agent_team.realteam.retry import ManualClock
from agent_team.views import make_view

KEY = "sk-test-pure-0123456789abcdefghijklmnop"


def model(answers, wire=OPENAI, key=KEY, url="https://api.example/v1"):
    """A client whose transport answers from ``answers`` (Response objects or exceptions)."""
    made = HttpModel(wire, url, "m", key, structured=True, max_tokens=100,
                     temperature=0, seconds=10, max_bytes=10_000)
    made.sent = []
    return made, answers


@pytest.fixture
def transport(monkeypatch):
    answers = []

    def post(url, headers, body, seconds, cap):
        answers_sent.append((url, headers, json.loads(body), seconds))
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    answers_sent = []
    monkeypatch.setattr(client, "post", post)
    monkeypatch.setattr(client.time, "sleep", lambda s: answers_sent.append(("slept", s)))
    return answers, answers_sent


def chat(content, usage=None):
    return Response(200, json.dumps({"choices": [{"message": {"content": content}}],
                                     "usage": usage or {"prompt_tokens": 7, "completion_tokens": 3}}))


@pytest.mark.parametrize("role", ["planner", "coder", "reviewer"])
def test_each_schema_is_strict_and_fixes_the_role(role):
    schema = reply_schema(role)
    assert schema["additionalProperties"] is False and set(schema["required"]) == set(schema["properties"])
    assert schema["properties"]["role"]["enum"] == [role]


def test_a_flat_verdict_becomes_the_review_patch_and_parses():
    flat = json.dumps({"role": "reviewer", "thought": "t", "verdict": "request_changes", "notes": "n",
                       "message": "m"})
    out = parse_reply("reviewer", unflatten("reviewer", flat))
    assert json.loads(out["patches"][0]["content"]) == {"verdict": "request_changes", "notes": "n"}
    assert unflatten("reviewer", "not json") == "not json" and unflatten("coder", flat) == flat


def test_the_reviewer_gets_its_flat_reply_through_the_slot(transport):
    answers, sent = transport
    answers.append(chat(json.dumps({"role": "reviewer", "thought": "t", "verdict": "approve",
                                    "notes": "ok", "message": "m"})))
    made, _ = model([])
    out = llm_policy("reviewer", made, retries=0)(GOAL, make_view("reviewer", GOAL, initial_repo(), []))
    assert out["patches"][0]["path"] == "REVIEW.json"
    assert out["attempts"][0]["usage"] == {"prompt_tokens": 7, "completion_tokens": 3}
    url, headers, body, seconds = sent[0]
    assert url == "https://api.example/v1/chat/completions" and headers["Authorization"] == f"Bearer {KEY}"
    assert body["response_format"]["json_schema"]["schema"] == reply_schema("reviewer")
    assert seconds <= 10


def test_anthropic_reads_the_forced_tool_call():
    text, usage = ANTHROPIC.read({"content": [{"type": "tool_use", "input": {"a": 1}}],
                                  "usage": {"input_tokens": 5, "output_tokens": 2}})
    assert json.loads(text) == {"a": 1} and usage == {"prompt_tokens": 5, "completion_tokens": 2}
    assert ANTHROPIC.headers("k")["anthropic-dangerous-direct-browser-access"] == "true"


def test_a_429_is_raised_with_its_retry_after_and_the_client_never_waits_on_its_own(transport):
    answers, sent = transport
    answers += [Response(429, "{}", {"retry-after": "2"}), Response(429, "{}", {})]
    made, _ = model([])
    with pytest.raises(ModelError, match="asks to wait 2 s") as err:
        made.for_role("coder")("p")
    assert (err.value.status, err.value.retry_after, err.value.failure) == (429, 2.0, "error")
    with pytest.raises(ModelError, match="gave no Retry-After") as err:
        made("p")
    assert (err.value.status, err.value.retry_after) == (429, None)
    assert len(sent) == 2 and not any(s[0] == "slept" for s in sent)  # one request a call, no wait of its own


def test_the_slot_waits_a_429_s_retry_after_on_its_clock_and_its_trace_says_so(transport):
    answers, sent = transport
    answers += [Response(429, "{}", {"retry-after": "2"}),
                chat(json.dumps({"role": "coder", "thought": "t", "message": "m",
                                 "patches": [{"path": "src/fizzbuzz.py", "content": "x = 1\n"}]}))]
    made, _ = model([])
    clock = ManualClock()
    out = llm_policy("coder", made, retries=1, clock=clock, turn_seconds=60)(GOAL, make_view("coder", GOAL,
                                                                                              initial_repo(), []))
    first, second = out["attempts"]
    assert (first["status"], first["retry_after"], first["decision"]) == (429, 2.0, ["retry", 2.0])
    assert second["failure"] is None and out["patches"] and clock.now() == 2.0
    assert not any(s[0] == "slept" for s in sent)  # the wait was the clock's: a replay costs no time
    answers.append(Response(429, "{}", {"retry-after": "90"}))
    out = llm_policy("coder", made, retries=1, clock=clock, turn_seconds=60)(GOAL, make_view("coder", GOAL,
                                                                                              initial_repo(), []))
    assert [a["stop"] for a in out["attempts"][-1:]] == ["out of time"] and len(out["attempts"]) == 1


@pytest.mark.parametrize("status, words", [(401, "refused the key"), (403, "forbade"),
                                           (404, "check the model name 'm'"),
                                           (500, "server failed (500)"), (400, "structured=False")])
def test_statuses_in_words(status, words):
    assert words in explain(status, "u", "m", '{"error": {"message": "said"}}')


def test_a_cors_refusal_says_what_to_set_on_that_server(transport):
    answers, _ = transport
    answers.append(ModelError("no answer from http://localhost:11434: refused (CORS)", status=0))
    made, _ = model([], url="http://localhost:11434/v1")
    with pytest.raises(ModelError, match=r"\(CORS\)\. Ollama answers pages on localhost only.*OLLAMA_ORIGINS"):
        made("p")
    assert "lms server start --cors" in hint_for("http://localhost:1234/v1")


def test_the_key_is_hidden_everywhere_the_client_speaks(transport):
    answers, _ = transport
    answers += [chat(f"echo {KEY}"), Response(401, json.dumps({"error": {"message": f"bad key {KEY}"}}))]
    made, _ = model([])
    assert made("p") == "echo <hidden>"
    with pytest.raises(ModelError) as err:
        made("p")
    assert KEY not in str(err.value) and KEY not in repr(made) and "<hidden>" in repr(made)
    assert repr(Secret(KEY)) == "<hidden>" and f"{Secret(KEY)}" == "<hidden>"


def test_total_usage_sums_the_attempts_of_a_trace():
    trace = [{"type": "turn", "attempts": [{"usage": {"prompt_tokens": 3, "completion_tokens": 1}},
                                           {"usage": None}]},
             {"type": "tests"},
             {"type": "turn", "attempts": [{"usage": {"prompt_tokens": 2, "completion_tokens": None}}]}]
    assert total_usage(trace) == {"prompt_tokens": 5, "completion_tokens": 1, "calls": 2}


def test_the_oracle_refuses_a_runner_that_is_not_a_function_and_survives_one_that_fails():
    with pytest.raises(TypeError, match="source -> report"):
        oracle.run_elsewhere("subprocess")
    previous = oracle.run_elsewhere(lambda source: 1 / 0)
    try:
        report = oracle.run_tests(initial_repo())
    finally:
        oracle.run_elsewhere(previous)
    assert not report["ok"] and "the isolated runner failed: division by zero" in report["errors"][0]
