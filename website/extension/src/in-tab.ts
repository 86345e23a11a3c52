/**
 * The page's side of a model in the tab (agent_team/realteam/models/tab.py): the kernel's worker asks,
 * the page loads the runtime (in-tab-engine.ts, built to the site's intab/intab.js), runs the
 * model and writes each answer into the SharedArrayBuffer the kernel waits on.
 *
 * Why the page: the runtime starts a worker of its own for llama.cpp (and that worker its
 * threads); a worker started by the kernel's worker hung Firefox now and then (runner.ts says
 * how), one the page starts does not. Nothing of the runtime is fetched until the kernel asks for
 * a model: this file is all a page carries of it (`import()` of the site's own module, on demand).
 *
 * The buffer: four Int32 (answer ready, answer length, KiB loaded, KiB in all), then the answer,
 * JSON with the ask's id. An answer is written only once the kernel has read the one before, so
 * that an answer to a call the kernel gave up on is never overwritten half-read; the kernel drops
 * it by its id.
 */

/** One message of the kernel's worker to the page, under this key. */
export const IN_TAB = 'agentTeamInTab';
/** The runtime's module, at the site's root (website/intab.py). */
const MODULE = 'intab/intab.js';
const HEADER = 16;
const WAIT_FREE_MS = 30_000; // how long an answer waits for the kernel to read an earlier one

interface IAsk {
  type: 'load' | 'ask' | 'cancel';
  id: number;
  sab: SharedArrayBuffer;
  [name: string]: unknown;
}

type Engine = typeof import('./in-tab-engine');

let engine: Promise<Engine> | null = null;

/** The runtime's module, imported once, from the site's root: two folders above Pyodide's. */
function runtime(indexUrl: string): Promise<Engine> {
  engine = engine || (import(/* webpackIgnore: true */ new URL(`../../${MODULE}`, indexUrl).href) as Promise<Engine>);
  return engine;
}

async function answer(sab: SharedArrayBuffer, reply: Record<string, unknown>): Promise<void> {
  const state = new Int32Array(sab, 0, 4);
  const until = Date.now() + WAIT_FREE_MS;
  while (Atomics.load(state, 0) !== 0) {
    if (Date.now() > until) {
      return; // the kernel has stopped reading: nobody is waiting for this answer
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  let bytes = new TextEncoder().encode(JSON.stringify(reply));
  if (bytes.length > sab.byteLength - HEADER) {
    bytes = new TextEncoder().encode(JSON.stringify({
      id: reply.id,
      error: `the reply is over ${sab.byteLength - HEADER} bytes, the cap for one model reply; ask for fewer tokens`,
    }));
  }
  new Uint8Array(sab, HEADER, bytes.length).set(bytes);
  Atomics.store(state, 1, bytes.length);
  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
}

/** Serve `kernel`'s model in the tab, with the runtime of the site whose Pyodide is at `indexUrl`:
 *  loaded, asked and cancelled on the kernel's word. */
export function serveInTab(kernel: Worker, indexUrl: string): void {
  const running = new Map<number, AbortController>();
  kernel.addEventListener('message', (event: MessageEvent) => {
    const ask: IAsk | undefined = event.data && event.data[IN_TAB];
    if (!ask) {
      return;
    }
    if (ask.type === 'cancel') {
      running.get(ask.id)?.abort();
      running.delete(ask.id);
      return;
    }
    const stop = new AbortController();
    running.set(ask.id, stop);
    const state = new Int32Array(ask.sab, 0, 4);
    const work = ask.type === 'load'
      ? runtime(indexUrl).then((e) => e.load(ask, stop.signal, (loaded, total) => {
        Atomics.store(state, 2, Math.floor(loaded / 1024));
        Atomics.store(state, 3, Math.floor(total / 1024));
      }))
      : (engine || Promise.reject(new Error('no model is loaded in this tab: make one with in_tab(...) first')))
        .then((e) => e.ask(ask, stop.signal));
    work.catch((err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }))
      .then((reply: Record<string, unknown>) => {
        if (running.get(ask.id) === stop) { // a cancelled ask is answered by nobody
          running.delete(ask.id);
          return answer(ask.sab, { ...reply, id: ask.id });
        }
      });
  });
}
