/**
 * What this browser offers the course, found by feature detection (never by its name), and the
 * one line a learner reads where something is missing (docs/kernel-start.md).
 *
 * Needed, or no kernel at all (the minimum versions in docs/kernel-start.md follow from these):
 * module workers (the kernel's worker is an ES module), WebAssembly with exception handling and
 * BigInt (Pyodide's build uses both), and the ES2022 built-ins JupyterLab's bundle calls.
 * Wanted, or a feature is lost: shared memory (SharedArrayBuffer in a cross-origin isolated page,
 * and Atomics.waitAsync, which the page's side of the kernel channel awaits) for Interrupt; a
 * service worker for input(), and for the isolation itself on a static host.
 */

// A function with a legacy `try ... catch_all ... end` and a tag section: Pyodide's wasm has a
// tag section (exception handling), so a browser that cannot validate this cannot run it.
const WASM_EXCEPTIONS = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, // magic, version
  1, 4, 1, 96, 0, 0, // type section: () -> ()
  3, 2, 1, 0, // function section: one function of type 0
  13, 3, 1, 0, 0, // tag section: one tag of type 0
  10, 8, 1, 6, 0, 6, 64, 25, 11, 11, // code: try (empty) catch_all end end
]);

function moduleWorkers(): boolean {
  let asked = false;
  try {
    const url = URL.createObjectURL(new Blob([''], { type: 'text/javascript' }));
    // A browser without module workers never reads `type` (and starts a classic worker).
    new Worker(url, { get type() { asked = true; return 'module'; } } as WorkerOptions).terminate();
    URL.revokeObjectURL(url);
  } catch {
    return false;
  }
  return asked;
}

function wasm(): boolean {
  try {
    return typeof WebAssembly === 'object' && typeof BigInt64Array === 'function'
      && WebAssembly.validate(WASM_EXCEPTIONS);
  } catch {
    return false;
  }
}

/** What this browser lacks that the kernel cannot start without (empty: nothing). */
export function missing(): string[] {
  const lacks: string[] = [];
  if (typeof Worker === 'undefined' || !moduleWorkers()) {
    lacks.push('module workers');
  }
  if (!wasm()) {
    lacks.push('WebAssembly exception handling');
  }
  const a = Array.prototype as any;
  if (typeof a.at !== 'function' || typeof (Object as any).hasOwn !== 'function'
      || typeof (globalThis as any).structuredClone !== 'function') {
    lacks.push('ES2022');
  }
  return lacks;
}

/** Whether the kernel can share memory with the page: Interrupt, and the synchronous channel. */
export function sharedMemory(): boolean {
  return !!(globalThis as any).crossOriginIsolated && typeof SharedArrayBuffer === 'function'
    && typeof Atomics === 'object' && typeof (Atomics as any).waitAsync === 'function';
}

/** Whether this page can have the site's service worker (input(), isolation on static hosts). */
export function serviceWorkers(): boolean {
  return !!globalThis.isSecureContext && typeof navigator === 'object' && 'serviceWorker' in navigator;
}

export const TOO_OLD = (lacks: string[]) =>
  `This browser is too old for the course's Python (it lacks ${lacks.join(', ')}): `
  + 'open the course in Chrome or Edge 98+, Firefox 114+ or Safari 15.4+.';
export const NO_INTERRUPT =
  'This browser does not allow interrupting a running cell: use Kernel → Restart if a cell never ends.';
export const NO_SERVICE_WORKER =
  'This page cannot use a service worker (a private window, or not served over https): '
  + 'input() cannot ask for text here; open the course in a normal window over https.';
export const NO_START = (seconds: number) =>
  `The Python kernel did not start within ${seconds} s: reload the page; if it happens again, `
  + 'clear this site\'s data or use another browser.';
