/**
 * The worker's first module, evaluated before the kernel's own worker code: on the page's
 * `agentTeamBoot` message it starts booting Pyodide at once (the kernel asks only seconds later,
 * once the notebook's session exists), then imports what the kernel imports first (piplite,
 * pyodide_kernel: IPython & co.), so that the kernel finds them loaded. It also registers the
 * interrupt buffer with Pyodide (Kernel -> Interrupt, see kernel.ts), has every notify of
 * this worker followed by a message that wakes the page (wake.ts), and keeps Python's heap below
 * 2 GiB (heap.ts). A returning learner's worker restores all of that from the first start's
 * snapshot instead (snapshot.ts).
 *
 * Every step that may hang has a bound (bounds.ts, sent by the page): finding the snapshot, and
 * restoring it (see restore below). The worker tells the page `{agentTeamStage: "restoring"}`
 * before a restore, `"plain"` if it then starts plainly, and `"booted"` after its boot, so that
 * the page can bound what this worker cannot (a restore stuck in a loop: start.ts).
 *
 * globalThis.__agentTeamTimes: when each stage ended (Date.now()), read by bench/bench.py.
 */

import type { IBounds } from './bounds';
import { TooLate, within } from './bounds';
import { capHeap } from './heap';
import * as snapshot from './snapshot';
import { wakeAfterNotify } from './wake';

interface IBootMessage {
  by: string; // who started the worker: "page", "plugin" or "kernel" (read by the browser tests)
  pyodideUrl: string;
  indexUrl: string;
  loadPyodideOptions: Record<string, unknown>;
  interrupt: Uint8Array | null;
  snapshot: boolean; // false: neither restore nor store (the page gave up on a restore)
  bounds: IBounds;
}

/** What this module keeps on the worker's global object (read by booted-pyodide.ts, the page's
 *  tests and bench/bench.py). The Pyodide object is untyped: snapshot.ts uses its private API. */
export interface IBootGlobals {
  __agentTeamBooted?: Promise<any>;
  __agentTeamStartedBy?: string;
  __agentTeamTimes?: Record<string, number>;
  __agentTeamSnapshot?: string;
}

const g = globalThis as typeof globalThis & IBootGlobals;

// Before the kernel's worker code reads Atomics.notify (its module is evaluated after this one).
wakeAfterNotify(Atomics, (message) => postMessage(message));
// Before Pyodide creates its memory: Python's heap stays below 2 GiB (heap.ts says why).
capHeap(WebAssembly.Memory);

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
  g.__agentTeamBooted.then(
    () => postMessage({ agentTeamStage: 'booted', snapshot: g.__agentTeamSnapshot }),
    // Also reported when the kernel awaits it (booted-pyodide.ts); the page need not wait for that.
    (error: unknown) => postMessage({ agentTeamStage: 'failed', error: String(error) }),
  );
});

// The kernel imports these again later: then a no-op. Then everything that runs after a cell's
// error is made deaf to SIGINT: IPython writing the traceback, formatting it again for its history,
// and the kernel's own step after each cell (the reserve, below). Kernel -> Interrupt sends SIGINT
// again a second later while the cell has not replied (kernel.ts), and one that landed while a slow
// engine (WebKit under load) still wrote the first KeyboardInterrupt's traceback made the cell reply
// "ok", the learner not told; one that landed while the error was formatted for the history (7 s
// with a full heap in Firefox) replaced the learner's traceback with IPython's own frames (both
// reproduced in Chromium with that step slowed to 2.5 s: tests/browser/test_notebooks.py). Python
// ignores a SIGINT whose handler is SIG_IGN (PyErr_SetInterruptEx), which Pyodide's interrupt buffer
// raises. Before the snapshot is taken, so a restored kernel has it too.
// A MemoryError (the heap at its limit, heap.ts) is shown with what happened in the learner's words.
// Before it is shown, a reserve of memory set aside for the kernel itself is freed (else, with a
// variable of the learner's holding the whole heap, the traceback and every later reply failed
// for want of memory: the kernel answered nothing more), and the frames of its traceback are
// cleared: the locals of the function that ran out (the list an endless loop grew) are freed
// instead of kept by the traceback IPython stores. After each cell the reserve is set aside again
// once there is room for it (4 times its size free). The reserve is taken after the snapshot
// (arm(), below in start()), so the snapshot does not carry it.
const IMPORTS = `import piplite.piplite
import pyodide_kernel
import signal as _signal
import sys as _sys
import traceback as _traceback
import types as _types
from IPython.core.interactiveshell import InteractiveShell as _Shell
_MEMORY = ("this cell used all the memory Python has in this browser (2 GB), most often in a loop "
           "that never ends and adds to a list on every turn. The cell was stopped and what its "
           "functions held was freed; your variables are kept. If one of them holds something huge, "
           "del it, or use Kernel \u2192 Restart Kernel.")
def _guard(shell, signal=_signal, sys=_sys, traceback=_traceback, words=_MEMORY, size=16 * 2**20):
    guard = _types.ModuleType("_agent_team_memory", "The kernel's memory reserve (the site's boot.ts).")
    reserve = []
    def deaf(call, first=None):
        def unstoppable(*args, **kwargs):
            before = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                if first is not None:
                    first()
                return call(*args, **kwargs)
            finally:
                signal.signal(signal.SIGINT, before)
        return unstoppable
    def arm(room=4):
        """Set the reserve aside, if there is room for it \`room\` times over (0: do not look)."""
        if not reserve:
            try:
                if room:
                    bytearray(room * size)
                reserve.append(bytearray(size))
            except MemoryError:
                pass
        return bool(reserve)
    def explain_memory():
        error = sys.exc_info()[1]
        if isinstance(error, MemoryError):
            reserve.clear()
            traceback.clear_frames(error.__traceback__)
            if not error.args:
                error.args = (words,)
    def rearmed(run, arm=deaf(arm)):
        async def run_cell_async(*args, **kwargs):
            try:
                return await run(*args, **kwargs)
            finally:
                arm()
        return run_cell_async
    shell.showtraceback = deaf(shell.showtraceback, explain_memory)
    if hasattr(shell, "_format_exception_for_storage"):  # IPython 8.13 and later
        shell._format_exception_for_storage = deaf(shell._format_exception_for_storage)
    shell.run_cell_async = rearmed(shell.run_cell_async)
    guard.arm, guard.reserve = arm, reserve
    sys.modules[guard.__name__] = guard
_guard(_Shell)
del _signal, _sys, _traceback, _types, _Shell, _guard, _MEMORY`;

