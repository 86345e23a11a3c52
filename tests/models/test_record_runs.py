"""tools/record_runs.py against the tests' real model: it records what the shipped recording holds.

The model decodes greedily (temperature 0) on a pinned model and server, so recording a run again
gives the same replies and token counts as the recording the course ships: the recording is what
that model says, not something written for it. Slow (a model server to boot, real generation).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import llama
from agent_team.recordings import FOLDER

ROOT = Path(__file__).resolve().parents[2]
SECONDS = float(os.environ.get("AGENT_TEAM_MODEL_SECONDS", "180"))
pytestmark = pytest.mark.slow


def test_recording_again_gives_the_shipped_replies(tmp_path):
    problem = llama.missing()
    if problem:
        if os.environ.get("AGENT_TEAM_REAL_MODEL") == "1":
            pytest.fail(problem)
        pytest.skip(problem)
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "record_runs.py"), "--only", "coder", "--out",
                           str(tmp_path), "--seconds", str(SECONDS)], capture_output=True, text=True, cwd=ROOT,
                          timeout=SECONDS * 4 + 120)
    assert done.returncode == 0, done.stdout + done.stderr
    fresh = json.loads((tmp_path / "coder.json").read_text())
    shipped = json.loads((FOLDER / "coder.json").read_text())
    assert [fresh["label"][k] for k in ("model", "settings")] == [shipped["label"][k] for k in ("model", "settings")]
    assert [(c["role"], c["prompt"], c["reply"], c["usage"]) for c in fresh["calls"]] == \
        [(c["role"], c["prompt"], c["reply"], c["usage"]) for c in shipped["calls"]]
    assert fresh["ending"] == shipped["ending"]
