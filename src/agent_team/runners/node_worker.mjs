// One Pyodide interpreter in a worker thread of node_runner.mjs: boots once, then grades exercise after
// exercise (agent_team/classroom/inside.py gives each one fresh interpreter state). The thread runs
// under the process's Node permission model (no host writes, no processes, reads only of Pyodide
// and these scripts); on top of that, before any learner code runs, every door from Python to the
// host that Pyodide leaves open is shut (see harden below).
import { parentPort, workerData } from "node:worker_threads";
import { constants as fsConstants } from "node:fs";
import { pathToFileURL } from "node:url";

// Pyodide reads fs flags through process.binding, which the permission model refuses: give it
// exactly those flags and nothing else.
process.binding = (name) => {
  if (name === "constants") return { fs: fsConstants };
  throw new Error("process.binding is not available in the grader");
};

const { pyodideDir, files, interrupt } = workerData;

// The heap's size, for the runner's "left it too big" check, read from the WebAssembly memory the
// interpreter grows (Pyodide has no public API for it: its HEAP8 is private and may change). The
// hook is set before Pyodide loads and cannot be replaced: learner code reaches it through `import js`.
let memory = null;
const grow = WebAssembly.Memory.prototype.grow;
Object.defineProperty(WebAssembly.Memory.prototype, "grow", {
  writable: false,
  configurable: false,
  value: function (pages) {
    memory = this;
    return grow.call(this, pages);
  },
});
// 0 until it first grows: it starts at about 30 MB, far below any limit
const heap = () => (memory ? memory.buffer.byteLength : 0);

const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({
  indexURL: `${pyodideDir}/`,
  packageBaseUrl: `${pyodideDir}/`,
  env: { HOME: "/home/pyodide", PYTHONDONTWRITEBYTECODE: "1" },
  stdout: () => {},
  stderr: () => {},
});

// The engine, sent by the host as text: no host folder is mounted. Every job gets a fresh copy in
// a folder of its own with an unguessable name, so a learner who writes into the in-memory file
// system (a fake grader module, a planted .pyc) changes nothing for the next learner.
const { FS } = pyodide;
let engineDir = null;
function installEngine() {
  const old = engineDir;
  engineDir = `/lib/engine-${crypto.randomUUID()}`;
  for (const [rel, text] of Object.entries(files)) {
    const target = `${engineDir}/${rel}`;
    FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    FS.writeFile(target, text);
  }
  if (old) removeTree(old);
  return engineDir;
}
function removeTree(path) {
  try {
    if (FS.isDir(FS.lstat(path).mode)) {
      for (const name of FS.readdir(path)) if (name !== "." && name !== "..") removeTree(`${path}/${name}`);
      FS.rmdir(path);
    } else {
      FS.unlink(path);
    }
  } catch {} // best effort: only memory is at stake
}
pyodide.globals.set("ENGINE_DIR", installEngine());
pyodide.runPython("import sys; sys.path.insert(0, ENGINE_DIR)");
const inside = pyodide.pyimport("agent_team.classroom.inside");
inside.snapshot();
const run = inside.run;
pyodide.setInterruptBuffer(new Int32Array(interrupt));

function harden() {
  // Pyodide publishes fs, child_process and ws as globalThis.require, and the JS globals reach
  // the network; learner code sees all of globalThis through `import js`.
  for (const name of ["require", "fetch", "WebSocket", "XMLHttpRequest", "EventSource", "process", "Deno", "Bun"]) {
    try {
      delete globalThis[name];
    } catch {}
    if (name in globalThis) Object.defineProperty(globalThis, name, { value: undefined });
  }
}
harden();
parentPort.postMessage({ type: "ready", heap: heap() });

parentPort.on("message", (job) => {
  let result;
  try {
    result = JSON.parse(run(JSON.stringify({ ...job, engine_dir: installEngine() })));
  } catch (err) {
    // Whatever got out of Python (a fatal error, a JavaScript stack overflow) may have left the
    // interpreter broken: this job failed, and the runner replaces the worker before the next one.
    const text = String(err && err.message ? err.message : err);
    const why = /call stack/i.test(text) ? "the exercise recursed too deep for the interpreter's stack"
      : /fatal/i.test(text) ? "the interpreter died (as the browser's kernel would)"
      : `the grader failed: ${text.split("\n").slice(-2).join(" ")}`;
    parentPort.postMessage({ type: "result", result: { status: "crashed", message: why }, heap: 0, fatal: true });
    return;
  }
  parentPort.postMessage({ type: "result", result, heap: heap(), fatal: false });
});
