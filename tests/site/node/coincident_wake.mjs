// The page's coincident (patched by website/extension/patches) in a page whose Atomics.waitAsync
// is never woken, as WebKit was seen to leave it for seconds: a worker's answer must still arrive,
// through the message website/extension/src/wake.ts sends after each notify. Argument "wake" or
// "no-wake" (the worker's notify without that message). Prints one JSON line: what each call
// returned, or "no answer" after WAIT_MS.
import { buildSync } from "esbuild";

const WAIT_MS = 3000;
const src = new URL("../../../website/extension/src/", import.meta.url).pathname;
const built = buildSync({
  stdin: { contents: "export { wakeAfterNotify } from './wake';", resolveDir: src, loader: "ts" },
  bundle: true, format: "esm", write: false, logLevel: "error",
});
const { wakeAfterNotify } = await import("data:text/javascript," + encodeURIComponent(built.outputFiles[0].text));

// The page's side: its waits are never resolved by a notify (coincident reads Atomics.waitAsync
// when it is loaded, so it is loaded after this).
Atomics.waitAsync = () => ({ async: true, value: new Promise(() => {}) });
const { default: coincident } = await import("coincident");
const { CHANNEL } = await import("../../../node_modules/coincident/esm/channel.js");

const listeners = [];
const page = { addEventListener: (type, fn) => type === "message" && listeners.push(fn) };
// The worker's side: its own Atomics (notify wrapped or not), messages to the page as tasks.
const atomics = { notify: Atomics.notify };
if (process.argv[2] === "wake") {
  wakeAfterNotify(atomics, (data) => setTimeout(() => listeners.forEach((fn) => fn({ data })), 0));
}
const answers = { echo: (x) => x, nothing: () => undefined, big: () => "y".repeat(3000) };
const pending = new Map();
page.postMessage = (message) => setTimeout(() => {
  const [id, sb, action, args] = message[CHANNEL];
  if (action !== undefined) { // phase 1: the answer's length (none: no answer to fetch)
    const result = answers[action](...args);
    if (result !== undefined) {
      pending.set(id, JSON.stringify(result));
      sb[1] = pending.get(id).length;
    }
    sb[0] = 1;
  } else { // phase 2: the answer itself
    const text = pending.get(id);
    const chars = new Uint16Array(sb.buffer);
    for (let i = 0; i < text.length; i++) chars[i] = text.charCodeAt(i);
  }
  atomics.notify(sb, 0);
}, 0);

const proxy = coincident(page);
const out = {};
for (const [name, args] of [["echo", [{ a: [1, 2], s: "é" }]], ["nothing", []], ["big", []]]) {
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(resolve, WAIT_MS, "no answer"); });
  out[name] = await Promise.race([proxy[name](...args).then((v) => v ?? null), late]);
  clearTimeout(timer);
}
console.log(JSON.stringify(out));
process.exit(0);
