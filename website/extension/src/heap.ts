/**
 * Python's heap stays below 2 GiB (boot.ts installs this in the kernel's worker, before Pyodide
 * loads), so that no Python object ever lives at an address of 2**31 or more.
 *
 * Why (issue 33): Pyodide 314.0.6's glue reads such an address as a signed 32-bit number where it
 * hands an ASCII string of 64 characters or more to JavaScript (`_python2js_ascii`:
 * `HEAPU8.subarray(ptr, ptr + len)` with a negative `ptr` reads bytes from the heap's other end).
 * A learner's endless loop that kept appending to a list took the heap past 2 GiB in 20-45 s; the
 * list, held by the interrupted cell's traceback, kept the lower 2 GiB full, so every later long
 * string (tracebacks, grader reports, widgets' state) was made up there and reached the page as
 * garbage until a restart. Measured in Chromium: with the heap at 2.36 GB, a 63-character ASCII
 * string at 0x88aefda8 printed right, one of 64 characters at 0x88acfd88 printed heap bytes, 100
 * non-ASCII characters (another path, unsigned) printed right. Upstream fixed the same signed
 * reads for UCS-2 and UCS-4 strings (pyodide/pyodide#6217); this ASCII path was still signed here.
 *
 * A growth past the limit is refused as the browser refuses one past its own: Emscripten's
 * `growMemory` catches the RangeError, malloc returns NULL and Python raises MemoryError, which
 * the kernel explains in the learner's words (boot.ts). No pointer past 2**31 ever exists, so no
 * read of one can be wrong, whichever glue function does it. When Pyodide's glue reads pointers
 * unsigned throughout, the limit can go up to what the browser allows (4 GiB in wasm32).
 */

export const HEAP_LIMIT = 2 ** 31; // bytes: the last address is 2**31 - 1
const PAGE = 65536;

/** Make `memory.prototype.grow` refuse (RangeError) to take a memory past `limit` bytes. */
export function capHeap(memory: { prototype: WebAssembly.Memory }, limit: number = HEAP_LIMIT): void {
  const grow = memory.prototype.grow;
  memory.prototype.grow = function (this: WebAssembly.Memory, pages: number): number {
    if (this.buffer.byteLength + pages * PAGE > limit) {
      throw new RangeError(`agent_team: the kernel's heap stays within ${limit} bytes`);
    }
    return grow.call(this, pages);
  };
}
