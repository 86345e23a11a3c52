// The page's coincident (patched by website/extension/patches) against a worker that writes its
// answer the way the worker's own, unpatched copy does: first characters first, in pieces, the
// buffer's first Int32 non-zero long before the last character lands. Prints one JSON line:
// what each call returned (or the error it raised).
import coincident from "coincident";
import { CHANNEL } from "../../../node_modules/coincident/esm/channel.js";

const listeners = [];
const worker = { addEventListener: (type, fn) => listeners.push(fn) };
const answers = { echo: (x) => x, nothing: () => null, big: () => "x".repeat(5000) };
const pending = new Map();
worker.postMessage = (message) => {
  const [id, sb, action, args] = message[CHANNEL];
  if (action !== undefined) { // phase 1: the answer's length
    const text = JSON.stringify(answers[action](...args));
    pending.set(id, text);
    sb[1] = text.length;
    Atomics.store(sb, 0, 1);
    Atomics.notify(sb, 0);
    return;
  }
  // phase 2: the answer, written from its start, a few characters per tick, then notified
  const text = pending.get(id);
  const chars = new Uint16Array(sb.buffer);
  let i = 0;
  const more = () => {
    for (const end = Math.min(i + 7, text.length); i < end; i++) chars[i] = text.charCodeAt(i);
    if (i < text.length) setTimeout(more, 1);
    else Atomics.notify(sb, 0);
  };
  more();
};
const proxy = coincident(worker);
const out = {};
for (const [name, args] of [["echo", [{ a: "b", n: [1, 2, 3], s: "é\u0001" }]], ["nothing", []], ["big", []]]) {
  try {
    out[name] = await proxy[name](...args);
  } catch (error) {
    out[name] = "error: " + String(error);
  }
}
console.log(JSON.stringify(out));
