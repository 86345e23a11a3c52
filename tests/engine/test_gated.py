"""A whole run judged by the reviewer gate: four step outcomes and the status pass, budget or blocked."""

import pytest

from agent_team.faults import FAULTS, run_fault
from agent_team.realteam.gated import GATED_STATUSES, STEPS, gated, run_outcomes
from agent_team.supervisor import supervise


def statuses(run):
    return [o["status"] for o in run_outcomes(run)]


def test_a_healthy_run_is_four_successful_steps_and_passes():
    run = supervise(max_rounds=4)
    outcomes = run_outcomes(run)
    assert [(o["step"], o["risk"]) for o in outcomes] == list(STEPS)
    assert statuses(run) == ["success"] * 4
    assert gated(run).status == "pass" and gated(run).stop_reason == run.stop_reason


def test_budget_runs_stay_budget_and_say_which_steps_never_happened():
    assert statuses(supervise(max_rounds=0)) == ["success", "skipped", "skipped", "skipped"]
    assert statuses(supervise(max_rounds=1)) == ["success", "success", "failed", "success"]
    assert gated(supervise(max_rounds=0)).status == "budget"


@pytest.mark.parametrize("name, want, status", [
    ("planner writes code", ["failed", "success", "success", "success"], "blocked"),
    ("reviewer returns garbage", ["success", "success", "success", "failed"], "blocked"),
    ("coder crashes", ["success", "failed", "failed", "success"], "budget"),
    ("coder edits tests", ["success", "failed", "failed", "success"], "budget"),
    ("plan wiped", ["success"] * 4, "pass"),
])
def test_the_gate_blocks_a_green_run_whose_work_is_incomplete(name, want, status):
    run = run_fault(name)
    assert statuses(run) == want
    result = gated(run)
    assert result.status == status and result.status in GATED_STATUSES
    if status == "blocked":
        assert run.status == "pass" and result.stop_reason.startswith("the tests passed, but the gate blocked")
        assert result.report.decision.proposal.action == "retry_step"


def test_every_fault_gets_a_status_and_the_gate_never_grants_success():
    for name in FAULTS:
        run = run_fault(name)
        result = gated(run)
        assert result.status in GATED_STATUSES
        assert result.status != "pass" or run.status == "pass"


def test_misuse():
    with pytest.raises(TypeError, match="run must be the result of supervise"):
        run_outcomes({"trace": []})
