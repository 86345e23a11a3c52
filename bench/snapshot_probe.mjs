// What a Pyodide memory snapshot would buy the kernel's start, measured under Node.js (not a test).
//
//   node bench/snapshot_probe.mjs [PYODIDE_DIR] [--repeat 3]
//
// PYODIDE_DIR: a built site's static/pyodide (default _output/static/pyodide). Each sample:
// (1) the kernel's start as the site does it: loadPyodide with the preloaded packages, then the
//     kernel's first imports (`import piplite.piplite; import pyodide_kernel`);
// (2) the same with `_makeSnapshot: true` up to the imports a snapshot can hold (SNAPSHOT_IMPORTS),
//     then makeMemorySnapshot() (size, time); SNAPSHOT_BEFORE_IMPORTS=1: right after the packages;
// (3) a restore: loadPyodide({_loadSnapshot}), then what the snapshot lacks: Pyodide's snapshot
//     is the wasm heap only (plus the JS objects Python holds, by path), not the file system, so
//     the preloaded packages' files must be put back (loadPackage again) before a module not yet
//     imported can be; the probe imports one such module before and after to show it.
// Prints medians as JSON; bench/results.json does not include them (the browser numbers do).
import { readFileSync } from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const repeatAt = args.indexOf("--repeat");
const repeat = repeatAt >= 0 ? Number(args.splice(repeatAt, 2)[1]) : 3;
const dir = path.resolve(args[0] || "_output/static/pyodide") + "/";
const site = path.resolve(dir, "../..");
const lite = JSON.parse(readFileSync(path.join(site, "jupyter-lite.json"), "utf8"));
const settings = lite["jupyter-config-data"].litePluginSettings["@jupyterlite/pyodide-kernel-extension:kernel"];
const packages = settings.loadPyodideOptions.packages;
const { loadPyodide } = await import(path.join(dir, "pyodide.mjs"));
const KERNEL_IMPORTS = "import piplite.piplite\nimport pyodide_kernel";
// What the snapshot can hold: modules that keep no reference to a JS object. pyodide_kernel and
// piplite keep Pyodide API functions (loadPackagesFromImports, fetch), which makeMemorySnapshot
// cannot serialize without a serializer/deserializer pair, so they are imported after a restore.
const SNAPSHOT_IMPORTS = "import IPython\nimport IPython.core.interactiveshell\nimport ipywidgets\nimport jedi\nimport agent_team";
// imported by the notebooks later, never by the kernel's start: lives only in the file system
const LATER = "import agent_team.grading";
const quiet = { stdout: () => {}, stderr: () => {} };

const now = () => performance.now() / 1000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function canImport(py, code) {
  try { await py.runPythonAsync(code); return true; } catch (e) { return String(e).split("\n").filter(Boolean).pop(); }
}

const samples = [];
for (let i = 0; i < repeat; i++) {
  const s = {};
  let t = now();
  let py = await loadPyodide({ indexURL: dir, packages, ...quiet });
  s.boot = now() - t;
  t = now();
  await py.runPythonAsync(KERNEL_IMPORTS);
  s.imports = now() - t;

  t = now();
  py = await loadPyodide({ indexURL: dir, packages, _makeSnapshot: true, ...quiet });
  if (!process.env.SNAPSHOT_BEFORE_IMPORTS) await py.runPythonAsync(SNAPSHOT_IMPORTS);
  s.snapshot_start = now() - t;
  t = now();
  let snap, restored;
  // Pyodide checks that its own JS objects are as a fresh start left them; loadPackage records
  // what it loaded in one of them (loadedPackages), so the record is taken out for the snapshot
  // (and the restore loads the packages again anyway, for their files).
  const loaded = { ...py.loadedPackages };
  for (const k of Object.keys(loaded)) delete py.loadedPackages[k];
  try {
    snap = py.makeMemorySnapshot();
  } catch (e) {
    s.snapshot_error = String(e);
  }
  Object.assign(py.loadedPackages, loaded);
  s.make_snapshot = now() - t;
  if (snap) {
    s.snapshot_mb = snap.length / 1e6;
    t = now();
    try {
      restored = await loadPyodide({ indexURL: dir, _loadSnapshot: snap, ...quiet });
    } catch (e) {
      // seen with 314.0.6: a heap grown past the initial 31.5 MB cannot be restored
      s.restore_error = String(e);
    }
    s.restore = now() - t;
  }
  if (restored) {
    s.ipython_after_restore = await canImport(restored, "import IPython");
    s.later_import_before_files = await canImport(restored, LATER);
    t = now();
    await restored.loadPackage(packages, { messageCallback: () => {} });
    s.put_files_back = now() - t;
    s.later_import_after_files = await canImport(restored, LATER);
    t = now();
    await restored.runPythonAsync(KERNEL_IMPORTS);
    s.kernel_imports_after_restore = now() - t;
    s.restored_total = s.restore + s.put_files_back + s.kernel_imports_after_restore;
    s.normal_total = s.boot + s.imports;
  }
  samples.push(s);
  console.error(`sample ${i + 1}:`, JSON.stringify(s));
}
const out = { pyodide: dir, packages, repeat };
for (const key of Object.keys(samples[0])) {
  const values = samples.map((s) => s[key]);
  out[key] = typeof values[0] === "number" ? Math.round(median(values) * 1000) / 1000 : values[0];
}
console.log(JSON.stringify(out, null, 1));
