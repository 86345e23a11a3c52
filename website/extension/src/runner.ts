/**
 * The page's side of the isolated runner (agent_team/runners/browser.py): the kernel's worker
 * asks, and the page starts the runner's worker, passes it the kernel's messages and ends it.
 *
 * Why the page and not the kernel's worker: a worker started by another worker (a nested worker)
 * hung Firefox ESR 153 about once in 45 starts (3 in 134, issue 33): the kernel's thread and the
 * new worker's thread both waited on one condition variable for good, which fits Gecko waking
 * one waiter of it while it registers a nested worker's debugger (listeners that collect workers'
 * consoles, as WebDriver BiDi's, make it register one). A worker the page starts is registered on
 * the page's thread, without that wait. It also starts while the kernel's thread is blocked (a
 * nested worker in Chromium starts through tasks on its parent's thread: issue 22), so the kernel
 * can wait for the runner's boot in the very cell that made the model, with or without JSPI.
 *
 * The page starts only the site's own runner script, which the site's service worker serves with
 * a content security policy that keeps it off the network (website/runner-worker.js); the page,
 * not the kernel, names that script and where Pyodide is, so the kernel needs no private Pyodide
 * API to find them and cannot ask for another script. What passes through here: agent_team's
 * source files and the code to test, never the key (it lives in the kernel's model object only).
 * Replies do not come this way: the runner writes them into the SharedArrayBuffer the kernel
 * waits on.
 */

/** One message of the kernel's worker to the page, under this key. */
export const RUNNER = 'agentTeamRunner';
/** The runner's script, at the site's root (website/runner-worker.js), served with its policy:
 * two folders above Pyodide's own (static/pyodide/), as JupyterLite lays out a site (page/warm.ts
 * finds Pyodide there too). */
const SCRIPT = '../../agent-team-runner.js';

type Ask =
  | { type: 'start'; boot: Record<string, unknown> }
  | { type: 'post'; message: Record<string, unknown> }
  | { type: 'stop' };

/** Serve `kernel`'s runner, which loads Pyodide from `indexUrl`: started, fed and ended on its
 * word, and ended with it. */
export function serveRunner(kernel: Worker, indexUrl: string): void {
  let runner: Worker | null = null;
  const stop = () => {
    runner?.terminate();
    runner = null;
  };
  kernel.addEventListener('message', (event: MessageEvent) => {
    const ask: Ask | undefined = event.data && event.data[RUNNER];
    if (!ask) {
      return;
    }
    if (ask.type === 'start') {
      stop();
      runner = new Worker(new URL(SCRIPT, indexUrl), { type: 'module' });
      runner.postMessage({ ...ask.boot, indexURL: indexUrl });
    } else if (ask.type === 'post') {
      runner?.postMessage(ask.message);
    } else if (ask.type === 'stop') {
      stop();
    }
  });
  // A kernel that is shut down or restarted takes its runner with it, as a nested worker went.
  const terminate = kernel.terminate.bind(kernel);
  kernel.terminate = () => {
    stop();
    terminate();
  };
}
