"""A real model in every role: SmolLM2-135M (llama.cpp via node-llama-cpp) on 127.0.0.1, offline.

A 135M model copies the prompt's example reply, so the team never passes; what is tested is
everything around the model: the run ends within its budget, every attempt is recorded with
its token counts, replies held to the schema parse, the coder's code runs in the isolated
runner, and a call cut off by its time limit leaves the server ready for the next one.
``make models`` fetches the model and the server; without them these tests are skipped, except
under ``make test`` (AGENT_TEAM_REAL_MODEL=1), where a missing model is a failure.
"""

import os
import time

import pytest

import llama
from llama import Timed
from agent_team import oracle
from agent_team.realteam.llm import llm_policy
from agent_team.realteam.models import openai_chat, total_usage
from agent_team.runners.isolated import run_isolated
from agent_team.repo import GOAL, initial_repo
from agent_team.supervisor import supervise
from agent_team.views import make_view

SECONDS = float(os.environ.get("AGENT_TEAM_MODEL_SECONDS", "180"))  # per call; generous, read at call time
REQUIRED = os.environ.get("AGENT_TEAM_REAL_MODEL") == "1"
pytestmark = pytest.mark.slow  # a model server to boot and real generation to wait for


@pytest.fixture(scope="module")
def server():
    problem = llama.missing()
    if problem:
        if REQUIRED:
            pytest.fail(problem)
        pytest.skip(problem)
    process, url = llama.start()
    yield url
    llama.stop(process)


def test_the_default_team_on_a_real_model_ends_within_its_budget(server):
    model = Timed(openai_chat(server + "/v1", "smollm2", max_tokens=200, seconds=SECONDS))
    assert oracle.current_runner() is run_isolated
    team = {role: llm_policy(role, model, retries=0, seconds=SECONDS) for role in ("planner", "coder", "reviewer")}
    started = time.perf_counter()
    result = supervise(max_rounds=2, seconds=SECONDS + 10, **team)
    wall = time.perf_counter() - started
    turns = [e for e in result.trace if e["type"] == "turn"]
    assert result.status in ("pass", "budget") and result.rounds <= 2
    assert [t["role"] for t in turns] == ["planner", "coder", "reviewer", "coder", "reviewer"]
    assert wall < len(turns) * (SECONDS + 10)
    for turn in turns:
        [attempt] = turn["attempts"]
        assert attempt["prompt"].startswith("You are the ") and attempt["error"] is None, attempt["error"]
        assert attempt["usage"]["prompt_tokens"] > 0 and attempt["usage"]["completion_tokens"] > 0
    assert total_usage(result)["calls"] == 5
    tests = [e for e in result.trace if e["type"] == "tests"]
    assert len(tests) == result.rounds and all(t["tests"]["passed"] + t["tests"]["failed"] == 4 for t in tests)
    model_time = sum(model.seconds)
    print(f"\nreal model, default team, {len(turns)} turns: {wall:.1f} s wall, {model_time:.1f} s in the model, "
          f"{(wall - model_time) / len(turns) * 1000:.0f} ms per turn outside it")


def test_a_call_cut_off_by_its_limit_leaves_the_server_ready(server):
    view = make_view("coder", GOAL, initial_repo(), [])
    hasty = llm_policy("coder", openai_chat(server + "/v1", "smollm2", max_tokens=2000), retries=0, seconds=0.5)
    started = time.perf_counter()
    assert hasty(GOAL, view)["attempts"][0]["failure"] == "timeout"
    assert time.perf_counter() - started < 5
    ready = llm_policy("coder", openai_chat(server + "/v1", "smollm2", max_tokens=60), retries=0, seconds=SECONDS)
    assert ready(GOAL, view)["attempts"][0]["failure"] in (None, "bad reply")
