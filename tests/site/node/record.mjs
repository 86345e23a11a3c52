// website/extension/src/page/record.ts and tally.ts (the home page's reading of the progress file,
// and its count per part), compiled on the fly (esbuild), applied to what stdin holds as JSON:
// contents models (prints, per model, the tables progressOf(modelJson(model)) finds), site roots
// (their databases) and records to count (`tallies`: per record, byPart(), nextPart() and line()).
import { buildSync } from "esbuild";

const src = new URL("../../../website/extension/src/page/", import.meta.url).pathname;
const built = buildSync({
  stdin: {
    contents: "export { modelJson, progressOf, database } from './record';\nexport { byPart, nextPart, line } from './tally';",
    resolveDir: src, loader: "ts",
  },
  bundle: true, format: "esm", write: false, logLevel: "error",
});
const lib = await import("data:text/javascript," + encodeURIComponent(built.outputFiles[0].text));

let input = "";
for await (const chunk of process.stdin) input += chunk;
const { models = [], roots = [], parts = [], home = null, records = [] } = JSON.parse(input);
console.log(JSON.stringify({
  tables: models.map((m) => lib.progressOf(lib.modelJson(m), parts)),
  databases: roots.map((r) => lib.database(new URL(r))),
  tallies: records.map((data) => {
    const record = { ...lib.progressOf(data, parts), saved: 0 };
    const rows = lib.byPart(home.exercises, home.keyParts, record);
    return { rows, next: lib.nextPart(rows), lines: rows.map(lib.line) };
  }),
}));
