"""tools/record_runs.py against the tests' real model: recording again gives what the shipped recording claims.

The model decodes greedily (temperature 0) on a pinned model and server. That is repeatable on one
machine, not across machines: llama.cpp runs the CPU kernels built for the CPU's features, and
other kernels sum floats in another order (the coder's first reply came back on one line instead
of four on AVX2 kernels, 57 completion tokens against 62). So each shipped recording claims two
things, and each is checked where it holds:

- anywhere: the same outcome of every call (the patches it stood for, a bad reply, a failure) and
  the same ending of the run (recordings.Recording.outcomes);
- where the server runs the recording's kernels and llama.cpp (its label says which): the same
  prompts, replies and token counts, byte for byte. Elsewhere this is not claimed, and the test
  says so in a warning.

Every shipped recording is made again, one test each. Slow (a model server to boot, real generation).
"""

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import llama
from agent_team.realteam.recordings import FOLDER, Recording, load_recording, recording_names

ROOT = Path(__file__).resolve().parents[2]
SECONDS = float(os.environ.get("AGENT_TEAM_MODEL_SECONDS", "180"))
pytestmark = pytest.mark.slow


def record_again(name, folder):
    """The run ``name`` recorded again by tools/record_runs.py into ``folder`` (its own model server)."""
    problem = llama.missing()
    if problem:
        if os.environ.get("AGENT_TEAM_REAL_MODEL") == "1":
            pytest.fail(problem)
        pytest.skip(problem)
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "record_runs.py"), "--only", name, "--out",
                           str(folder), "--seconds", str(SECONDS)], capture_output=True, text=True, cwd=ROOT,
                          timeout=SECONDS * 20 + 120)
    assert done.returncode == 0, done.stdout + done.stderr
    return Recording(json.loads((folder / f"{name}.json").read_text()))


def same_bytes(fresh, shipped):
    return [(c["role"], c["prompt"], c["reply"], c["usage"]) for c in fresh.calls] == \
        [(c["role"], c["prompt"], c["reply"], c["usage"]) for c in shipped.calls]


@pytest.mark.parametrize("name", recording_names())
def test_recording_again_gives_the_shipped_outcomes_and_on_its_kernels_the_shipped_bytes(name, tmp_path):
    shipped, fresh = load_recording(name), record_again(name, tmp_path)
    assert [fresh.label[k] for k in ("model", "settings")] == [shipped.label[k] for k in ("model", "settings")]
    assert fresh.setup == shipped.setup
    # An ask with seconds of its own (the retry run's) is a limit meant to be missed; any other timeout is late.
    meant = [bool(ask.get("seconds")) for ask in fresh.setup.get("asks", ())]
    late = [c["seconds"] for i, c in enumerate(fresh.calls) if c["failure"] == "timeout" and not
            (i < len(meant) and meant[i])]
    assert not late, (f"{len(late)} call(s) got no answer within {SECONDS:g} s here (load average "
                      f"{os.getloadavg()[0]:.1f}): a timeout says how fast this machine is, not what the model "
                      "says; give the calls more time with AGENT_TEAM_MODEL_SECONDS")
    assert fresh.outcomes() == shipped.outcomes()
    assert fresh.label["kernels"], "the model server did not say which kernels it runs (tools/llm-server does)"
    if fresh.label["kernels"] == shipped.label.get("kernels"):
        assert same_bytes(fresh, shipped)
    else:
        warnings.warn(f"{name}: recorded on {shipped.label.get('cpu')} with kernels {shipped.label.get('kernels')}; "
                      f"this server runs {fresh.label['kernels']}, so only the outcomes were compared", stacklevel=1)


def test_the_claims_tell_a_whitespace_change_from_a_changed_outcome():
    """The outcome check ignores what other kernels change (spaces, line breaks) and nothing else."""
    shipped = load_recording("coder")
    data = json.loads((FOLDER / "coder.json").read_text())
    first = data["calls"][0]
    first["reply"] = json.dumps(json.loads(first["reply"]))  # the same object, on one line
    relaid = Recording(data)
    assert relaid.outcomes() == shipped.outcomes() and not same_bytes(relaid, shipped)
    first["reply"] = first["reply"].replace("the whole new file", "def fizzbuzz(n):\\n    return 'Fizz'\\n")
    assert Recording(data).outcomes() != shipped.outcomes()
    first["reply"] = "I would rather not."
    assert Recording(data).outcomes()[0][0] == ("coder", "bad reply")
    data["ending"] = {**data["ending"], "status": "pass"}
    assert Recording(data).outcomes()[1] != shipped.outcomes()[1]
