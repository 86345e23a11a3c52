/* The site's service worker: JupyterLite's own (imported below, unchanged) with two listeners
 * that run before its own (website/isolation.py):
 *
 * - pages and worker scripts of the site get the two headers that make a page cross-origin
 *   isolated (Kernel -> Interrupt needs a SharedArrayBuffer), which static hosts such as GitHub
 *   Pages cannot send;
 * - every other file of the site is left to the browser: JupyterLite's worker would fetch each
 *   one itself (its cache is off by default), pure overhead, and on a busy 2-core machine its
 *   thread was seen to hold back the kernel's wheel downloads for seconds.
 *
 * What JupyterLite's worker is for (its /api/ paths: the kernel's files, input(), heartbeat)
 * and anything of another origin still goes to it.
 */
'use strict';

const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};
const CACHING = new URL(location.href).searchParams.get('enableCache') === 'true';

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== location.origin || url.pathname.includes('/api/')) {
    return; // JupyterLite's
  }
  const isolate = request.mode === 'navigate' || request.destination === 'worker';
  if (!isolate && CACHING) {
    return; // JupyterLite's cache, when a site turns it on
  }
  event.stopImmediatePropagation();
  if (isolate) {
    event.respondWith(fetch(request).then(isolated));
  }
});

function isolated(response) {
  if (!response.status) {
    return response; // an opaque redirect passes unchanged
  }
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION)) {
    headers.set(name, value);
  }
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

importScripts('./service-worker.js');
