"""The isolated runner in the browser: the oracle in a second Web Worker with its own Pyodide.

Browser only (``import js``). The kernel's worker starts a module worker (from a Blob) that loads
Pyodide from the same cached files, receives agent_team's source files (never the key, which
lives in the kernel's model object only), and then deletes from its global scope everything that
reaches outside: ``fetch``, ``XMLHttpRequest``, ``WebSocket``, ``EventSource``, ``importScripts``,
``indexedDB``, ``caches``, ``Worker``, ``BroadcastChannel``, ``postMessage`` (from the prototypes,
so no prototype lookup finds them again). It shares no file system with the kernel: the drive is
not there. Each run posts the source and waits on a SharedArrayBuffer with a time limit; past it
the worker is terminated (the only way to stop a blocked worker) and a new one is started.
Its memory is capped (``MEMORY_MB``): Pyodide grows its heap through ``WebAssembly.Memory``'s
``grow``, which the worker replaces, before Pyodide loads, with one that refuses to pass the cap
and cannot be put back (not writable, not configurable); a refused growth is a failed ``malloc``,
so the code gets a ``MemoryError`` instead of taking up to the 4 GB a 32-bit heap may have.

One browser fact shapes its use: a worker started by the kernel's worker does not start until the
kernel's own event loop runs (Chromium starts a nested worker through tasks on its parent's
thread). A kernel blocked in ``Atomics.wait`` never runs them: a cell that waited for the first
boot at once, before those tasks had run, waited its whole limit for a worker that had not even
started (6 of 8 probes, issue 22). So the first boot is awaited with the kernel's event loop
running (``pyodide.ffi.run_sync``, JSPI: Chromium and Firefox), in any cell, the one that made
the model included. Where the kernel cannot yield (no JSPI), the runner boots only once the
running cell ends: a team run in the cell that made the model is refused with that reason (make
the model in one cell, run the team in the next), and the boot in a later cell is awaited blocked.
"""

import asyncio
import json
import os
import time

__all__ = ["start", "run_in_worker", "run_python_in_worker", "SECONDS", "MEMORY_MB"]

SECONDS = 10.0       # one run, read at call time
MEMORY_MB = 512      # the runner's whole heap (Pyodide itself takes about 100 MB), read when it starts
BOOT_SECONDS = 60.0  # the first boot in a later cell may still be under way
REPLY_BYTES = 1 << 20
HEADER = 12          # three Int32: reply ready, reply length, boot message received

_WORKER = r"""
let py = null, state = null, bytes = null;
const CUT = ["fetch", "XMLHttpRequest", "WebSocket", "EventSource", "WebTransport", "importScripts",
             "indexedDB", "caches", "Worker", "SharedWorker", "BroadcastChannel", "postMessage"];
function reply(text) {
  const data = new TextEncoder().encode(text).subarray(0, bytes.length);
  bytes.set(data);
  Atomics.store(state, 1, data.length);
  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
}
self.onmessage = async (event) => {
  const m = event.data;
  try {
    if (m.type === "boot") {
      state = new Int32Array(m.sab, 0, 3);
      bytes = new Uint8Array(m.sab, 12);
      Atomics.store(state, 2, 1);  // started: what the kernel looks at to tell a slow boot from none
      const grow = WebAssembly.Memory.prototype.grow, cap = m.memoryMB * 1048576;
      Object.defineProperty(WebAssembly.Memory.prototype, "grow", {writable: false, configurable: false,
        value: function (pages) {
          if (this.buffer.byteLength + pages * 65536 > cap) throw new RangeError("over the runner's memory cap");
          return grow.call(this, pages);
        }});
      const {loadPyodide} = await import(m.indexURL + "pyodide.mjs");
      py = await loadPyodide({indexURL: m.indexURL});
      for (const [path, text] of m.files) {
        py.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
        py.FS.writeFile(path, text);
      }
      py.runPython("import sys, json; sys.path.insert(0, '/runner'); from agent_team import oracle");
      for (const name of CUT) {
        for (let o = self; o; o = Object.getPrototypeOf(o)) {
          try { delete o[name]; } catch (e) { /* not configurable: checked below */ }
        }
        if (name in self) throw new Error(name + " could not be removed");
      }
      reply(JSON.stringify({booted: true}));
    } else if (m.type === "run") {
      py.globals.set("SOURCE", m.source);
      reply(py.runPython("json.dumps(oracle.run_tests({'src/fizzbuzz.py': SOURCE}))"));
    } else if (m.type === "python") {
      const scope = py.toPy({});
      py.runPython(m.code, {globals: scope});
      reply(JSON.stringify({result: String(scope.get("RESULT"))}));
      scope.destroy();
    }
  } catch (e) {
    reply(JSON.stringify({error: String(e)}));
  }
};
"""

