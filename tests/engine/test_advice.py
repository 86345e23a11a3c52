"""The advisory model-backed reviewer: advice beside the gate, never over it, and the eval comparing them."""

import json

import pytest

from agent_team.realteam.advice import (ADVICE_ACTIONS, Advice, advice_prompt, advise, agreement, compare_reviewers,
                                       gate_action)
from agent_team.realteam.gate import review_run
from agent_team.realteam.llm import ScriptedModel

SKIPPED = ("S2 skipped", "success", [{"step": "S1", "status": "success"},
                                     {"step": "S2", "status": "skipped", "risk": "write"}])
CASES = [
    ("all done", "success", [{"step": "S1", "status": "success", "risk": "write"}]),
    SKIPPED,
    ("S2 failed", "failed", [{"step": "S1", "status": "success"}, {"step": "S2", "status": "failed"}]),
    ("cancelled", "cancelled", [{"step": "S1", "status": "cancelled"}]),
]


def reply(action, **more):
    return json.dumps({"action": action, "notes": "n", **more})


def test_the_prompt_is_the_gates_own_summary():
    prompt = advice_prompt(review_run(*SKIPPED[1:]))
    assert "Execution said: success; after the gate: failed" in prompt
    assert "blocked: step S2 was skipped" in prompt and "Gate's proposal: user_decision on S2" in prompt
    assert all(action in prompt for action in ADVICE_ACTIONS)


def test_advice_is_read_and_never_changes_the_report():
    report = review_run(*SKIPPED[1:])
    before = report.to_dict()
    advice = advise(report, ScriptedModel(["```json\n" + reply("accept", suggested_tests=["rerun S2"]) + "\n```"]))
    assert advice == Advice("accept", "n", [], ["rerun S2"])
    assert report.to_dict() == before and report.status == "failed"


@pytest.mark.parametrize("answer, error", [
    ("I think it is fine", "not a JSON object"),
    ("[1, 2]", "a JSON list, not an object"),
    (json.dumps({"notes": "x"}), "no action"),
    (reply("merge"), "action is 'merge'"),
    (ZeroDivisionError("boom"), "the model raised ZeroDivisionError: boom"),
])
def test_unusable_advice_has_an_error_and_no_action(answer, error):
    advice = advise(review_run(*SKIPPED[1:]), ScriptedModel([answer]))
    assert advice.action is None and error in advice.error


def test_the_eval_shows_where_model_and_gate_disagree_and_the_gate_decides():
    def lenient(prompt):  # accepts unless the gate's line names a failed step
        gate_line = next(line for line in prompt.splitlines() if line.startswith("Gate:"))
        return reply("retry_step" if " failed" in gate_line else "accept")

    rows = compare_reviewers(CASES, lenient)
    assert [r["gate"] for r in rows] == ["accept", "user_decision", "retry_step", "resume_plan"]
    assert [r["model"] for r in rows] == ["accept", "accept", "retry_step", "accept"]
    assert [r["agree"] for r in rows] == [True, False, True, False] and agreement(rows) == 0.5
    assert [r["status"] for r in rows] == ["success", "failed", "failed", "cancelled"]
    assert agreement(compare_reviewers(CASES, lambda p: reply(gate_action_from(p)))) == 1.0


def gate_action_from(prompt):
    """A model that repeats the gate: it reads the proposal line (or accepts when there is none)."""
    line = next((text for text in prompt.splitlines() if text.startswith("Gate's proposal:")), None)
    return line.split(": ")[1].split()[0] if line else "accept"


def test_misuse():
    with pytest.raises(TypeError, match="report must be a ReviewReport"):
        advise({"status": "failed"}, lambda p: "")
    with pytest.raises(TypeError, match="model must be a function"):
        advise(review_run(*SKIPPED[1:]), "gpt")
    with pytest.raises(ValueError, match="each case must be"):
        compare_reviewers([("only a name",)], lambda p: "")
    assert gate_action(review_run(*CASES[0][1:])) == "accept"
