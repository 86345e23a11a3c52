// The site's service worker (website/service-worker.js) in Node.js, with a scripted network and an
// in-memory Cache Storage: tests/site/test_offline.py's harness. Reads JSON on stdin:
//   {"builds": [source, ...], "steps": [{"build": i, "request": {...}, "network": {...} | "down"} |
//                                        {"build": i, "activate": true}]}
// Every build shares one Cache Storage (a new build installed over an older one). Prints one
// observation per step: what was served (or that the worker left the request alone), and every
// request the worker sent to the network. A request the worker leaves to the browser is answered
// by the step's network, and the worker's later `only-if-cached` fetch of it by the same (as the
// browser's HTTP cache would, having just fetched it).
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const ORIGIN = 'https://site.test';
const WORKER_URL = `${ORIGIN}/course/agent-team-service-worker.js?enableCache=false`;
const input = JSON.parse(readFileSync(0, 'utf8'));
const stores = new Map();
const key = (request) => (typeof request === 'string' ? request : request.url);

function cacheNamed(name) {
  if (!stores.has(name)) {
    stores.set(name, new Map());
  }
  const entries = stores.get(name);
  return {
    match: async (request) => {
      const entry = entries.get(key(request));
      return entry && new Response(entry.body, { status: entry.status, headers: entry.headers });
    },
    put: async (request, response) => {
      entries.set(key(request), { body: await response.text(), status: response.status, headers: [...response.headers] });
    },
    keys: async () => [...entries.keys()].map((url) => new Request(url)),
    delete: async (request) => entries.delete(key(request)),
  };
}
const caches = { open: async (name) => cacheNamed(name) };

let network = 'down';
let sent = [];
async function fetch(request) {
  const headers = request.headers instanceof Headers ? request.headers : new Headers();
  sent.push({ url: request.url, cache: request.cache || 'default', ifModifiedSince: headers.get('if-modified-since') });
  if (network === 'down') {
    throw new TypeError('Failed to fetch');
  }
  const status = network.lastModified && headers.get('if-modified-since') === network.lastModified ? 304 : network.status;
  const response = new Response(status === 304 ? null : network.body, {
    status, headers: { 'last-modified': network.lastModified || '', 'content-type': 'text/plain' },
  });
  Object.defineProperty(response, 'type', { value: 'basic' }); // what a same-origin fetch gives
  return response;
}

function load(source) {
  const listeners = {};
  const self = { addEventListener: (type, listener) => (listeners[type] ||= []).push(listener) };
  vm.runInNewContext(source, {
    self, location: new URL(WORKER_URL), caches, fetch, Headers, Request, Response, URL, console,
    decodeURIComponent, importScripts: () => {},
    // the worker's quiet period passes at once here: a step ends once what it waits for is kept
    setTimeout: (callback) => setTimeout(callback, 0), clearTimeout,
  });
  return listeners;
}

async function dispatch(listeners, type, fields) {
  let served = null;
  const waits = [];
  const event = {
    ...fields,
    respondWith: (promise) => (served = promise),
    waitUntil: (promise) => waits.push(promise),
    stopImmediatePropagation: () => {},
  };
  for (const listener of listeners[type] || []) {
    listener(event);
  }
  let response = null;
  let error = null;
  try {
    response = served && (await served);
  } catch (e) {
    error = String(e);
  }
  await Promise.all(waits);
  return { served, response, error };
}

const builds = input.builds.map(load);
await new Promise((resolve) => setTimeout(resolve, 0)); // the workers have read what is kept
const out = [];
for (const step of input.steps) {
  const listeners = builds[step.build || 0];
  sent = [];
  network = step.network || 'down';
  if (step.activate) {
    await dispatch(listeners, 'activate', {});
    out.push({ kept: [...(stores.get('agent-team-site') || new Map()).keys()].sort() });
    continue;
  }
  const r = step.request;
  const request = {
    url: `${ORIGIN}/course/${r.path}`, method: r.method || 'GET', mode: r.mode || 'no-cors',
    destination: r.destination || 'script', redirect: 'follow', headers: new Headers(r.headers || {}),
  };
  const { served, response, error } = await dispatch(listeners, 'fetch', { request });
  out.push({
    handled: !!served, error, sent,
    status: response && response.status,
    body: response && (await response.text()),
    coop: response && response.headers.get('cross-origin-opener-policy'),
    csp: response && response.headers.get('content-security-policy'),
  });
}
console.log(JSON.stringify(out));