_runner = {}  # the one runner of this kernel: worker, sab, state, started_in, booted


def _js():
    import js
    from pyodide.ffi import to_js

    return js, lambda value: to_js(value, dict_converter=js.Object.fromEntries)


def _cell():
    """The running cell's number (None outside IPython): a worker started in it has not run yet."""
    try:
        return get_ipython().execution_count
    except NameError:
        return None


def _sources():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    files = []
    for folder, _, names in os.walk(os.path.join(root, "agent_team")):
        for name in sorted(names):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as handle:
                    files.append(["/runner" + path[len(root):], handle.read()])
    return files


def start():
    """Start the runner's worker (once): it boots when the running cell ends."""
    if _runner.get("worker") is not None:
        return
    js, to_js = _js()
    import pyodide_js

    blob = js.Blob.new(to_js([_WORKER]), to_js({"type": "text/javascript"}))
    worker = js.Worker.new(js.URL.createObjectURL(blob), to_js({"type": "module"}))
    sab = js.SharedArrayBuffer.new(HEADER + REPLY_BYTES)
    _runner.update(worker=worker, sab=sab, state=js.Int32Array.new(sab, 0, 3), started_in=_cell(), booted=False)
    worker.postMessage(to_js({"type": "boot", "sab": sab, "indexURL": pyodide_js._api.config.indexURL,
                              "files": _sources(), "memoryMB": MEMORY_MB}))


def _stop():
    worker = _runner.pop("worker", None)
    if worker is not None:
        worker.terminate()
    _runner.clear()


def _wait(seconds):
    """The worker's reply (parsed JSON), or None if it did not come within ``seconds``."""
    js, _ = _js()
    state = _runner["state"]
    if js.Atomics.wait(state, 0, 0, int(seconds * 1000)) == "timed-out":
        return None
    text = bytes(js.Uint8Array.new(_runner["sab"], HEADER, state[1]).to_py()).decode("utf-8")
    js.Atomics.store(state, 0, 0)
    return json.loads(text)


def _can_yield():
    """Whether this cell can let the kernel's event loop run while it waits (JSPI)."""
    try:
        from pyodide.ffi import can_run_sync
    except ImportError:
        return False
    return can_run_sync()


def _wait_yielding(seconds):
    """The worker's first reply, as `_wait`, but with the kernel's event loop running meanwhile,
    so that the browser can start the nested worker at all."""
    from pyodide.ffi import run_sync

    deadline = time.monotonic() + seconds
    while _runner["state"][0] == 0 and time.monotonic() < deadline:
        run_sync(asyncio.sleep(0.02))
    return _wait(0)


def _ask(message, seconds):
    if _runner.get("worker") is None:
        start()
    if not _runner["booted"]:
        yields = _can_yield()
        if not yields and _runner["started_in"] is not None and _runner["started_in"] == _cell():
            raise RuntimeError("it starts when this cell ends (a browser runs a new worker only then): "
                               "make the model in one cell and run the team in the next")
        booted = _wait_yielding(BOOT_SECONDS) if yields else _wait(BOOT_SECONDS)
        if not booted or "booted" not in booted:
            started = _runner["state"][2] == 1
            _stop()
            why = (booted or {}).get("error") or ("no answer" if started else "the worker never started")
            raise RuntimeError(f"it did not start within {BOOT_SECONDS:g} s ({why})")
        _runner["booted"] = True
    _, to_js = _js()
    _runner["worker"].postMessage(to_js(message))
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
