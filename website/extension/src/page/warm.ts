/**
 * A first visit's start-up, hidden behind the home page's reading time (issue 24, item 4).
 *
 * Once the page has loaded and the browser is idle (never before: the page comes first), and
 * unless the browser asks to save data or the learner stops it:
 * 1. the site's service worker is registered (no reload: the home page needs no isolation), so the
 *    first notebook page is isolated from its start instead of reloading itself once; once it is in
 *    control (at most CONTROL_MS), the files this page loaded before it are asked for again through
 *    it, so that it keeps them and the home page opens with the server out of reach (the HTTP
 *    cache answers: no byte twice);
 * 2. JupyterLab's entry files and the chunks a notebook page fetches (website/labfetch.py) are
 *    prefetched, two at a time, at low priority (`priority: 'low'`), by the exact URLs the notebook
 *    page asks for, so its requests find them kept (service worker) or in the HTTP cache; `cancel()`
 *    aborts what is left;
 * 3. the kernel's worker boots, with the steps and files the notebook page's own early start uses
 *    (worker.ts): Pyodide, the wheels, the kernel's imports, and then, as on any first visit, the
 *    kernel's memory snapshot (snapshot.ts) in Cache Storage. The notebook opened next finds it and
 *    restores it, as a return visit does. Once the snapshot is stored the worker is ended.
 * Nothing is fetched that the notebook page would not fetch itself; a return visit whose snapshot
 * is there already fetches nothing at all. `cancel()` (the Stop button, or leaving the page) ends
 * the worker; the notebook then starts as it would have without this page. A notebook link followed
 * while the snapshot is being stored (Python is booted: a second or so to go) waits for the store,
 * at most HOLD_MS, rather than throw the boot away.
 */

import { serviceWorkers, sharedMemory } from '../capabilities';
import * as snapshot from '../snapshot';
import { startWorker } from '../worker';
import { register } from './isolation';
import type { IIsolation } from './isolation';
import type { IPrewarm } from './prewarm';

export interface IWarm {
  state: string; // "waiting", "skipped", "warming", "storing", "ready", "downloaded", "failed", "cancelled"
  cancel: () => void;
  done: Promise<string>;
}

// How long to wait for the snapshot to be stored after the worker booted (it takes about 1 s).
const STORE_MS = 120_000;
// How long a notebook link followed during the store waits for it.
const HOLD_MS = 4_000;
// How long to wait for the service worker to control this page before going on without it.
const CONTROL_MS = 5_000;
// Prefetches at a time: enough to keep the line busy, few enough to leave room for the kernel's files.
const PREFETCHES = 2;

const LINES: Record<string, string> = {
  warming: 'Getting Python ready in the background while you read (a download of about 28 MB, once)…',
  ready: 'Python is ready in this browser: a part opens in a few seconds.',
  downloaded: 'Python is downloaded: a part will start it when you open one.',
  skipped: 'Your browser asks to save data: Python downloads when you open a part.',
  cancelled: 'Stopped: Python starts when you open a part.',
  failed: 'Python could not be prepared here; a part will start it when you open one.',
};

const idle = () => new Promise<void>((resolve) => {
  const after = () => ('requestIdleCallback' in globalThis
    ? (globalThis as any).requestIdleCallback(() => resolve(), { timeout: 500 })
    : setTimeout(resolve, 300));
  if (document.readyState === 'complete') {
    after();
  } else {
    addEventListener('load', after, { once: true });
  }
});

/** Once the site's service worker controls this page (false if not within CONTROL_MS). */
function controlled(): Promise<boolean> {
  const container = navigator.serviceWorker;
  if (container.controller) {
    return Promise.resolve(true);
  }
  return new Promise((resolve) => {
    container.addEventListener('controllerchange', () => resolve(true), { once: true });
    setTimeout(() => resolve(!!container.controller), CONTROL_MS);
  });
}

/** Fetch `urls` (a few at a time, low priority, read to the end so that they are kept). */
async function fetchAll(urls: string[], signal: AbortSignal): Promise<void> {
  const queue = [...urls];
  const one = async (): Promise<void> => {
    for (let url = queue.shift(); url && !signal.aborted; url = queue.shift()) {
      try {
        const response = await fetch(url, { signal, credentials: 'same-origin', priority: 'low' } as RequestInit);
        await response.arrayBuffer();
      } catch (error) {
        if (!signal.aborted) {
          console.info('agent_team: not prefetched', url, String(error).slice(0, 120));
        }
      }
    }
  };
  await Promise.all(Array.from({ length: PREFETCHES }, one));
}

