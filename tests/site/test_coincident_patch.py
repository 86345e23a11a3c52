"""website/extension/patches/coincident+1.2.3.patch, in Node.js: the page's coincident reads a worker's
answer whole even when the worker is still writing it (the kernel hang of the browser tests), and
gets it even when the page's Atomics.waitAsync is not woken (WebKit, for seconds).

tests/site/node/coincident_race.mjs plays a worker that writes its answers as the worker's own,
unpatched copy of coincident does: first characters first, a few per tick. Unpatched, every
answer but the shortest failed with "Bad control character in string literal in JSON", the
error that killed the kernel in CI.
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "site" / "node" / "coincident_race.mjs"
WAKE = ROOT / "tests" / "site" / "node" / "coincident_wake.mjs"
needs_node = pytest.mark.skipif(shutil.which("node") is None or not (ROOT / "node_modules" / "coincident").exists(),
                                reason="needs Node.js and `npm ci` (make test does both)")


@needs_node
def test_a_half_written_answer_is_read_once_whole():
    run = subprocess.run(["node", str(SCRIPT)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {
        "echo": {"a": "b", "n": [1, 2, 3], "s": "é\u0001"},
        "nothing": None,  # the answer "null": complete, not to be waited for
        "big": "x" * 5000,
    }


def wake_run(mode):
    run = subprocess.run(["node", str(WAKE), mode], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@needs_node
def test_an_answer_arrives_on_the_workers_wake_when_waitasync_sleeps():
    """The worker's notify followed by its wake message (website/extension/src/wake.ts): every
    call gets its answer although the page's waitAsync never resolves."""
    assert wake_run("wake") == {"echo": {"a": [1, 2], "s": "é"}, "nothing": None, "big": "y" * 3000}


@needs_node
def test_without_the_wake_the_same_page_waits_for_good():
    """The same page and worker, the worker's notify alone: no call gets an answer (so the test
    above is the wake's doing, not waitAsync's)."""
    assert wake_run("no-wake") == {"echo": "no answer", "nothing": "no answer", "big": "no answer"}
