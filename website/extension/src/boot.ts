/**
 * The worker's first module, evaluated before the kernel's own worker code: on the page's
 * `agentTeamBoot` message it starts booting Pyodide at once (the kernel asks only seconds later,
 * once the notebook's session exists), then imports what the kernel imports first (piplite,
 * pyodide_kernel: IPython & co.), so that the kernel finds them loaded. It also registers the
 * interrupt buffer with Pyodide (Kernel -> Interrupt, see kernel.ts). A returning learner's
 * worker restores all of that from the first start's snapshot instead (snapshot.ts).
 *
 * globalThis.__agentTeamTimes: when each stage ended (Date.now()), read by bench/bench.py.
 */

import * as snapshot from './snapshot';

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
  g.__agentTeamBooted = start(boot, times);
  g.__agentTeamBooted.catch(() => {}); // reported when the kernel awaits it (booted-pyodide.ts)
});

// The kernel imports these again later: then a no-op.
const IMPORTS = 'import piplite.piplite\nimport pyodide_kernel';

async function start(boot: IBootMessage, times: Record<string, number>): Promise<any> {
  // Both at once: the key's request is not to delay Pyodide's start.
  const [pyodideModule, where] = await Promise.all([
    import(/* webpackIgnore: true */ boot.pyodideUrl),
    snapshot.place(boot.indexUrl).catch((error) => {
      console.warn('agent_team: no kernel snapshot here', error);
      return null;
    }),
  ]);
  let pyodide = where && (await snapshot.restore(pyodideModule, boot.indexUrl, where));
  // globalThis.__agentTeamSnapshot: "restored", "stored" (or "storing", "not stored") or "none"
  if (pyodide) {
    g.__agentTeamSnapshot = 'restored';
    times.booted = times.imported = Date.now();
  } else {
    pyodide = await pyodideModule.loadPyodide({
      indexURL: boot.indexUrl,
      ...boot.loadPyodideOptions,
      _makeSnapshot: !!where,
    });
    times.booted = Date.now();
    await pyodide.runPythonAsync(IMPORTS);
    times.imported = Date.now();
    // Taken now, before the kernel runs anything: stored while the kernel goes on starting.
    const taken = where && snapshot.take(pyodide);
    g.__agentTeamSnapshot = taken ? 'storing' : 'none';
    if (taken) {
      snapshot.store(where, taken).then(
        () => {
          g.__agentTeamSnapshot = 'stored';
          times.stored = Date.now();
        },
        (error) => {
          g.__agentTeamSnapshot = 'not stored';
          console.warn('agent_team: the kernel snapshot was not stored', error);
        },
      );
    }
  }
  if (boot.interrupt) {
    pyodide.setInterruptBuffer(boot.interrupt);
  }
  return pyodide;
}
