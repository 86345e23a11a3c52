/**
 * A stored widget shown as what it is: its output's own HTML, not a dead control.
 *
 * A widget output stored in a notebook (the course's, or a learner's saved copy) names a model the
 * kernel of this page never made: the kernel dies with the page. jupyterlab_widgets then draws the
 * model from the saved widget state with `comm_live` false, which ipywidgets marks with a red
 * "disconnected" chain icon on every control (`.jupyter-widgets-disconnected::before`), and its
 * buttons do nothing. Learners took those icons for errors (issue 35). Every course widget also
 * puts a static rendering of itself in the output (`text/html`, src/agent_team/widgets/base.py:
 * the question and its choices, never the answer); for a stored model that is what is shown here.
 * A widget the kernel displays in this page (a new model id) is drawn live as before.
 *
 * Pure: `storedModels` and `preferStored`; `storedWidgets` wires them to each notebook's rendermime.
 */

import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';

export const WIDGET_VIEW = 'application/vnd.jupyter.widget-view+json';
const HTML = 'text/html';

/** The model ids the widget outputs of a notebook's cells (nbformat JSON) show. */
export function storedModels(cells: any): Set<string> {
  const ids = new Set<string>();
  for (const cell of Array.isArray(cells) ? cells : []) {
    for (const output of Array.isArray(cell?.outputs) ? cell.outputs : []) {
      const id = output?.data?.[WIDGET_VIEW]?.model_id;
      if (typeof id === 'string' && id) {
        ids.add(id);
      }
    }
  }
  return ids;
}

/**
 * `text/html` in place of the widget view JupyterLab would choose (`chosen`) for `bundle`, when the
 * bundle has that HTML and its model is stored: in `stored`, or any model while the notebook is
 * still loading (`stored` null: nothing the kernel made can be on screen yet). Else `chosen`.
 */
export function preferStored(bundle: any, chosen: string | undefined, stored: Set<string> | null): string | undefined {
  if (chosen !== WIDGET_VIEW || typeof bundle?.[HTML] !== 'string' && !Array.isArray(bundle?.[HTML])) {
    return chosen;
  }
  const id = bundle[WIDGET_VIEW]?.model_id;
  return stored === null || stored.has(id) ? HTML : chosen;
}

export const storedWidgets: JupyterFrontEndPlugin<void> = {
  id: '@agent-team/site-extension:stored-widgets',
  description: 'Shows a stored widget as its own static HTML until its cell runs again.',
  autoStart: true,
  activate: (app: JupyterFrontEnd) => {
    app.docRegistry.addWidgetExtension('Notebook', {
      createNew: (panel: any, context: any) => {
        // Each notebook has its own rendermime (its cells share it); the widget manager swaps the
        // widget factory on it when the kernel starts, so the choice is made here, above factories.
        const rendermime = panel?.content?.rendermime;
        if (!rendermime || typeof rendermime.preferredMimeType !== 'function') {
          return;
        }
        let stored: Set<string> | null = null;
        context.ready.then(() => {
          stored = storedModels(context.model.toJSON().cells);
        }, () => {
          stored = new Set();
        });
        const choose = rendermime.preferredMimeType.bind(rendermime);
        rendermime.preferredMimeType = (bundle: any, safe?: any) => preferStored(bundle, choose(bundle, safe), stored);
      },
    });
  },
};
