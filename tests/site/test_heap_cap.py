"""website/extension/src/heap.ts in Node.js, with the site's own Pyodide: the kernel's heap is capped
(2 GiB in the kernel, 256 MiB here, to be quick), a growth past the cap is refused, and a loop that
keeps growing a list gets a MemoryError at the cap, after which Python goes on working. Why the
kernel's heap must stay below 2 GiB: heap.ts; the learner's case in the browser:
tests/browser/test_memory.py.
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "site" / "node" / "heap_cap.mjs"
LIMIT = 256 * 2**20


@pytest.mark.skipif(shutil.which("node") is None or not (ROOT / "node_modules" / "pyodide").exists(),
                    reason="needs Node.js and `npm ci` (make test does both)")
def test_a_list_that_keeps_growing_stops_with_a_memory_error_at_the_cap():
    run = subprocess.run(["node", str(SCRIPT), str(LIMIT)], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    got = json.loads(run.stdout)
    assert got["HEAP_LIMIT"] == 2**31  # the kernel's: no address of 2**31 or more
    assert got["memory"] == LIMIT and got["refused"].startswith("RangeError"), got  # up to the cap, not past it
    assert got["stopped"].startswith("stopped by MemoryError after "), got
    assert got["heap"] <= LIMIT, got
    assert got["after"] == "after: " + "x" * 80, got
