"""Lever "snapshot": a returning learner's kernel restores the memory snapshot of the first start.

The kernel's worker (website/extension/src/snapshot.ts) takes Python's heap and the unpacked wheels
right after the kernel's imports on a first visit, stores them in the browser's Cache Storage,
and restores them on the next visit instead of starting Python and importing IPython & co.
again. It does so only if the site serves static/pyodide/agent-team-snapshot.json, which this
step writes: the key of the snapshot this build's kernel may restore. The key is a hash of
everything the snapshot depends on, as built: the package lock (every wheel's sha256, the
course's own agent_team wheel included), the packages preloaded, and the site plugin's worker
files (Pyodide's start and the kernel's first imports). Any change to them gives a new key, so a
snapshot of older code is never restored (the worker deletes it when it stores the new one).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from . import prewarm

KEY_FILE = Path("static") / "pyodide" / "agent-team-snapshot.json"


def key(out: Path, load_pyodide_options: dict) -> str:
    """The snapshot key of the built site `out`."""
    workers = sorted((out / prewarm.STATIC).glob("*.worker.*.js"))
    if not workers:
        sys.exit(f"{out / prewarm.STATIC}: no worker files of the site's plugin")
    digest = hashlib.sha256()
    for part in [(out / "static" / "pyodide" / "pyodide-lock.json").read_bytes(),
                 json.dumps(load_pyodide_options, sort_keys=True).encode(),
                 *(w.read_bytes() for w in workers)]:
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()


def patch(out: Path, load_pyodide_options: dict) -> None:
    """Let the kernel of the built site `out` restore (and store) its snapshot."""
    (out / KEY_FILE).write_text(json.dumps({"key": key(out, load_pyodide_options)}) + "\n")
