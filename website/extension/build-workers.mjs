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
