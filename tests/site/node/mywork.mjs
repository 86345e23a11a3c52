// website/extension/src/mywork/ (carry.ts, work.ts, zip.ts), compiled on the fly (esbuild), applied
// to the cases read as JSON from stdin; zips travel as base64. Each case is {op, ...}:
//   partState {saved, hash} | carryOver {published, mine} | copyName {path, day, taken}
//   unpack {site, zip}: the work in a zip, or {refused: message}
//   pack {site, notebooks, progress}: the zip (base64) | plan {saved, incoming, day} | merge {here, imported}
// Prints one JSON line: per case {result} or {error}.
import { buildSync } from "esbuild";

const src = new URL("../../../website/extension/src/mywork/", import.meta.url).pathname;
const built = buildSync({
  stdin: { contents: "export * from './carry'; export * from './work'; export * from './zip';", resolveDir: src, loader: "ts" },
  bundle: true, format: "esm", write: false, logLevel: "error",
});
const lib = await import("data:text/javascript," + encodeURIComponent(built.outputFiles[0].text));

const b64 = (bytes) => Buffer.from(bytes).toString("base64");
const bytes = (text) => new Uint8Array(Buffer.from(text, "base64"));

async function run(c) {
  switch (c.op) {
    case "partState": return lib.partState(c.saved, c.hash);
    case "keptOver": return lib.partState(lib.keptOver(c.saved, c.hash), c.hash);
    case "carryOver": return lib.carryOver(c.published, c.mine);
    case "copyName": return lib.copyName(c.path, c.day, (p) => c.taken.includes(p));
    case "unpack":
      try {
        const work = await lib.unpackWork(c.site, bytes(c.zip));
        return { notebooks: Object.fromEntries(work.notebooks), progress: work.progress };
      } catch (error) {
        if (error instanceof lib.WorkError) return { refused: error.message };
        throw error;
      }
    case "pack": return b64(lib.packWork(c.site, { notebooks: new Map(Object.entries(c.notebooks)), progress: c.progress }));
    case "plan": return lib.planImport(new Map(Object.entries(c.saved)), new Map(Object.entries(c.incoming)),
                                       (p, taken) => lib.copyName(p, c.day, taken));
    case "merge": return JSON.parse(lib.mergeProgress(c.here, c.imported));
    default: throw new Error("unknown case " + JSON.stringify(c));
  }
}

let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = [];
for (const c of JSON.parse(input)) {
  try {
    out.push({ result: await run(c) });
  } catch (error) {
    out.push({ error: String(error) });
  }
}
console.log(JSON.stringify(out));
