/**
 * The model in the tab: llama.cpp compiled to WebAssembly (@wllama/wllama, vendored), on the page
 * that the kernel asked (in-tab.ts). Built to the site's intab/intab.js with the runtime's files
 * beside it (website/intab.py), and imported only when the kernel makes a model: a page that
 * never does fetches none of it.
 *
 * Which build: wllama's own needs JSPI and Memory64 (Chromium; Firefox 153+); where either is
 * missing (WebKit) its compat build (Asyncify, 32-bit memory, slower), served from this site,
 * never from the CDN wllama names by default. What this tab cannot do is said in one line
 * (`cannot` in an answer), checked before a byte of a model is kept: WebAssembly SIMD, shared
 * memory, the device's memory and the storage the browser grants.
 */

import { CacheManager, Wllama } from '@wllama/wllama';

const COMPAT_MAX_BYTES = 2 ** 31; // the compat build's memory is 32-bit: a model must fit well inside 4 GiB
// A function using one SIMD instruction: llama.cpp's WebAssembly build needs SIMD.
const WASM_SIMD = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10,
  1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

const here = (name: string) => new URL(name, import.meta.url).href;
const quiet = { debug() {}, log() {}, warn: console.warn, error: console.error };

let loaded: { url: string; wllama: Wllama; info: Record<string, unknown> } | null = null;

function memory64(): boolean {
  try {
    new WebAssembly.Memory({ address: 'i64', initial: BigInt(1) } as any);
    return true;
  } catch {
    return false;
  }
}

/** Whether wllama's own build runs here (JSPI and Memory64), else its compat build. */
export function compat(): boolean {
  return !(WebAssembly as any).Suspending || !memory64();
}

/** Why this tab cannot run a model at all, in one line ('' when it can). */
export function cannot(): string {
  if (typeof SharedArrayBuffer === 'undefined' || !crossOriginIsolated) {
    return 'this page cannot share memory (it is not cross-origin isolated), which the model needs: reload the page once';
  }
  try {
    if (!WebAssembly.validate(WASM_SIMD)) {
      return 'this browser has no WebAssembly SIMD, which llama.cpp needs: use a recent Chrome, Edge, Firefox or Safari, or a model server';
    }
  } catch {
    return 'this browser cannot run WebAssembly: use a model server with openai_chat(...) instead';
  }
  return '';
}

/** Whether the browser lets this site keep files (the origin's private file system), where wllama keeps a model. */
const keeps = (): boolean => !!navigator.storage?.getDirectory;

/** Why a model of `bytes` cannot run or be kept here ('' when it can), before it is kept. */
async function tooBig(bytes: number): Promise<string> {
  const mb = (n: number) => `${Math.round(n / 1e6)} MB`;
  const gb = (navigator as any).deviceMemory as number | undefined; // Chromium's, rounded, at most 8
  if (gb && bytes * 2 > gb * 1e9) {
    return `this device reports about ${gb} GB of memory, too little for a model of ${mb(bytes)}: choose a smaller model`;
  }
  if (compat() && bytes > COMPAT_MAX_BYTES) {
    return `this browser runs the model in 32-bit memory (no JSPI or Memory64), too little for ${mb(bytes)}: choose a model under 2 GB`;
  }
  const { quota, usage } = keeps() && navigator.storage.estimate ? await navigator.storage.estimate()
    : ({} as StorageEstimate);
  if (quota !== undefined && usage !== undefined && quota - usage < bytes) {
    return `the browser grants this site ${mb(quota - usage)} more storage, and the model needs ${mb(bytes)}: free some space, or choose a smaller model`;
  }
  return '';
}

function fetchWords(url: string, err: unknown): string {
  const said = err instanceof Error ? err.message : String(err);
  const origin = new URL(url, location.href).origin;
  if (err instanceof TypeError) { // what fetch says for a refused or unreachable origin, in every engine
    return `the model file could not be fetched from ${origin} (${said}): either nothing answers there, or that server refuses this page (CORS)`;
  }
  return `the model did not load: ${said}`;
}

/** The file at `url` fetched into memory, for a browser that cannot keep it (WebKitGTK has no OPFS). */
async function fetched(url: string, signal: AbortSignal, progress: (loaded: number, total: number) => void):
  Promise<Blob[]> {
  const response = await fetch(url, { signal });
  if (!response.ok || !response.body) {
    throw new Error(`the server answered ${response.status} for the model file`);
  }
  const total = Number(response.headers.get('content-length') || 0);
  const parts: Uint8Array[] = [];
  let loaded = 0;
  for (const reader = response.body.getReader(); ;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    parts.push(value);
    loaded += value.length;
    progress(loaded, total);
  }
  return [new Blob(parts as BlobPart[])];
}

