/**
 * Two plugins on every notebook the site opens: its stored widgets kept through a save
 * (widget-state.ts says why), and a notebook only opened left unmodified (unchanged.ts says why).
 */

import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import type { DocumentRegistry } from '@jupyterlab/docregistry';
import type { ISignal } from '@lumino/signaling';

import { learnersPart } from './unchanged';
import { WidgetMemory } from './widget-state';

/** The part of JupyterLab's notebook model used here. */
export interface INotebookModel {
  dirty: boolean;
  readonly stateChanged: ISignal<any, { name: string; newValue: any }>;
  readonly metadataChanged: ISignal<any, { key: string; newValue?: any }>;
  getMetadata(key: string): any;
  setMetadata(key: string, value: any): void;
  toJSON(): any;
}

export type Context = DocumentRegistry.IContext<DocumentRegistry.IModel>;

/** A plugin that calls `onOpen` with each notebook's context and model. */
export function onEveryNotebook(
  id: string,
  description: string,
  onOpen: (context: Context, model: INotebookModel, app: JupyterFrontEnd) => void,
): JupyterFrontEndPlugin<void> {
  return {
    id,
    description,
    autoStart: true,
    activate: (app: JupyterFrontEnd) => {
      const seen = new WeakSet<Context>(); // a second view of a notebook shares its context
      app.docRegistry.addWidgetExtension('Notebook', {
        createNew: (_: unknown, context: Context) => {
          if (!seen.has(context)) {
            seen.add(context);
            onOpen(context, context.model as unknown as INotebookModel, app);
          }
        },
      });
    },
  };
}

export const savedWidgets = onEveryNotebook(
  '@agent-team/site-extension:saved-widgets',
  'Keeps the state of the widgets a notebook shows when it is saved before they run.',
  (_, model) => {
    // Raised as the notebook loads, then at each save: jupyterlab_widgets writes the "widgets"
    // metadata synchronously in the save's 'started' signal, before the notebook is serialised;
    // Yjs applies the value set here at once and raises this signal again, with nothing left
    // to add: no loop.
    const memory = new WidgetMemory();
    model.metadataChanged.connect((_, change) => {
      if (change.key !== 'widgets') {
        return;
      }
      const kept = memory.complete(change.newValue, model.toJSON().cells);
      if (kept !== change.newValue) {
        model.setMetadata('widgets', kept);
      }
    });
  },
);

export const openedUnchanged = onEveryNotebook(
  '@agent-team/site-extension:opened-unchanged',
  'Leaves a notebook unmodified until the learner changes it.',
  (context, model) => {
    // Modified means: the learner's part differs from the one loaded or last written. What a
    // save writes is read as it starts: an edit made while it is written stays modified. A save
    // that leaves the notebook modified (Save As) or fails changes nothing.
    let saved: string | null = null;
    let writing: string | null = null;
    context.ready.then(() => {
      // Just loaded, nothing of the learner's yet; already modified if JupyterLab completed
      // the metadata as it loaded (a notebook with no language_info).
      saved = learnersPart(model.toJSON());
      model.dirty = false;
    }, () => {});
    context.saveState.connect((_, state) => {
      if (state === 'started') {
        writing = learnersPart(model.toJSON());
      } else if (state === 'completed' && !model.dirty) {
        saved = writing;
      }
    });
    model.stateChanged.connect((_, change) => {
      if (change.name === 'dirty' && change.newValue && saved === learnersPart(model.toJSON())) {
        model.dirty = false;
      }
    });
  },
);
