// website/extension/src/heap.ts in Node.js, with the real Pyodide of the site: a heap capped at
// LIMIT bytes (argument, default 256 MiB; the kernel's is 2 GiB) refuses to grow past it, and a
// Python loop that keeps growing a list gets a MemoryError there instead of a heap past the cap;
// Python goes on working afterwards. Prints one JSON line.
import { buildSync } from "esbuild";

const src = new URL("../../../website/extension/src/", import.meta.url).pathname;
const built = buildSync({
  stdin: { contents: "export { capHeap, HEAP_LIMIT } from './heap';", resolveDir: src, loader: "ts" },
  bundle: true, format: "esm", write: false, logLevel: "error",
});
const { capHeap, HEAP_LIMIT } = await import("data:text/javascript," + encodeURIComponent(built.outputFiles[0].text));
const limit = Number(process.argv[2] || 256 * 2 ** 20);
capHeap(WebAssembly.Memory, limit);

// The cap itself, on a memory of its own.
const pages = limit / 65536;
const memory = new WebAssembly.Memory({ initial: 1, maximum: pages + 16 });
memory.grow(pages - 2);
let refused = null;
try {
  memory.grow(2);
} catch (error) {
  refused = `${error.name}: ${error.message}`;
}
memory.grow(1); // up to the limit exactly is allowed

const { loadPyodide } = await import("../../../node_modules/pyodide/pyodide.mjs");
const pyodide = await loadPyodide();
const stopped = pyodide.runPython(`
log = []
try:
    while True:
        log.append(("coder", "def fizzbuzz(n): version %d, reviewed and tested once more" % len(log)))
except MemoryError:
    n = len(log)
    del log
"stopped by MemoryError after %d turns" % n
`);
console.log(JSON.stringify({
  HEAP_LIMIT,
  limit,
  memory: memory.buffer.byteLength,
  refused,
  stopped,
  heap: pyodide._module.HEAPU8.length,
  after: pyodide.runPython("'after: ' + 'x' * 80"),
}));
