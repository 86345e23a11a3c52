"""The trace's one definition (agent_team/trace.py): every event a run logs fits its kind, is
complete when logged, and is found through the readers; its renderings draw one description."""

import json
import pathlib
import re

import pytest

from agent_team import faults
from agent_team.render.event import event_html, event_summary, event_text, sections
from agent_team.supervisor import supervise
from agent_team.trace import FIELDS, KINDS, event, kind_of, last, of_kind, oracle_reports, turns

SRC = pathlib.Path(__file__).resolve().parents[2] / "src" / "agent_team"


def all_runs():
    yield supervise(max_rounds=4)
    yield supervise(max_rounds=0)
    yield supervise(max_rounds=2, tamper=lambda repo, rnd: 1 / 0)
    for name in faults.FAULTS:
        yield faults.run_fault(name)


def test_every_logged_event_is_its_kinds_fields_and_dumps_to_json():
    for run in all_runs():
        for e in run.trace:
            required, optional = KINDS[e["type"]]
            assert set(required) <= set(e) <= {"type", *required, *optional}, e["type"]
            assert list(e) == [f for f in FIELDS if f in e]  # the table's order
            assert e.get("override", True) is True and e.get("escalated", True) is True
            json.dumps(e)


def test_the_table_names_every_field_a_kind_uses():
    assert {f for required, optional in KINDS.values() for f in (*required, *optional)} == set(FIELDS) - {"type"}


def test_a_turn_is_logged_with_its_decision_and_never_changed_after():
    run = supervise(max_rounds=4, reviewer=faults.stubborn_reviewer)
    snapshot = json.dumps(run.trace)
    assert all(e["decision"] for e in turns(run.trace))
    overridden = [e for e in turns(run.trace, "reviewer") if e.get("override")]
    assert overridden and overridden[-1]["decision"] == "tests green: stop; request_changes overridden"
    assert json.dumps(run.trace) == snapshot


def test_event_refuses_unknown_and_missing_fields_in_words():
    with pytest.raises(ValueError, match="needs tests, decision"):
        event("tests", round=1, state="TEST")
    with pytest.raises(ValueError, match="has no field colour .*trace.FIELDS"):
        event("stop", round=1, state="STOP_OK", status="pass", stop_reason="", decision="", colour="red")
    with pytest.raises(ValueError, match="the kinds are start, turn"):
        event("lunch")


def test_readers_find_events_and_skip_what_is_not_an_event():
    run = supervise(max_rounds=4)
    trace = [None, "junk", 3, *run.trace]
    assert [e["role"] for e in turns(trace)][:2] == ["planner", "coder"]
    assert all(e["role"] == "coder" for e in turns(trace, "coder")) and turns(trace, "coder")
    assert last(trace, "stop")["status"] == "pass" and last(trace, "tamper") is None
    assert last(trace, "turn", "reviewer") is turns(trace, "reviewer")[-1]
    assert [r["ok"] for r in oracle_reports(trace)] == [False, True]
    assert len(of_kind(trace, "tests")) == 2 and kind_of("junk") is None
    with pytest.raises(ValueError, match="only turns have a role"):
        last(trace, "stop", "coder")
    with pytest.raises(ValueError, match="no event kind 'turns'"):
        of_kind(trace, "turns")


def test_no_engine_module_filters_the_trace_by_hand():
    if not (SRC / "trace.py").exists():  # the Pyodide run copies the tests without the sources beside them
        pytest.skip("the engine's sources are not beside the tests here")
    # a comparison of an event's type with a kind of the trace (other "type" fields, such as a
    # model API's content blocks, are not the trace's)
    kinds = "|".join(KINDS)
    by_hand = re.compile(rf"""(\.get\("type"\)|\["type"\])\s*(==|!=)\s*["']({kinds})["']|["']({kinds})["']\s*(==|!=)""")
    found = [f"{p.relative_to(SRC)}:{n}" for p in SRC.rglob("*.py") if p.name != "trace.py"
             for n, line in enumerate(p.read_text().splitlines(), 1) if by_hand.search(line)]
    assert not found, f"use the readers of agent_team/trace.py: {found}"


def test_html_text_and_summary_draw_the_same_parts():
    for run in all_runs():
        for e in run.trace:
            summary, text, html = event_summary(e), event_text(e), event_html(e)
            assert text.splitlines()[0] == summary
            for part in sections(e):
                if part.short:
                    assert part.short in summary
                if part.shape in ("alert", "line", "badge", "decision") and isinstance(part.value, str):
                    words = part.value[:40]
                    assert words in text, (part, text)
                    assert words.replace("'", "&#x27;").replace('"', "&quot;").replace("<", "&lt;")[:30] in html
                if part.label and part.shape not in ("heading", "extra"):
                    assert part.label.lower() in text.lower() and part.label in html
