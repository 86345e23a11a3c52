/**
 * The worker's first module, evaluated before the kernel's own worker code: on the page's
 * `agentTeamBoot` message it starts booting Pyodide at once (the kernel asks only seconds later,
 * once the notebook's session exists), then imports what the kernel imports first (piplite,
 * pyodide_kernel: IPython & co.), so that the kernel finds them loaded. It also registers the
 * interrupt buffer with Pyodide (Kernel -> Interrupt, see kernel.ts).
 *
 * globalThis.__agentTeamTimes: when each stage ended (Date.now()), read by bench/bench.py.
 */

interface IBootMessage {
  by: string; // who started the worker: "page", "plugin" or "kernel" (read by the browser tests)
  pyodideUrl: string;
  indexUrl: string;
  loadPyodideOptions: Record<string, unknown>;
  interrupt: Uint8Array | null;
}

const g = globalThis as any;

self.addEventListener('message', (event: MessageEvent) => {
  const boot: IBootMessage | undefined = event.data && event.data.agentTeamBoot;
  if (!boot) {
    return;
  }
  event.stopImmediatePropagation(); // not a message for the kernel's own listener
  if (g.__agentTeamBooted) {
    return;
  }
  const times: Record<string, number> = (g.__agentTeamTimes = { start: Date.now() });
  g.__agentTeamStartedBy = boot.by;
  g.__agentTeamBooted = import(/* webpackIgnore: true */ boot.pyodideUrl)
    .then((module: any) => module.loadPyodide({ indexURL: boot.indexUrl, ...boot.loadPyodideOptions }))
    .then(async (pyodide: any) => {
      times.booted = Date.now();
      if (boot.interrupt) {
        pyodide.setInterruptBuffer(boot.interrupt);
      }
      // The kernel imports these again later: then a no-op.
      await pyodide.runPythonAsync('import piplite.piplite\nimport pyodide_kernel');
      times.imported = Date.now();
      return pyodide;
    });
  g.__agentTeamBooted.catch(() => {}); // reported when the kernel awaits it (booted-pyodide.ts)
});
