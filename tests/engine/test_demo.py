"""`python -m agent_team`: the terminal demo narrates a run a newcomer can follow."""

import pytest

from agent_team.__main__ import main, narrate
from agent_team.supervisor import supervise


def test_the_healthy_team_is_narrated_round_by_round(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    for line in ("--- round 1 ---", "--- round 2 ---", "oracle: 2 passed, 2 failed",
                 "verdict: request_changes", "STOP_OK status=pass"):
        assert line in out
    assert out.index("--- round 1 ---") < out.index("--- round 2 ---") < out.index("STOP_OK")


def test_a_budget_stop_exits_nonzero_and_says_why(capsys):
    assert main(["--max-rounds", "1"]) == 1
    assert "STOP_FAIL status=budget: the budget of 1 coder turn ran out" in capsys.readouterr().out


def test_a_fault_shows_the_refusal(capsys):
    assert main(["--fault", "coder edits tests", "--max-rounds", "2"]) == 1
    assert "refused: patch 2 of 2: the coder may not write 'tests/test_fizzbuzz.py'" in capsys.readouterr().out


def test_unknown_fault_is_a_usage_error(capsys):
    with pytest.raises(SystemExit):
        main(["--fault", "nope"])
    assert "invalid choice" in capsys.readouterr().err


def test_every_event_type_has_a_sentence():
    result = supervise(max_rounds=2, tamper=lambda repo, rnd: repo)
    kinds = {e["type"] for e in result.trace}
    assert kinds == {"start", "turn", "tests", "tamper", "stop"}
    assert all(narrate(e).strip() for e in result.trace)
