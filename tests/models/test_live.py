"""Part 7's live cells: a run with a real model says why no call succeeded, shows the recorded tables,
and a long eval says which case it is on (issue 35 item 4)."""

import socket

from agent_team.realteam.advice import compare_reviewers
from agent_team.realteam.llm import llm_policy
from agent_team.realteam.models import openai_chat
from agent_team.realteam.models.live import (EVAL_HEADERS, TEAM_HEADERS, compare_live, eval_table, live_summary,
                                    team_table)
from agent_team.realteam.recordings import GATE_CASES, load_recording
from agent_team.supervisor import supervise


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_stopped_server_is_named_in_the_runs_summary_not_only_calls_0():
    down = openai_chat(f"http://127.0.0.1:{free_port()}/v1", "smol", seconds=5)
    run = supervise(coder=llm_policy("coder", down, seconds=5), max_rounds=2, seconds=60)
    text = live_summary(run, "your model as the coder")
    assert text.startswith("your model as the coder: budget after 2 rounds")
    assert "'calls': 0" in text and "never answered" in text and "start the server" in text


def test_a_working_model_gets_the_summary_without_a_cause(faults):
    model = openai_chat(f"{faults.url}/ok/v1", "smol", seconds=10)
    run = supervise(coder=llm_policy("coder", model, seconds=10), max_rounds=3, seconds=60)
    text = live_summary(run, "yours")
    assert text.splitlines()[0].startswith("yours: pass after") and "never answered" not in text


def test_the_live_team_table_is_the_recorded_one():
    run = load_recording("team").replay()
    rows = team_table(run)
    assert len(TEAM_HEADERS) == 5 and all(len(r) == 5 for r in rows)
    assert any(r[1] == "reviewer" and r[3] == "approve" for r in rows)
    assert all(r[4] == "0 of 4 pass" or not r[0] or "pass" in r[4] for r in rows)


def test_the_live_eval_says_each_case_before_asking_and_keeps_why_no_advice(faults):
    said = []
    model = openai_chat(f"{faults.url}/500/v1", "smol", seconds=5)
    rows = compare_live(GATE_CASES[:3], model, seconds=5, say=said.append)
    assert [r["case"] for r in rows] == [c[0] for c in GATE_CASES[:3]]
    assert said[0].startswith(f"case 1 of 3: {GATE_CASES[0][0]}") and said[2].startswith("case 3 of 3")
    assert said[-1].startswith("done: 3 cases")
    table = eval_table(rows)
    assert len(EVAL_HEADERS) == 6 and all(len(r) == 6 and r[5] for r in table)  # why no advice, each row


def test_the_live_eval_gives_the_same_rows_as_compare_reviewers():
    advice = load_recording("advice")
    assert compare_live(GATE_CASES, advice.model(), say=lambda _: None) == \
        compare_reviewers(GATE_CASES, load_recording("advice").model())
