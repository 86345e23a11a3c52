// website/extension/src/widget-state.ts and unchanged.ts, compiled on the fly (esbuild), applied to
// the cases read as JSON from stdin. Each case is one of
//   {keep: [written, before, cells]}           keepShownWidgets, with what `before` (a "widgets"
//                                              metadata value) holds as what is known
//   {memory: [[written, cells], ...]}          one WidgetMemory, its `complete` at each step
//   {learnersPart: notebook}                   learnersPart
//   {storedModels: cells}                      stored-widgets.ts: the model ids, as a sorted list
//   {preferStored: [bundle, chosen, stored]}   preferStored (`stored` a list, or null: loading)
// Prints one JSON line: per case {result} ({same: true} where `written` itself came back) or {error}.
import { buildSync } from "esbuild";

const src = new URL("../../../website/extension/src/", import.meta.url).pathname;
const built = buildSync({
  stdin: { contents: "export * from './widget-state'; export * from './unchanged'; export * from './stored-widgets';", resolveDir: src, loader: "ts" },
  bundle: true, format: "esm", write: false, logLevel: "error",
});
const lib = await import("data:text/javascript," + encodeURIComponent(built.outputFiles[0].text));

const same = (value, written) => (value === written ? { same: true } : value);

function run(item) {
  if (item.keep) {
    const [written, before, cells] = item.keep;
    return same(lib.keepShownWidgets(written, lib.states(before) ?? {}, cells), written);
  }
  if (item.memory) {
    const memory = new lib.WidgetMemory();
    return item.memory.map(([written, cells]) => same(memory.complete(written, cells), written));
  }
  if ("learnersPart" in item) {
    return lib.learnersPart(item.learnersPart);
  }
  if ("storedModels" in item) {
    return [...lib.storedModels(item.storedModels)].sort();
  }
  if (item.preferStored) {
    const [bundle, chosen, stored] = item.preferStored;
    return lib.preferStored(bundle, chosen, stored === null ? null : new Set(stored)) ?? null;
  }
  throw new Error("unknown case " + JSON.stringify(item));
}

let input = "";
for await (const chunk of process.stdin) input += chunk;
console.log(JSON.stringify(JSON.parse(input).map((item) => {
  try {
    return { result: run(item) };
  } catch (error) {
    return { error: String(error) };
  }
})));
