/**
 * Starting a kernel worker: the same for the notebook page's early start (page/prewarm.ts, run
 * before any bundle loads), this plugin's start at activation, and a kernel that finds no worker
 * waiting (a restarted kernel, or start.ts starting afresh after a restore that hung).
 *
 * A worker is one of this package's *.worker.js files: the kernel's own worker (unchanged) with
 * boot.ts in front of it. It boots Pyodide as soon as it gets the `agentTeamBoot` message
 * posted here, before the kernel asks it to initialize, and registers the interrupt buffer.
 * Which one: the coincident worker where the page can share memory with it (Interrupt, and
 * input() over Atomics), the comlink worker everywhere else (capabilities.ts): an isolated page
 * without SharedArrayBuffer (WebKitGTK) or without Atomics.waitAsync (Firefox before 145) too.
 */

import { bounds } from './bounds';
import { sharedMemory } from './capabilities';
import { serveInTab } from './in-tab';
import { serveRunner } from './runner';

/** What a worker needs to boot Pyodide: where it is, and how the kernel loads it. */
export interface IBoot {
  by: 'page' | 'plugin' | 'kernel' | 'home'; // who starts it (read by the browser tests)
  pyodideUrl: string;
  loadPyodideOptions: Record<string, unknown>;
  snapshot?: boolean; // false: start plainly, never touching the snapshot (start.ts)
}

/** A started worker, with the buffer the page writes SIGINT into (null without shared memory)
 *  and what it said so far about its start (boot.ts). */
export interface IStarted {
  worker: Worker;
  interrupt: Uint8Array | null;
  restoring: Promise<void>; // resolves when the worker starts restoring a snapshot
  stage: string; // what the worker said last: "", "restoring", "plain" (after a failed restore), "booted"
  failed: Promise<string>; // resolves if the worker fails to load, or its boot fails
}

// Where the page's early start (and this plugin) leaves its worker for the first kernel.
const WAITING = '__agentTeamWorker';

// The worker files, by URL: the plugin's own (lib/*.worker.js, copied as they are by the
// bundler), or the names the site's build gave the page script (page/prewarm.ts).
export interface IWorkerFiles {
  comlink: URL;
  coincident: URL;
}

// A variable, so that the bundler copies the worker files as they are instead of re-bundling
// them as worker entry points (as the kernel itself does, see its initWorker).
const createModuleWorker = (url: URL): Worker => new Worker(url, { type: 'module' });

const pluginFiles = (): IWorkerFiles => ({
  comlink: new URL('./comlink.worker.js', import.meta.url),
  coincident: new URL('./coincident.worker.js', import.meta.url),
});

/** Start a worker and ask it to boot Pyodide now. */
export function startWorker(boot: IBoot, files: IWorkerFiles = pluginFiles()): IStarted {
  const shared = sharedMemory();
  const worker = createModuleWorker(shared ? files.coincident : files.comlink);
  const interrupt = shared ? new Uint8Array(new SharedArrayBuffer(1)) : null;
  let restoring = () => {};
  let failed = (_: string) => {};
  const started: IStarted = {
    worker,
    interrupt,
    restoring: new Promise<void>((resolve) => (restoring = resolve)),
    stage: '',
    failed: new Promise<string>((resolve) => (failed = resolve)),
  };
  worker.addEventListener('message', (event: MessageEvent) => {
    if (event.data && typeof event.data.agentTeamStage === 'string') {
      started.stage = event.data.agentTeamStage;
    }
    if (event.data && event.data.agentTeamStage === 'restoring') {
      restoring();
    }
    if (event.data && event.data.agentTeamStage === 'failed') {
      failed(`its boot failed: ${event.data.error}`);
    }
  });
  worker.addEventListener('error', (event: ErrorEvent) => failed(event.message || 'the worker did not load'));
  const { pyodideUrl } = boot;
  const indexUrl = pyodideUrl.slice(0, pyodideUrl.lastIndexOf('/') + 1);
  if (shared) {
    serveRunner(worker, indexUrl); // the isolated runner needs shared memory: without it there is none
    serveInTab(worker, indexUrl); // so does a model in the tab: the kernel waits for its answers on shared memory
  }
  worker.postMessage({
    agentTeamBoot: {
      by: boot.by,
      pyodideUrl,
      indexUrl,
      loadPyodideOptions: boot.loadPyodideOptions,
      interrupt,
      snapshot: boot.snapshot !== false,
      bounds: bounds(),
    },
  });
  return started;
}

/** Start a worker for the first kernel, unless the page already did (or is about to reload). */
export function startEarly(boot: IBoot, files?: IWorkerFiles): void {
  const g = globalThis as any;
  if (!g[WAITING] && !g.__agentTeamReloading && !g.__agentTeamUnsupported && typeof Worker !== 'undefined') {
    const started = startWorker(boot, files);
    g[WAITING] = started;
    // WebKitGTK was seen failing to load the page's early worker on a reload (an `error` event,
    // the worker never ran): a worker not taken yet is started again, once.
    started.failed.then(() => {
      if (g[WAITING] === started) {
        g[WAITING] = startWorker(boot, files);
      }
    });
  }
}

/** The worker started early, once: the first kernel takes it, later kernels start their own. */
export function takeWorker(boot: IBoot): IStarted {
  const g = globalThis as any;
  const waiting: IStarted | null = g[WAITING] || null;
  g[WAITING] = null;
  return waiting || startWorker(boot);
}
