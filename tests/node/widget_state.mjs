// site/extension/src/widget-state.ts, compiled on the fly (esbuild), applied to the cases read
// as JSON from stdin: [{written, before, cells}, ...]. Prints one JSON line: for each case,
// {kept} (what would be saved), {same} when that is `written` itself, or {error}.
import { buildSync } from "esbuild";

const built = buildSync({
  entryPoints: [new URL("../../site/extension/src/widget-state.ts", import.meta.url).pathname],
  bundle: true, format: "esm", write: false, logLevel: "error",
});
const { keepShownWidgets } = await import(
  "data:text/javascript," + encodeURIComponent(built.outputFiles[0].text));

let input = "";
for await (const chunk of process.stdin) input += chunk;
const results = JSON.parse(input).map(({ written, before, cells }) => {
  try {
    const kept = keepShownWidgets(written, before, cells);
    return kept === written ? { same: true } : { kept };
  } catch (error) {
    return { error: String(error) };
  }
});
console.log(JSON.stringify(results));