async function start(boot: IBootMessage, times: Record<string, number>): Promise<any> {
  // Both at once: the key's request is not to delay Pyodide's start.
  const [pyodideModule, found] = await Promise.all([
    import(/* webpackIgnore: true */ boot.pyodideUrl),
    boot.snapshot
      ? within(snapshot.place(boot.indexUrl), boot.bounds.place, 'finding the kernel snapshot').catch((error) => {
        console.warn('agent_team: no kernel snapshot here', error);
        return null;
      })
      : null,
  ]);
  // globalThis.__agentTeamSnapshot: "restored", "stored" (or "storing", "not stored"), "none",
  // or "refused" (a restore of this build failed or hung here before: none tried or taken)
  const where = found && !found.refused ? found : null;
  let pyodide = where && (await restore(pyodideModule, boot, where));
  if (pyodide) {
    g.__agentTeamSnapshot = 'restored';
    times.booted = times.imported = Date.now();
  } else {
    pyodide = await pyodideModule.loadPyodide({
      indexURL: boot.indexUrl,
      ...boot.loadPyodideOptions,
      _makeSnapshot: !!where && !where.refused,
    });
    times.booted = Date.now();
    await pyodide.runPythonAsync(IMPORTS);
    times.imported = Date.now();
    // Taken now, before the kernel runs anything: stored while the kernel goes on starting.
    const taken = where && !where.refused && snapshot.take(pyodide);
    g.__agentTeamSnapshot = taken ? 'storing' : found && found.refused ? 'refused' : 'none';
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
  try {
    pyodide.runPython('__import__("_agent_team_memory").arm(0)'); // after the snapshot: not in it
  } catch (error) {
    console.warn('agent_team: no memory reserve for the kernel', error); // a kernel all the same
  }
  return pyodide;
}

/** The snapshot restored within its bound, or null: not there, or failed (refused by
 *  snapshot.ts; this worker then starts Pyodide plainly, and says so to the page). A restore
 *  too slow is refused too, and fails this worker's boot: whatever held it up may hold up a
 *  plain start here as well, so the page starts another worker (start.ts). */
async function restore(pyodideModule: any, boot: IBootMessage, where: snapshot.IPlace): Promise<any> {
  let began = false;
  const restoring = () => {
    began = true;
    postMessage({ agentTeamStage: 'restoring' });
  };
  try {
    const pyodide = await within(snapshot.restore(pyodideModule, boot.indexUrl, where, restoring),
      boot.bounds.restore, 'restoring the kernel snapshot');
    if (!pyodide && began) {
      postMessage({ agentTeamStage: 'plain' }); // no longer restoring: the page's bound is off
    }
    return pyodide;
  } catch (error) {
    await snapshot.refuse(where).catch(() => {});
    if (error instanceof TooLate) {
      throw error;
    }
    console.warn('agent_team: the kernel snapshot was not restored; starting afresh', error);
    postMessage({ agentTeamStage: 'plain' });
    return null;
  }
}
