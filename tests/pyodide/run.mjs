// Run the engine's pure tests inside Pyodide 314 under Node.js, offline:
//   node tests/pyodide/run.mjs [pytest args...]        (`make test-pyodide` runs it)
// Pyodide comes from node_modules/pyodide (npm), pytest and hypothesis from the wheels pinned in
// website/wheels.txt (fetched into build/site/wheels by `python -m website.wheels fetch`); `src/` and
// `tests/` are mounted read-only and copied into Pyodide's in-memory file system, so nothing is
// written to the repository. tests/pyodide/select.py decides which test files run.
import { loadPyodide } from "../../node_modules/pyodide/pyodide.mjs";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const wheelDir = path.join(root, "build/site/wheels");
const TEST_WHEELS = [
  "pytest", "pluggy", "iniconfig", "packaging", "pygments", "hypothesis", "attrs", "sortedcontainers",
];

// A fatal error (e.g. a JavaScript stack overflow deep inside the interpreter) ends Pyodide; it
// surfaces here, outside the test run: say which test it was.
function died(err) {
  console.error(String(err && err.stack ? err.stack.split("\n").slice(0, 3).join("\n") : err));
  if (globalThis.currentTest) {
    console.error(`\npyodide: Pyodide died (a fatal error: in the browser the kernel would die too) in\n  ` +
      `${globalThis.currentTest}\npyodide: make the engine refuse such input before it gets that deep, ` +
      "or list the test in KNOWN in tests/pyodide/select.py");
  }
  process.exit(3);
}
process.on("uncaughtException", died);
process.on("unhandledRejection", died);

const t0 = Date.now();
const pyodideDir = path.join(root, "node_modules/pyodide") + "/";
const pyodide = await loadPyodide({
  indexURL: pyodideDir,
  // Never the CDN: anything not listed below is an error, not a download.
  packageBaseUrl: pyodideDir,
  packageCacheDir: pyodideDir,
  env: { HYPOTHESIS_STORAGE_DIRECTORY: "/tmp/.hypothesis", PYTHONDONTWRITEBYTECODE: "1" },
});
const files = readdirSync(wheelDir).filter((f) => f.endsWith(".whl"));
const wheels = TEST_WHEELS.map((name) => {
  const hit = files.find((f) => f.toLowerCase().replace(/_/g, "-").startsWith(name + "-"));
  if (!hit) throw new Error(`no ${name} wheel in ${wheelDir}: run \`python -m website.wheels fetch\``);
  return path.join(wheelDir, hit);
});
await pyodide.loadPackage(wheels, { messageCallback: () => {}, checkIntegrity: false });
const booted = (Date.now() - t0) / 1000;

const { FS } = pyodide;
FS.mkdirTree("/mnt/repo");
FS.mount(pyodide.FS.filesystems.NODEFS, { root }, "/mnt/repo");
pyodide.globals.set("PYTEST_ARGS", pyodide.toPy(process.argv.slice(2)));
pyodide.globals.set("BOOT_SECONDS", booted);
const code = readFileSync(path.join(here, "select.py"), "utf8");
let status = 3;
try {
  status = await pyodide.runPythonAsync(code + "\nawait main()\n");
} catch (err) {
  died(err);
}
process.exit(Number(status));
