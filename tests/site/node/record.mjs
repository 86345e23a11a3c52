// website/extension/src/page/record.ts (the home page's reading of the progress file), compiled on
// the fly (esbuild), applied to contents models read as JSON from stdin: prints, per model, the
// tables progressOf(modelJson(model)) finds.
import { buildSync } from "esbuild";

const src = new URL("../../../website/extension/src/page/", import.meta.url).pathname;
const built = buildSync({
  stdin: { contents: "export { modelJson, progressOf, database } from './record';", resolveDir: src, loader: "ts" },
  bundle: true, format: "esm", write: false, logLevel: "error",
});
const lib = await import("data:text/javascript," + encodeURIComponent(built.outputFiles[0].text));

let input = "";
for await (const chunk of process.stdin) input += chunk;
const { models, roots } = JSON.parse(input);
console.log(JSON.stringify({
  tables: models.map((m) => lib.progressOf(lib.modelJson(m))),
  databases: roots.map((r) => lib.database(new URL(r))),
}));
