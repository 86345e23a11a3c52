"""The isolated runner in the browser: the oracle in a second Web Worker with its own Pyodide.

Browser only (``import js``). The page starts, for the kernel, the site's runner script
(website/runner-worker.js, served as ``agent-team-runner.js`` by the site's service worker with a
content security policy: this site's own scripts and files only, no other origin by any route, and
the script refuses to boot without it); the page names that script and Pyodide's folder, so this
module needs no private Pyodide API to find them. It loads Pyodide from the same cached files,
receives agent_team's files (:mod:`.sources`; never the key, which lives in the kernel's model
object only), and then deletes from its global scope everything that reaches outside or keeps
anything (``fetch``, ``XMLHttpRequest``, ``WebSocket``, ``importScripts``, ``indexedDB``,
``caches``, ``Worker``, ``FontFace``, ``navigator.storage``, ...; from the prototypes too). It
shares no file system with the kernel: the drive is not there. Each run posts the source and waits
on a SharedArrayBuffer with a time limit; past it the worker is terminated (the only way to stop a
blocked worker) and a new one is started.
Its memory is capped (``MEMORY_MB``): Pyodide grows its heap through ``WebAssembly.Memory``'s
``grow``, which the worker replaces, before Pyodide loads, with one that refuses to pass the cap
and cannot be put back (not writable, not configurable); a refused growth is a failed ``malloc``,
so the code gets a ``MemoryError`` instead of taking up to the 4 GB a 32-bit heap may have.

Why the page starts it, not the kernel's worker (website/extension/src/runner.ts): a worker
started by a worker did not start while its parent's thread was blocked in ``Atomics.wait``
(Chromium: issue 22), and now and then hung both threads for good as it started (Firefox: issue
33). The kernel posts its asks to the page (``start``, ``post``, ``stop``), the page passes them
on, and the runner answers in the shared buffer; so the kernel may wait blocked for the first boot
in any cell, the one that made the model included, in every engine with shared memory.
"""

import json
import time

from . import page
from .sources import package_sources

__all__ = ["start", "run_in_worker", "run_python_in_worker", "SECONDS", "MEMORY_MB"]

SECONDS = 10.0       # one run, read at call time
MEMORY_MB = 512      # the runner's whole heap (Pyodide itself takes about 100 MB), read when it starts
BOOT_SECONDS = 60.0  # the first boot in a later cell may still be under way
REPLY_BYTES = 1 << 20
HEADER = 12          # three Int32: reply ready, reply length, boot message received

_runner = {}  # the one runner of this kernel, once the page was asked to start it: sab, state, booted


def _ask_page(ask):
    """Ask the page (website/extension/src/runner.ts) to start, feed or end this kernel's runner."""
    page.ask("agentTeamRunner", ask)


def start():
    """Start the runner's worker (once): the page starts it, and it boots at once."""
    if _runner:
        return
    js, _ = page.browser()
    sab = js.SharedArrayBuffer.new(HEADER + REPLY_BYTES)
    _runner.update(sab=sab, state=js.Int32Array.new(sab, 0, 3), booted=False)
    # the page adds Pyodide's folder (indexURL) and starts the site's runner script
    _ask_page({"type": "start", "boot": {"type": "boot", "sab": sab, "files": package_sources(),
                                         "memoryMB": MEMORY_MB}})


def _stop():
    if _runner:
        _ask_page({"type": "stop"})
    _runner.clear()


def _wait(seconds):
    """The worker's reply (parsed JSON), or None if it did not come within ``seconds``."""
    js, _ = page.browser()
    state = _runner["state"]
    if js.Atomics.wait(state, 0, 0, int(seconds * 1000)) == "timed-out":
        return None
    text = bytes(js.Uint8Array.new(_runner["sab"], HEADER, state[1]).to_py()).decode("utf-8")
    js.Atomics.store(state, 0, 0)
    return json.loads(text)


def _ask(message, seconds):
    start()  # once: a runner already asked for is kept
    if not _runner["booted"]:
        booted = _wait(BOOT_SECONDS)
        if not booted or "booted" not in booted:
            started = _runner["state"][2] == 1
            _stop()
            why = (booted or {}).get("error") or ("no answer" if started else "the worker never started")
            raise RuntimeError(f"it did not start within {BOOT_SECONDS:g} s ({why})")
        _runner["booted"] = True
    _ask_page({"type": "post", "message": message})
    started = time.monotonic()
    answer = _wait(seconds)
    if answer is None:
        _stop()  # a worker that does not answer is ended; the next run starts a new one
        start()
        raise RuntimeError(f"it was stopped after {time.monotonic() - started:.3g} s (the time limit)")
    return answer


def run_in_worker(source):
    """The oracle's report on ``source``, computed in the runner's worker; raises if there is none."""
    report = _ask({"type": "run", "source": source}, SECONDS)
    if "error" in report:
        raise RuntimeError(f"it failed: {report['error']}")
    return report


def run_python_in_worker(code, seconds=None):
    """Run ``code`` in the runner's worker; ``str(RESULT)`` as it set it (the tests' probe)."""
    answer = _ask({"type": "python", "code": code}, SECONDS if seconds is None else seconds)
    if "error" in answer:
        raise RuntimeError(answer["error"])
    return answer["result"]
