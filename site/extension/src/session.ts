/**
 * The session of the notebook the page was opened on (`?path=part.ipynb`), started as the plugin
 * activates rather than when JupyterLab gets to it.
 *
 * JupyterLab asks for a notebook's kernel only once the notebook is loaded, drawn and
 * checkpointed: on a return visit about 3.7 s in, while the kernel's worker has restored its
 * snapshot by 1.7 s (boot.ts). Started here, the session exists by the time the notebook's
 * SessionContext looks for one by path, and it connects to it instead of starting its own, as
 * JupyterLab does with a server whose kernel outlived a reload.
 */

import type { JupyterFrontEnd } from '@jupyterlab/application';
import { PageConfig, PathExt } from '@jupyterlab/coreutils';
import type { DocumentRegistry } from '@jupyterlab/docregistry';

// A start that has not ended by then (a kernel module that never loads) holds nothing up longer.
const WAIT_MS = 10_000;

/**
 * The notebook that JupyterLite's router will open from this page's URL, or null: only the first
 * `path`, only a notebook opened as one, only on the pages that open it (JupyterLab's and the
 * notebook page; the file browser's page sends it on to the notebook page).
 */
export function notebookToOpen(search: string, page: string | undefined): string | null {
  if (page !== undefined && page !== 'notebooks') {
    return null;
  }
  const params = new URLSearchParams(search);
  const raw = params.get('path');
  const factory = params.get('factory');
  if (!raw || (factory !== null && factory !== 'Notebook')) {
    return null;
  }
  let path: string;
  try {
    path = decodeURIComponent(raw); // the router decodes it once more too
  } catch {
    return null;
  }
  path = path.replace(/^\/+/, '');
  return path.endsWith('.ipynb') && !path.includes(':') ? path : null;
}

/**
 * Start the session of the notebook in the page's URL with the kernel `kernelName`, if it exists
 * and `worthIt` says so: only on a return visit, whose kernel is restored from its snapshot in
 * about 2 s. On a first visit the kernel is ready only seconds after JupyterLab asks for it
 * anyway, and a kernel created earlier is only more work for the page while Pyodide compiles
 * and boots (in 8 A/B pairs on 2 cores, the worker booted 0.6 s later by the median).
 * Until that start has ended (either way, or after WAIT_MS), the session manager says it is not
 * ready yet: the notebook's SessionContext waits for that before it looks for a session by path,
 * so it cannot miss this one and start a second kernel. (The manager's own start does not wait
 * for `ready`.) That notebook connects to it as soon as it is loaded.
 */
export function startNotebookSession(
  app: JupyterFrontEnd,
  kernelName: string,
  worthIt: () => Promise<boolean>,
): void {
  const path = notebookToOpen(window.location.search, PageConfig.getOption('notebookPage') || undefined);
  if (!path) {
    return;
  }
  const { sessions, contents } = app.serviceManager;
  // Read by the browser tests: which notebook, and "starting", "started", "first visit",
  // "failed" or "late".
  const record = ((globalThis as any).__agentTeamEarlySession = { path, state: 'starting' });
  let late = false;
  const start = (async (): Promise<boolean> => {
    if (!(await worthIt())) {
      record.state = 'first visit';
      return false;
    }
    // A mistyped link must not leave a kernel running for nothing.
    await contents.get(path, { content: false });
    if (late) {
      return false; // the notebook may have started its own kernel by now
    }
    const session = await sessions.startNew({
      path,
      name: PathExt.basename(path),
      type: 'notebook',
      kernel: { name: kernelName },
    });
    // The session and its kernel stay; only this connection to them goes.
    session.dispose();
    record.state = 'started';
    return true;
  })();
  const ended = Promise.race([start, new Promise((resolve) => setTimeout(resolve, WAIT_MS))]).then(
    () => {
      late = true;
      record.state = record.state === 'starting' ? 'late' : record.state;
    },
    (error) => {
      late = true;
      record.state = 'failed';
      console.info('agent_team: no early session for', path, error);
    },
  );
  const ready = sessions.ready;
  Object.defineProperty(sessions, 'ready', {
    configurable: true,
    get: () => ended.then(() => ready),
  });
  void ended.then(() => delete (sessions as any).ready); // the manager's own getter again

  // JupyterLab connects a loaded notebook to its session only once it has listed (and maybe
  // made) the notebook's checkpoint, while the notebook is being drawn: 0.3 to 0.7 s on a
  // return visit. Not before it is loaded: once the session is ready, the widget manager asks
  // the kernel, then reads the notebook's stored widgets from its metadata, which would race
  // the notebook's loading.
  app.docRegistry.addWidgetExtension('Notebook', {
    createNew: (_: unknown, context: DocumentRegistry.IContext<DocumentRegistry.IModel>) => {
      if (context.localPath === path) {
        // No early session: JupyterLab starts one as usual, once the notebook's kernel is known.
        Promise.all([start, context.ready])
          .then(([started]) => started && context.sessionContext.initialize())
          .catch(() => {});
      }
    },
  });
}
