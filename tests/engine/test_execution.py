"""Planned execution: approvals, the executor's handoffs, the plan saved with them, and retries by command."""

import json

import pytest

from agent_team.realteam.contracts import Handoff, Plan, PlanStep, RetryProposal
from agent_team.realteam.execution import CANCEL, PlanRun, execute_plan, plan_handoff, risk_summary
from agent_team.realteam.gate import review_gate

GOAL = "make fizzbuzz pass"
PLAN = Plan("fizzbuzz", [
    PlanStep("S1", "read the spec"),
    PlanStep("S2", "write src/fizzbuzz.py", "write", ["4 of 4"]),
    PlanStep("S3", "run the tests", "execute"),
    PlanStep("S4", "write REVIEW.json", "write"),
])


def did(contract):
    return f"did {contract.step_id}"


def test_the_planner_handoff_carries_a_risk_summary():
    h = plan_handoff(PLAN)
    assert (h.role, h.status) == ("planner", "success")
    assert h.risk_summary == "S2 writes files; S3 runs code; S4 writes files"
    assert h.next_action == "coder: execute step S1 (read the spec)"
    assert risk_summary(PLAN.steps[:1]) == "no step writes files or runs code"
    assert "nothing to execute" in plan_handoff(Plan("empty")).next_action


def test_every_step_approved_succeeds_with_a_handoff_at_start_each_step_and_end():
    run = execute_plan(PLAN, GOAL, did)
    assert run.execution_status == "success" and [o.status for o in run.outcomes] == ["success"] * 4
    assert [o.detail for o in run.outcomes] == ["did S1", "did S2", "did S3", "did S4"]
    assert len(run.handoffs) == 6 and all(h.role == "coder" for h in run.handoffs)
    assert run.handoffs[0].summary.startswith("execution starts: 4 of 4 steps (S1, S2, S3, S4)")
    assert run.handoffs[-1].summary == "execution finished: 4 completed"
    assert run.handoffs[2].risk_summary == "S2 writes files"
    assert run.reviewed().status == "success"


def test_a_denied_approval_skips_the_step_and_only_the_gate_turns_the_run_into_a_failure():
    asked = []

    def approve(contract):
        asked.append(contract.step_id)
        return contract.step_id != "S2"

    run = execute_plan(PLAN, GOAL, did, approve)
    assert asked == ["S2", "S3", "S4"]  # a read step runs without asking
    assert [o.status for o in run.outcomes] == ["success", "skipped", "success", "success"]
    assert run.handoffs[2].status == "skipped" and "approval was denied" in run.handoffs[2].summary
    assert run.execution_status == "success" and run.status == "success"  # execution's blind spot
    reviewed = run.reviewed()
    assert reviewed.status == "failed" and reviewed.handoffs[-1].role == "reviewer"
    assert reviewed.review.decision.proposal.action == "user_decision"
    assert run.review is None  # reviewed() makes a copy


def test_a_raising_step_fails_and_cancel_stops_every_later_step():
    def do(contract):
        if contract.step_id == "S3":
            raise RuntimeError("the sandbox is down")
        return "ok"

    failed = execute_plan(PLAN, GOAL, do)
    assert failed.execution_status == "failed"
    assert failed.outcomes[2].detail == "RuntimeError: the sandbox is down"
    cancelled = execute_plan(PLAN, GOAL, do, lambda c: CANCEL if c.step_id == "S3" else True)
    assert [o.status for o in cancelled.outcomes] == ["success", "success", "cancelled", "cancelled"]
    assert cancelled.execution_status == "cancelled"
    assert "1 cancelled" not in cancelled.handoffs[-1].summary and "2 cancelled" in cancelled.handoffs[-1].summary


def test_the_plan_is_saved_with_its_handoffs_and_review_and_comes_back_exactly():
    run = execute_plan(PLAN, GOAL, did, lambda c: c.step_id != "S4").reviewed()
    data = json.loads(json.dumps(run.to_dict()))
    assert set(data) == {"goal", "plan", "execution_status", "outcomes", "handoffs", "review"}
    assert PlanRun.from_dict(data) == run
    assert [Handoff.from_dict(h) for h in data["handoffs"]] == run.handoffs
    data["handoffs"][0]["status"] = "done"
    with pytest.raises(ValueError, match=r"PlanRun\.handoffs\[0\]\.status is 'done'"):
        PlanRun.from_dict(data)


@pytest.mark.parametrize("approve, statuses, targets", [
    (lambda c: c.step_id != "S2", ["success", "skipped", "success", "success"], ["S2"]),
    (lambda c: CANCEL if c.step_id == "S3" else True, ["success", "success", "cancelled", "cancelled"], ["S3", "S4"]),
])
def test_the_proposals_command_really_carries_the_proposal_out(approve, statuses, targets):
    run = execute_plan(PLAN, GOAL, did, approve)
    assert [o.status for o in run.outcomes] == statuses
    proposal = review_gate(run.outcomes).proposal
    assert proposal.requires_approval is True
    names = {"execute_plan": execute_plan, "plan": PLAN, "goal": GOAL, "do_step": did, "approve": None}
    again = eval(proposal.command, names)  # what the person would run, once they approve
    assert [o.step for o in again.outcomes] == targets
    assert again.reviewed().status == "success"


def test_misuse_says_what_to_pass():
    with pytest.raises(TypeError, match="plan must be a Plan"):
        execute_plan({"steps": []}, GOAL, did)
    with pytest.raises(TypeError, match="do_step must be a function"):
        execute_plan(PLAN, GOAL, "do it")
    with pytest.raises(KeyError, match="the plan has no step 'S9'"):
        execute_plan(PLAN, GOAL, did, steps=["S9"])
    with pytest.raises(ValueError, match="approve returned 'yes' for step S2; return True, False or 'cancel'"):
        execute_plan(PLAN, GOAL, did, lambda c: "yes")


def test_a_proposal_with_a_command_always_requires_approval():
    with pytest.raises(ValueError, match="requires_approval must be true when there is a command"):
        RetryProposal("retry_step", "S2", "retry it", command="execute_plan(...)")
    assert review_gate([]).proposal.command is None  # nothing to run: look first
