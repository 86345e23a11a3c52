"""The LLM slot inside a supervised run: attempts reach the trace, handoffs come from it."""

import json

import pytest

from agent_team.realteam.handoffs import handoffs_from_trace
from agent_team.realteam.llm import ScriptedModel, llm_policy
from agent_team.policies import FULL_SOURCE
from agent_team.supervisor import supervise

GOOD = json.dumps({"role": "coder", "thought": "full solution",
                   "patches": [{"path": "src/fizzbuzz.py", "content": FULL_SOURCE}], "message": "done"})


def test_model_attempts_are_kept_in_the_trace():
    model = ScriptedModel(["not json at all", GOOD])
    result = supervise(coder=llm_policy("coder", model, retries=2), max_rounds=2, seconds=10)
    assert result.status == "pass" and result.rounds == 1
    coder_turn = next(e for e in result.trace if e.get("role") == "coder")
    attempts = coder_turn["attempts"]
    assert len(attempts) == 2
    assert attempts[0]["error"] and attempts[1]["error"] in (None, "")
    assert "not json" in attempts[0]["reply"]


def test_a_model_that_never_answers_well_ends_in_budget_not_a_crash():
    model = ScriptedModel(["```json\n{broken", RuntimeError("rate limited")])
    result = supervise(coder=llm_policy("coder", model, retries=1), max_rounds=2, seconds=10)
    assert result.status == "budget"
    turns = [e for e in result.trace if e.get("role") == "coder"]
    assert all(len(t["attempts"]) == 2 and not t["changes"] for t in turns)


def test_handoffs_follow_the_role_transitions_of_a_run():
    result = supervise(max_rounds=4)
    handoffs = handoffs_from_trace(result.trace)
    assert [h.role for h in handoffs] == ["planner", "coder", "reviewer", "coder", "reviewer"]
    assert handoffs[-1].next_action.startswith("stop (pass)")


def test_a_run_result_says_where_its_handoffs_are():
    """The core's run result does not derive handoffs (the real team's wing does): asking it says how."""
    result = supervise(max_rounds=1)
    with pytest.raises(AttributeError, match=r"handoffs_from_trace\(result\.trace\)"):
        _ = result.handoffs
    with pytest.raises(KeyError, match="it has status, rounds, repo, trace, stop_reason, tests"):
        result["handoffs"]
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        _ = result.nope
