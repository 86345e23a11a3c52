/**
 * Starting a kernel worker: the same for the notebook page's early start (site/prewarm.py
 * writes the same steps into the page, before any bundle loads), this plugin's start at
 * activation, and a kernel that finds no worker waiting (a restarted kernel).
 *
 * A worker is one of this package's *.worker.js files: the kernel's own worker (unchanged) with
 * boot.ts in front of it. It boots Pyodide as soon as it gets the `agentTeamBoot` message
 * posted here, before the kernel asks it to initialize, and registers the interrupt buffer.
 */
// Where the page's early start (and this plugin) leaves its worker for the first kernel.
const WAITING = '__agentTeamWorker';
// A variable, so that the bundler copies the worker files as they are instead of re-bundling
// them as worker entry points (as the kernel itself does, see its initWorker).
const createModuleWorker = (url) => new Worker(url, { type: 'module' });
/** Start a worker and ask it to boot Pyodide now. */
export function startWorker(boot) {
    const isolated = self.crossOriginIsolated;
    const worker = createModuleWorker(isolated
        ? new URL('./coincident.worker.js', import.meta.url)
        : new URL('./comlink.worker.js', import.meta.url));
    // SharedArrayBuffer exists only in a cross-origin isolated page: Interrupt needs one.
    const interrupt = isolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
    const { pyodideUrl } = boot;
    worker.postMessage({
        agentTeamBoot: {
            by: boot.by,
            pyodideUrl,
            indexUrl: pyodideUrl.slice(0, pyodideUrl.lastIndexOf('/') + 1),
            loadPyodideOptions: boot.loadPyodideOptions,
            interrupt,
        },
    });
    return { worker, interrupt };
}
/** Start a worker for the first kernel, unless the page already did (or is about to reload). */
export function startEarly(boot) {
    const g = globalThis;
    if (!g[WAITING] && !g.__agentTeamReloading && typeof Worker !== 'undefined') {
        g[WAITING] = startWorker(boot);
    }
}
/** The worker started early, once: the first kernel takes it, later kernels start their own. */
export function takeWorker(boot) {
    const g = globalThis;
    const waiting = g[WAITING] || null;
    g[WAITING] = null;
    return waiting || startWorker(boot);
}