/** This page and what it loaded before the service worker controlled it (same origin only). */
function thisPagesFiles(): string[] {
  const files = performance.getEntriesByType('resource')
    .filter((entry) => !['fetch', 'xmlhttprequest', 'beacon'].includes((entry as PerformanceResourceTiming).initiatorType))
    .map((entry) => entry.name);
  return [location.href, ...files].filter((url) => new URL(url).origin === location.origin);
}

export function warm(config: IPrewarm, isolation: IIsolation | undefined, prefetch: string[], line: HTMLElement | null): IWarm {
  const root = new URL('./', document.baseURI);
  const aborts = new AbortController();
  let worker: Worker | null = null;
  let finish = (_: string) => {};
  const warming: IWarm = { state: 'waiting', cancel: () => end('cancelled'), done: new Promise((r) => (finish = r)) };
  const stop = document.createElement('button');
  stop.type = 'button';
  stop.className = 'quiet';
  stop.textContent = 'Stop';
  stop.setAttribute('aria-label', 'Stop getting Python ready');
  stop.addEventListener('click', () => warming.cancel());
  const say = (state: string) => {
    warming.state = state;
    if (line && LINES[state]) {
      line.textContent = `${LINES[state]} `;
      if (state === 'warming') {
        line.appendChild(stop);
      }
    }
  };
  const end = (state: string) => {
    if (state === 'cancelled') {
      aborts.abort(); // the prefetches left (they go on once the kernel is ready: the notebook needs them)
    }
    if (['ready', 'downloaded', 'skipped', 'cancelled', 'failed'].includes(warming.state)) {
      return;
    }
    worker?.terminate();
    worker = null;
    say(state);
    finish(state);
  };
  addEventListener('pagehide', () => end('cancelled'));
  document.addEventListener('click', (event: MouseEvent) => {
    const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
    const plain = event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
    if (warming.state !== 'storing' || !link || !plain || !new URL(link.href).pathname.includes('/lab/')) {
      return;
    }
    event.preventDefault();
    if (line) {
      line.textContent = 'Python is almost ready: opening in a moment…';
    }
    const go = () => location.assign(link.href);
    Promise.race([warming.done, new Promise((r) => setTimeout(r, HOLD_MS))]).then(go, go);
  });

  (async () => {
    await idle();
    if (warming.state !== 'waiting') {
      return;
    }
    if ((navigator as any).connection?.saveData) {
      end('skipped');
      return;
    }
    if (isolation && serviceWorkers()) {
      const inControl = await register(isolation, root).then(controlled, (error) => {
        console.warn('agent_team: no service worker yet', error);
        return false;
      });
      if (inControl) {
        fetchAll(thisPagesFiles(), aborts.signal); // kept for a visit with the server out of reach
      }
    }
    if (warming.state !== 'waiting') {
      return;
    }
    fetchAll(prefetch.map((href) => new URL(href, root).href), aborts.signal);
    const pyodideUrl = new URL('static/pyodide/pyodide.mjs', root).href;
    const indexUrl = pyodideUrl.slice(0, pyodideUrl.lastIndexOf('/') + 1);
    const where = await snapshot.place(indexUrl).catch(() => null);
    if (where && !where.refused && (await where.cache.match(where.heap))) {
      end('ready'); // a return visit: the notebook restores the snapshot already stored
      return;
    }
    if (warming.state !== 'waiting') {
      return;
    }
    say('warming');
    // The worker file the notebook page will start (worker.ts picks it by sharedMemory()), so no
    // byte is fetched for this page alone. This page is not isolated on a first visit, so where the
    // notebook page will be (a service worker) and the browser has Atomics.waitAsync, that is the
    // coincident one; booting needs no shared memory. A guess wrong costs the other file (~0.2 MB).
    const file = (name: string) => new URL(`${config.static}/${name}`, root);
    const notebookShares = sharedMemory() || (serviceWorkers() && typeof (Atomics as any).waitAsync === 'function');
    const chosen = file(notebookShares ? config.coincident : config.comlink);
    const started = startWorker({ by: 'home', pyodideUrl, loadPyodideOptions: config.options },
      { comlink: chosen, coincident: chosen });
    worker = started.worker;
    started.failed.then(() => end('failed'));
    worker.addEventListener('message', async (event: MessageEvent) => {
      if (!event.data || event.data.agentTeamStage !== 'booted') {
        return;
      }
      if (event.data.snapshot !== 'storing' || !where) {
        end('downloaded'); // no Cache Storage or no snapshot here: the HTTP cache has the files
        return;
      }
      warming.state = 'storing';
      const deadline = Date.now() + STORE_MS;
      while (worker && Date.now() < deadline) {
        if (await where.cache.match(where.heap)) {
          end('ready');
          return;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      end('downloaded');
    });
  })().catch((error) => {
    console.warn('agent_team: the kernel was not prepared on the home page', error);
    end('failed');
  });
  return warming;
}
