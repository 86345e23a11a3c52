"""The retry decision fed by the real client over real HTTP (the fault server): the status and a
429's Retry-After reach the decision as the exercise 7.1 text says they do, and each failure ends
its turn with the stop reason the text calls for."""

import pytest

from agent_team.grading.ex_retry import reference_retry_or_stop
from agent_team.realteam.llm import llm_policy
from agent_team.realteam.models import openai_chat
from agent_team.repo import GOAL, initial_repo
from agent_team.realteam.retry import ManualClock
from agent_team.views import make_view

KEY = "sk-test-0123456789abcdefghijklmnopqrstuvwxyz"

# fault -> (status the decision sees, retry_after, attempts made, stop reason); retries=2, a 60 s turn
ENDINGS = {
    "401": (401, None, 1, "bad key"),
    "403": (403, None, 1, "bad key"),
    "404": (404, None, 1, "unknown model"),
    "500": (500, None, 3, "out of attempts"),
    "503": (503, None, 3, "out of attempts"),
    "notjson": (None, None, 3, "out of attempts"),
    "truncated": (None, None, 3, "out of attempts"),
    "huge": (None, None, 3, "out of attempts"),
    "429-90": (429, 90.0, 1, "out of time"),  # a path of its own: the fault server says 429 once per path
}


@pytest.mark.parametrize("fault", list(ENDINGS))
def test_each_http_failure_reaches_the_decision_and_ends_the_turn_in_its_words(faults, fault):
    status, retry_after, made, reason = ENDINGS[fault]
    seen = []

    def decide(attempts, budget):
        seen.append(attempts[-1])
        return reference_retry_or_stop(attempts, budget)

    model = openai_chat(f"{faults.url}/{fault}/v1", "smol", key=KEY, seconds=10)
    policy = llm_policy("coder", model, retries=2, seconds=10, retry=decide, turn_seconds=60, clock=ManualClock())
    out = policy(GOAL, make_view("coder", GOAL, initial_repo(), []))
    assert (seen[0]["status"], seen[0]["retry_after"], seen[0]["failure"]) == (status, retry_after, "error")
    assert len(out["attempts"]) == made and out["attempts"][-1]["stop"] == reason
    assert f"stopped: {reason}: " in out["message"] and KEY not in repr(out)
