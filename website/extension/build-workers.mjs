// The worker files, self-contained ES modules as the kernel's own are (it builds them with
// esbuild too): src/boot.ts in front of the kernel's worker. lib/kernel.js refers to them by URL.
import { build } from 'esbuild';

// ignoreAnnotations: the kernel's package marks its worker files side-effect free, but importing one
// is what starts the worker.
const common = { bundle: true, ignoreAnnotations: true, minify: true, format: 'esm', target: 'es2022', logLevel: 'warning' };
for (const name of ['comlink.worker', 'coincident.worker']) {
  await build({ ...common, entryPoints: [`src/${name}.ts`], outfile: `lib/${name}.js` });
}
await build({ ...common, entryPoints: ['src/booted-pyodide.ts'], outfile: 'lib/booted-pyodide.mjs' });
// The notebook pages' own script (src/page/index.ts), which the site's build writes into them
// (website/pages.py): a classic script, run before any bundle. import.meta is never read there (the
// page names the worker files itself), but worker.ts mentions it.
await build({
  ...common, entryPoints: ['src/page/index.ts'], outfile: 'lib/page.js', format: 'iife',
  define: { 'import.meta.url': 'location.href' },
});
// The home page's script (src/page/home.ts), loaded by the page website/home.py renders.
await build({
  ...common, entryPoints: ['src/page/home.ts'], outfile: 'lib/home.js', format: 'iife',
  define: { 'import.meta.url': 'location.href' },
});
// The home page's "my work" (src/mywork/index.ts), an ES module the page imports; the site's build
// puts it at mywork/mywork.js (website/mywork.py).
await build({ ...common, entryPoints: ['src/mywork/index.ts'], outfile: 'lib/mywork.js' });
// The model in the tab (src/in-tab-engine.ts with @wllama/wllama bundled in), an ES module the page
// imports only when the kernel makes a model; the site's build puts it at intab/intab.js beside the
// runtime's WebAssembly (website/intab.py).
await build({ ...common, entryPoints: ['src/in-tab-engine.ts'], outfile: 'lib/intab.js' });
