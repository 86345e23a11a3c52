/* The isolated runner (agent_team/runners/browser.py): a second Pyodide, holding no key, that
 * runs the oracle on model-written code. The page starts it (website/extension/src/runner.ts) from
 * the site's root as agent-team-runner.js, and the site's service worker serves it with a content
 * security policy (RUNNER_POLICY in website/service-worker.js) that lets it load only this site's
 * scripts and files: no other origin by any route (fetch, import(), fonts, WebSocket, EventSource,
 * nested workers). Its boot checks that the policy is there and refuses to start without it.
 * Once Pyodide is loaded, it also deletes every API that reaches outside or keeps anything
 * (fetch, storage, workers, channels...), so the code cannot even reach this site's own files.
 * Replies go into the SharedArrayBuffer the kernel waits on: [ready, length, boot received], bytes.
 */
// @ts-check
// (tsc checks this file: website/tsconfig.json, run by tests/site/test_runner_worker.py)
'use strict';

/** What the kernel sends to boot the runner (agent_team/runners/browser.py), with the page's indexURL.
 * @typedef {{sab: SharedArrayBuffer, files: Record<string, string>, memoryMB: number, indexURL: string}} Boot */

/** @type {import('pyodide').PyodideInterface | null} */
let py = null;
/** @type {Int32Array | null} */
let state = null;
/** @type {Uint8Array | null} */
let bytes = null;
const CUT = ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'WebTransport', 'importScripts',
             'indexedDB', 'caches', 'Worker', 'SharedWorker', 'BroadcastChannel', 'postMessage', 'FontFace',
             'fonts'];
const CUT_NAVIGATOR = ['storage', 'locks', 'serviceWorker'];  // OPFS lives in navigator.storage

/** @param {string} text */
function reply(text) {
  if (!state || !bytes) {
    throw new Error('no boot message yet');
  }
  const data = new TextEncoder().encode(text).subarray(0, bytes.length);
  bytes.set(data);
  Atomics.store(state, 1, data.length);
  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
}

/** Delete `names` from `target` and from every prototype it has; throw if one is still there.
 * @param {any} target
 * @param {string[]} names */
function cut(target, names) {
  for (const name of names) {
    for (let o = target; o; o = Object.getPrototypeOf(o)) {
      try { delete o[name]; } catch (e) { /* not configurable: checked below */ }
    }
    if (name in target) {
      throw new Error(name + ' could not be removed');
    }
  }
}

/** Whether this worker may load a script from outside this site (it must not: the policy). */
async function policyMissing() {
  const outside = 'data:text/javascript,export default 1';
  try {
    await import(outside);
    return true;
  } catch (e) {
    return false;
  }
}

/** @param {Boot} m */
async function boot(m) {
  state = new Int32Array(m.sab, 0, 3);
  bytes = new Uint8Array(m.sab, 12);
  Atomics.store(state, 2, 1);  // started: what the kernel looks at to tell a slow boot from none
  if (await policyMissing()) {
    throw new Error('it was served without its content security policy (the site\'s service worker ' +
                    'sends it; reload the page), so it could reach the network: it does not start');
  }
  const grow = WebAssembly.Memory.prototype.grow, cap = m.memoryMB * 1048576;
  Object.defineProperty(WebAssembly.Memory.prototype, 'grow', {writable: false, configurable: false,
    /** @this {WebAssembly.Memory} @param {number} pages */
    value: function (pages) {
      if (this.buffer.byteLength + pages * 65536 > cap) throw new RangeError('over the runner\'s memory cap');
      return grow.call(this, pages);
    }});
  const {loadPyodide} = await import(m.indexURL + 'pyodide.mjs');
  const pyodide = await loadPyodide({indexURL: m.indexURL});
  for (const [name, text] of Object.entries(m.files)) {  // agent_team's source, by relative path
    const path = '/runner/' + name;
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf('/')));
    pyodide.FS.writeFile(path, text);
  }
  pyodide.runPython('import sys, json; sys.path.insert(0, \'/runner\'); from agent_team import oracle');
  cut(self, CUT);
  cut(self.navigator, CUT_NAVIGATOR);
  py = pyodide;  // only now may code run: a boot that failed before this point runs nothing
  reply(JSON.stringify({booted: true}));
}

self.onmessage = async (event) => {
  const m = event.data;
  try {
    if (m.type === 'boot') {
      await boot(m);
    } else if (!py) {
      throw new Error('it was asked to run before it booted');
    } else if (m.type === 'run') {
      py.globals.set('SOURCE', m.source);
      reply(py.runPython('json.dumps(oracle.run_tests({\'src/fizzbuzz.py\': SOURCE}))'));
    } else if (m.type === 'python') {
      const scope = py.toPy({});
      py.runPython(m.code, {globals: scope});
      reply(JSON.stringify({result: String(scope.get('RESULT'))}));
      scope.destroy();
    }
  } catch (e) {
    reply(JSON.stringify({error: String(e)}));
  }
};