/** Load the model at `ask.url` (kept by the browser for later visits); the answer for the kernel. */
export async function load(ask: Record<string, unknown>, signal: AbortSignal,
  progress: (loaded: number, total: number) => void): Promise<Record<string, unknown>> {
  const url = String(ask.url);
  const why = cannot();
  if (why) {
    return { cannot: why };
  }
  if (loaded && loaded.url === url) {
    return { info: loaded.info };
  }
  await loaded?.wllama.exit();
  loaded = null;
  // wllama refuses to start where it can keep nothing; there the model is fetched into memory instead.
  const nowhere = { isSupported: () => true, read: async () => null, write: async () => {}, getSize: async () => -1,
    list: async () => [], delete: async () => {} };
  const wllama = new Wllama({ default: here('wllama.wasm') }, {
    logger: quiet, suppressNativeLog: true, ...(keeps() ? {} : { cacheManager: new CacheManager([nowhere]) }),
  });
  // The compat build only where the default cannot run; from this site, Firefox included.
  wllama.setCompat(compat() ? { wasm: here('compat/wllama.wasm'), worker: here('compat/wllama.js') } : null,
    'firefox_safari');
  let refused = '';
  const checked = new AbortController();
  signal.addEventListener('abort', () => checked.abort());
  let asked = false;
  const started = performance.now();
  const seen = (got: number, total: number) => {
    progress(got, total);
    if (!asked && total > 0) {
      asked = true;
      tooBig(total).then((problem) => {
        refused = problem;
        if (problem) {
          checked.abort();
        }
      });
    }
  };
  const params = {
    n_ctx: Number(ask.n_ctx),
    n_threads: typeof ask.threads === 'number' ? ask.threads : undefined,
    n_gpu_layers: 0, // the CPU: WebGPU gives garbage on some setups (ngxson/wllama#218)
  };
  try {
    if (keeps()) {
      await wllama.loadModelFromUrl(url, {
        ...params,
        signal: checked.signal,
        progressCallback: ({ loaded: got, total }: { loaded: number; total: number }) => seen(got, total),
      });
    } else {
      await wllama.loadModel(await fetched(url, checked.signal, seen), params);
    }
  } catch (err) {
    await wllama.exit().catch(() => {});
    if (refused) {
      return { cannot: refused };
    }
    return { error: signal.aborted ? 'the load was stopped' : fetchWords(url, err) };
  }
  const info = {
    build: compat() ? 'compat' : 'default',
    kept: keeps(), // false: fetched again on every visit
    threads: (wllama as any).nbThreads ?? null,
    load_seconds: Math.round(performance.now() - started) / 1000,
    name: wllama.getModelMetadata().meta['general.name'] ?? '',
  };
  loaded = { url, wllama, info };
  return { info };
}

/** One reply of the loaded model to `ask.prompt`, held to `ask.schema` and to `ask.seconds`. */
export async function ask(ask: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
  if (!loaded) {
    return { error: 'no model is loaded in this tab: make one with in_tab(...) first' };
  }
  const stop = new AbortController();
  signal.addEventListener('abort', () => stop.abort());
  let timer: ReturnType<typeof setTimeout> | undefined;
  // At the deadline the kernel is answered at once; the generation is cancelled meanwhile.
  const late = new Promise<Record<string, unknown>>((resolve) => {
    timer = setTimeout(() => {
      stop.abort();
      resolve({ failure: 'timeout', error: `no reply within ${ask.seconds} s` });
    }, Number(ask.seconds) * 1000);
  });
  const schema = ask.schema;
  const reply = loaded.wllama.createChatCompletion({
    messages: [{ role: 'user', content: String(ask.prompt) }],
    max_tokens: Number(ask.max_tokens),
    temperature: Number(ask.temperature),
    ...(schema ? { response_format: { type: 'json_schema', json_schema: { name: 'reply', schema, strict: true } } } : {}),
    abortSignal: stop.signal,
  } as any).then((done) => {
    const usage = done.usage || ({} as any);
    return {
      text: done.choices[0]?.message?.content ?? null,
      usage: { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens },
      timings: (done as any).timings ?? null,
    };
  }, (err: unknown) => ({ error: `the model in this tab failed: ${err instanceof Error ? err.message : String(err)}` }));
  try {
    return await Promise.race([reply, late]);
  } finally {
    clearTimeout(timer);
  }
}
