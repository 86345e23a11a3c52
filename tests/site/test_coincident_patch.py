"""website/extension/patches/coincident+1.2.3.patch, in Node.js: the page's coincident reads a worker's
answer whole even when the worker is still writing it (the kernel hang of the browser tests).

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


@pytest.mark.skipif(shutil.which("node") is None or not (ROOT / "node_modules" / "coincident").exists(),
                    reason="needs Node.js and `npm ci` (make test does both)")
def test_a_half_written_answer_is_read_once_whole():
    run = subprocess.run(["node", str(SCRIPT)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {
        "echo": {"a": "b", "n": [1, 2, 3], "s": "é\u0001"},
        "nothing": None,  # the answer "null": complete, not to be waited for
        "big": "x" * 5000,
    }
