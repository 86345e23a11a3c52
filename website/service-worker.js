/* The site's service worker: JupyterLite's own (imported below, unchanged) with listeners that run
 * before its own (website/isolation.py, website/offline.py):
 *
 * - pages and worker scripts of the site get the two headers that make a page cross-origin
 *   isolated (Kernel -> Interrupt needs a SharedArrayBuffer), which static hosts such as GitHub
 *   Pages cannot send;
 * - every file of the site a page or the kernel asks for is kept in Cache Storage
 *   (`agent-team-site`), so that a later visit works with the server out of reach (a train, a
 *   server that is down). Two rules, so that a newly published site is never hidden behind the
 *   kept one:
 *   - a file whose name carries a hash of its content (JupyterLab's chunks, the plugin's files:
 *     SITE.immutable, listed by the build) never changes under its name: taken from the cache, no
 *     request at all;
 *   - everything else (the pages, JSON, the notebooks, Pyodide, the wheels) asks the server first,
 *     with the kept copy's validators (so an unchanged file costs a 304, not its bytes), and falls
 *     back to the kept copy only when the server cannot be reached. Online, a page is always the
 *     newest one, and it names the hashed files of its own build.
 *   A file not kept yet is left to the browser, as if there were no worker: passing ~28 MB through
 *   the worker's thread while the kernel starts cost a first visit 0.6-0.9 s (bench/README.md).
 *   It is kept later, once the site has asked for nothing for QUIET_MS, from the browser's HTTP
 *   cache (`only-if-cached`: no byte fetched twice; only a file the HTTP cache does not hold is
 *   fetched again). Pages and worker scripts, which pass through the worker anyway for their
 *   headers, are kept at once. Later revalidations bypass the HTTP cache (the kept copy is the one
 *   copy). Kept responses are stored as the server sent them and given the isolation headers when
 *   served, like fresh ones.
 * - when a build with other files is installed (the list below changes, so the browser installs
 *   this worker anew), the kept files the new build no longer has are deleted.
 *
 * What JupyterLite's worker is for (its /api/drive and /api/stdin paths: the kernel's files,
 * input(); the heartbeat), other methods, and anything of another origin still go to it. The
 * kernel's memory snapshot has its own cache (`agent-team-kernel`, snapshot.ts), never touched here.
 */
// Type-checked as it is shipped (JSDoc types): `tsc -p website` (website/tsconfig.json).
'use strict';

const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};
// The isolated runner's script (website/runner-worker.js; agent_team/runners/browser.py): the
// worker it starts may load this site's own scripts, WebAssembly and files, and nothing else.
const RUNNER = 'agent-team-runner.js';
const RUNNER_POLICY = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; worker-src 'none'";
// A request that carries a model key (the kernel's model client, agent_team/realteam/models/http.py) to
// another origin is never followed through a redirect: a browser drops Authorization on the way to
// another origin, but not x-api-key (Anthropic) or api-key (Azure). The redirect is answered with
// a refusal the client words (REFUSED names it; the redirect's target is hidden from a worker).
const KEY_HEADERS = ['authorization', 'x-api-key', 'api-key'];
const REFUSED = 'X-Agent-Team-Refused';
const CACHING = new URL(location.href).searchParams.get('enableCache') === 'true';
const KEPT = 'agent-team-site';
// The site's files, relative to its root, and those named by a hash of their content: written by
// the build (website/offline.py); this line must stay one line.
/** @type {{files: string[], immutable: string[]}} */
const SITE = { files: [], immutable: [] };
const FILES = new Set(SITE.files);
const IMMUTABLE = new Set(SITE.immutable);
const ROOT = new URL('./', location.href);
const JUPYTERLITES = /\/api\/(drive|stdin|service-worker-heartbeat)/;
// How long the site must ask for nothing before the files left to the browser are kept.
const QUIET_MS = 3000;

// The URLs kept, read once when the worker starts: the fetch listener must decide at once whether
// to answer. Until it is read, every site file takes the answering path (kept()).
/** @type {Set<string> | null} */
let index = null;
caches.open(KEPT).then((cache) => cache.keys())
  .then((requests) => { index = new Set(requests.map((request) => request.url)); }, () => { index = new Set(); });
/** @type {Map<string, string>} */
const waiting = new Map(); // key -> URL: left to the browser, to be kept from its HTTP cache
/** @typedef {{timer: ReturnType<typeof setTimeout>, done: Promise<void>, resolve: () => void}} Quiet */
/** @type {Quiet | null} */
let quiet = null; // {timer, done, resolve} while files wait

/** The site's file a URL names ('' if none): relative to the root, a folder meaning its index.html.
 * @param {URL} url @returns {string} */
function siteFile(url) {
  if (url.origin !== ROOT.origin || !url.pathname.startsWith(ROOT.pathname)) {
    return '';
  }
  let path;
  try {
    path = decodeURIComponent(url.pathname.slice(ROOT.pathname.length));
  } catch {
    return '';
  }
  if (path === '' || path.endsWith('/')) {
    path += 'index.html';
  }
  return FILES.has(path) ? path : '';
}

/** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self)).addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== location.origin && KEY_HEADERS.some((name) => request.headers.has(name))) {
    event.stopImmediatePropagation();
    event.respondWith(unfollowed(request));
    return;
  }
  if (request.method !== 'GET' || url.origin !== location.origin || JUPYTERLITES.test(url.pathname)) {
    return; // JupyterLite's
  }
  const isolate = request.mode === 'navigate' || request.destination === 'worker';
  const file = request.headers.has('range') ? '' : siteFile(url);
  if (!isolate && CACHING) {
    return; // JupyterLite's cache, when a site turns it on
  }
  event.stopImmediatePropagation();
  if (file) {
    // A page is the same whatever its query (lab/index.html?path=...): kept once, by its file.
    const key = request.mode === 'navigate' ? new URL(file, ROOT).href : request.url;
    stir(event);
    if (!isolate && index && !index.has(key)) {
      keepLater(event, key, request.url); // the browser fetches it now, as without a worker
      return;
    }
    const served = kept(event, file, key);
    event.respondWith(isolate ? served.then((response) => isolated(response, url)) : served);
  } else if (isolate) {
    event.respondWith(fetch(request).then((response) => isolated(response, url)));
  }
  // else: left to the browser (JupyterLite's worker would only fetch it itself)
});

/** The answer from the kept copy or the server (see the rules above), kept if it is new.
 * @param {FetchEvent} event @param {string} file @param {string} key @returns {Promise<Response>} */
async function kept(event, file, key) {
  const request = event.request;
  const cache = await caches.open(KEPT);
  const stored = await cache.match(key);
  if (stored && IMMUTABLE.has(file)) {
    return stored;
  }
  let response;
  try {
    response = stored ? await fetch(revalidation(request, stored)) : await fetch(request);
  } catch (error) {
    if (stored) {
      return stored; // the server is out of reach: the kept copy
    }
    throw error;
  }
  if (stored && response.status === 304) {
    return stored;
  }
  if (response.status === 200 && response.type === 'basic') {
    event.waitUntil(cache.put(key, response.clone()).then(() => index && index.add(key), (error) =>
      console.warn('agent_team: not kept for offline use', file, error)));
  }
  return response;
}

/** A site file was asked for: what waits to be kept waits QUIET_MS more (the kernel is starting).
 * @param {ExtendableEvent} event */
function stir(event) {
  if (quiet) {
    clearTimeout(quiet.timer);
    quiet.timer = setTimeout(keepWaiting, QUIET_MS);
    event.waitUntil(quiet.done);
  }
}

/** Keep `url` under `key` once the site is quiet, from the browser's HTTP cache.
 * @param {ExtendableEvent} event @param {string} key @param {string} url */
function keepLater(event, key, url) {
  waiting.set(key, url);
  if (!quiet) {
    quiet = /** @type {Quiet} */ ({ timer: setTimeout(keepWaiting, QUIET_MS) }); // done and resolve: next line
    quiet.done = new Promise((resolve) => (/** @type {Quiet} */ (quiet).resolve = resolve));
  }
  event.waitUntil(quiet.done); // the browser keeps the worker alive until they are kept
}

/** Keep what waits, one file at a time, from the HTTP cache where it holds them. */
async function keepWaiting() {
  const ended = /** @type {Quiet} */ (quiet); // set: this runs on its timer
  quiet = null;
  try {
    const cache = await caches.open(KEPT);
    const batch = [...waiting];
    waiting.clear();
    for (const [key, url] of batch) {
      try {
        const response = await fromHttpCache(url);
        if (response.status === 200 && response.type === 'basic') {
          await cache.put(key, response);
          index?.add(key);
        }
      } catch {
        // out of reach now: a later visit keeps it
      }
    }
  } finally {
    ended.resolve();
  }
}

/** `url` as the HTTP cache has it; if it has none (evicted, or no cache at all: a browser driven
 *  with request interception turns it off), or the browser lacks `only-if-cached`, fetched again:
 *  the one case that costs its bytes twice.
 * @param {string} url @returns {Promise<Response>} */
async function fromHttpCache(url) {
  try {
    return await fetch(new Request(url, { cache: 'only-if-cached', mode: 'same-origin', credentials: 'same-origin' }));
  } catch {
    return fetch(new Request(url, { cache: 'force-cache', credentials: 'same-origin' }));
  }
}

/** The request again, asking the server only for a newer copy than `stored` (a 304 otherwise),
 *  past the HTTP cache: the kept copy is the one copy.
 * @param {Request} request @param {Response} stored @returns {Request} */
function revalidation(request, stored) {
  const headers = new Headers();
  const etag = stored.headers.get('etag');
  const modified = stored.headers.get('last-modified');
  if (etag) {
    headers.set('if-none-match', etag);
  }
  if (modified) {
    headers.set('if-modified-since', modified);
  }
  return new Request(request.url, {
    headers, cache: 'no-store', credentials: 'same-origin',
    redirect: request.mode === 'navigate' ? 'manual' : request.redirect,
  });
}

/** The server's answer to a keyed request, or a refusal where the answer is a redirect.
 * @param {Request} request @returns {Promise<Response>} */
async function unfollowed(request) {
  const response = await fetch(request, { redirect: 'manual' });
  if (response.type !== 'opaqueredirect') {
    return response;
  }
  return new Response('', { status: 502, statusText: 'Redirect not followed', headers: { [REFUSED]: 'redirect' } });
}

/** `response` with the isolation headers (and the runner's policy, for the runner's script).
 * @param {Response} response @param {URL} url @returns {Response} */
function isolated(response, url) {
  if (!response.status) {
    return response; // an opaque redirect passes unchanged
  }
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION)) {
    headers.set(name, value);
  }
  if (url.pathname === new URL(RUNNER, ROOT).pathname) {
    headers.set('Content-Security-Policy', RUNNER_POLICY);
  }
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

// A new build: drop what only older builds had (before JupyterLite's own activation claims the pages).
/** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self)).addEventListener('activate', (event) => {
  event.waitUntil(caches.open(KEPT).then(async (cache) => {
    for (const request of await cache.keys()) {
      if (!siteFile(new URL(request.url))) {
        await cache.delete(request);
        index?.delete(request.url);
      }
    }
  }));
});

importScripts('./service-worker.js');
