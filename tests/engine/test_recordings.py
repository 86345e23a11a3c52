"""The recorded runs of real models: labelled, replayed exactly through ScriptedModel's slot, shipped."""

import json
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

from agent_team.realteam.llm import ScriptedModel
from agent_team.realteam.models import total_usage
from agent_team.realteam.recordings import PLANTED, FOLDER, RecordedModel, load_recording, recording_names, run_settings
from agent_team.repo import SRC_PATH, initial_repo
from agent_team.roles import TABLE
from agent_team.supervisor import supervise
from agent_team.trace import turns
from agent_team.views import FACTS, VIEW_FIELDS

ROOT = Path(__file__).resolve().parents[2]
TEAM_RUNS = [n for n in recording_names() if load_recording(n).setup.get("roles")]


def test_the_course_ships_its_recordings_each_fully_labelled():
    assert {"coder", "team", "wide", "free", "injection", "advice", "retry"} <= set(recording_names())
    for name in recording_names():
        rec = load_recording(name)
        label = rec.label
        assert label["source"] == "recorded" and label["date"][:2] == "20"
        for key in ("model", "size", "quantisation", "server", "machine", "cpu"):
            assert isinstance(label[key], str) and label[key], (name, key)
        assert {"llama_cpp", "cpu"} <= set(label["kernels"]), name  # what greedy decoding repeats on
        assert {"temperature", "max_tokens", "seed"} <= set(label["settings"])
        text = rec.label_text()
        assert text.startswith("recorded: ") and label["model"] in text and label["date"] in text
        assert text.endswith(f", on {label['cpu']}")  # the machine that made it
        assert rec.calls and all({"role", "prompt", "reply", "usage", "seconds"} <= set(c) for c in rec.calls)


@pytest.mark.parametrize("name", TEAM_RUNS)
def test_a_replay_ends_as_the_recorded_run_did_with_every_prompt_as_recorded(name):
    rec = load_recording(name)
    run = rec.replay()
    assert (run.status, run.rounds, run.stop_reason) == (rec.ending["status"], rec.ending["rounds"],
                                                          rec.ending["stop_reason"])
    assert rec.mismatches == [] and "unlike the recorded" not in rec.label_text()
    attempts = [a for e in turns(run.trace) for a in e.get("attempts") or ()]
    assert [a["reply"] for a in attempts] == [c["reply"] for c in rec.calls]  # every call, in order, once
    recorded = {k: sum(c["usage"][k] for c in rec.calls) for k in ("prompt_tokens", "completion_tokens")}
    assert total_usage(run) == {**recorded, "calls": len(rec.calls)}


def test_a_replay_asked_other_questions_says_so_in_its_label():
    rec = load_recording("coder")
    run = rec.replay(goal="Implement fizzbuzz(n), and be quick about it.")
    assert len(rec.mismatches) == 3 and rec.mismatches[0] == ("coder", 1)
    assert "replayed with 3 prompt(s) unlike the recorded ones" in rec.label_text()
    assert run.status == "budget"


def test_a_call_past_the_end_of_a_recording_fails_in_words():
    rec = load_recording("team")
    run = rec.replay(max_rounds=3)  # one coder turn more than was recorded
    last = turns(run.trace, "coder")[-1]
    assert last["attempts"][0]["failure"] == "error"
    assert "holds no more replies" in last["attempts"][0]["error"]
    assert run.status == "budget" and run.rounds == 3


def test_the_recorded_model_is_a_scripted_model_reporting_its_usage():
    rec = load_recording("team")
    model = rec.model()
    assert isinstance(model, ScriptedModel) and isinstance(model, RecordedModel)
    coder = model.for_role("coder")
    assert coder(rec.calls[1]["prompt"]) == rec.calls[1]["reply"] and coder.last_usage == rec.calls[1]["usage"]
    assert rec.mismatches == []


def test_a_recorded_failure_replays_as_the_clients_failure():
    data = json.loads((FOLDER / "coder.json").read_text())
    data["calls"][0].update(reply=None, error="no answer within 1 s", failure="timeout", usage=None)
    from agent_team.realteam.recordings import Recording
    run = Recording(data).replay(max_rounds=1)
    attempt = turns(run.trace, "coder")[0]["attempts"][0]
    assert attempt["failure"] == "timeout" and "no answer within 1 s" in attempt["error"]


def test_the_wide_run_is_replayed_through_supervise_views_with_every_role_shown_every_fact():
    rec = load_recording("wide")
    assert "wide" in TEAM_RUNS and rec.setup["views"] == "wide"
    run = rec.replay()
    assert [run.status, run.rounds, run.stop_reason] == [rec.ending[k] for k in ("status", "rounds", "stop_reason")]
    assert rec.mismatches == [] and all(set(e["view"]) == set(FACTS) for e in turns(run.trace))
    narrow = load_recording("wide")
    narrow.replay(views=None)  # the same replies asked with each role's own view: other questions
    assert narrow.mismatches and narrow.mismatches[0] == ("planner", 1)
    assert VIEW_FIELDS == {r.name: r.sees for r in TABLE}  # no table was changed to replay it


def test_the_recorder_and_the_replay_read_a_setup_the_same_way():
    settings = run_settings({"max_rounds": 2, "planted": True, "views": "wide"})
    assert settings["max_rounds"] == 2 and settings["repo"][SRC_PATH].endswith(PLANTED)
    assert settings["views"] == {role: FACTS for role in VIEW_FIELDS}
    plain = run_settings({"max_rounds": 3})
    assert plain["views"] is None and plain["repo"] == initial_repo()
    with pytest.raises(ValueError, match="a run's views are one of wide"):
        run_settings({"max_rounds": 1, "views": "everything"})


def test_a_recorded_http_failure_replays_with_its_status_and_retry_after():
    data = json.loads((FOLDER / "coder.json").read_text())
    data["calls"][0].update(reply=None, error="slow down", failure="error", status=429, retry_after=3.0, usage=None)
    from agent_team.realteam.recordings import Recording
    attempt = turns(Recording(data).replay(max_rounds=1).trace, "coder")[0]["attempts"][0]
    assert (attempt["status"], attempt["retry_after"], attempt["failure"]) == (429, 3.0, "error")


def test_what_cannot_be_replayed_says_what_to_do_instead():
    with pytest.raises(ValueError, match="not a team run"):
        load_recording("advice").replay()
    with pytest.raises(ValueError, match="no recording named 'gpt-5'.*coder"):
        load_recording("gpt-5")


def test_the_wheel_the_site_ships_includes_every_recording():
    if not (ROOT / "pyproject.toml").exists():  # the Pyodide run copies the engine and its tests only
        pytest.skip("pyproject.toml is not in this copy of the repository")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["agent_team.realteam.recordings"]
    files = [p.name for p in FOLDER.iterdir() if p.suffix == ".json"]
    assert files and all(any(fnmatch(f, pat) for pat in patterns) for f in files)


def test_the_default_team_is_untouched_by_a_replay():
    before = supervise()
    load_recording("team").replay()
    assert supervise().trace == before.trace
