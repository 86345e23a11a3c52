/**
 * The plugin that keeps a notebook's stored widgets through a save (widget-state.ts says why).
 */

import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import type { DocumentRegistry } from '@jupyterlab/docregistry';
import type { ISignal } from '@lumino/signaling';

import { keepShownWidgets } from './widget-state';

/** The part of JupyterLab's notebook model used here. */
interface INotebookModel {
  getMetadata(key: string): any;
  setMetadata(key: string, value: any): void;
  readonly metadataChanged: ISignal<any, { key: string; newValue?: any }>;
  toJSON(): any;
}

export const savedWidgets: JupyterFrontEndPlugin<void> = {
  id: '@agent-team/site-extension:saved-widgets',
  description: "Keeps the state of the widgets a notebook shows when it is saved before they run.",
  autoStart: true,
  activate: (app: JupyterFrontEnd) => {
    app.docRegistry.addWidgetExtension('Notebook', {
      createNew: (_: unknown, context: DocumentRegistry.IContext<DocumentRegistry.IModel>) => {
        const model = context.model as unknown as INotebookModel;
        // What the notebook held last: as loaded, then as saved. jupyterlab_widgets writes the
        // "widgets" metadata synchronously in the save's 'started' signal, so this runs before
        // the notebook is serialised. Setting it again here raises this signal once more, with
        // nothing left to add: no loop.
        let before = model.getMetadata('widgets');
        model.metadataChanged.connect((_, change) => {
          if (change.key !== 'widgets') {
            return;
          }
          const kept = keepShownWidgets(change.newValue, before, model.toJSON().cells);
          before = kept;
          if (kept !== change.newValue) {
            model.setMetadata('widgets', kept);
          }
        });
      },
    });
  },
};
