/**
 * Two plugins on every notebook the site opens: its stored widgets kept through a save
 * (widget-state.ts says why), and a notebook only opened left unmodified (unchanged.ts says why).
 */

import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import type { DocumentRegistry } from '@jupyterlab/docregistry';
import type { ISignal } from '@lumino/signaling';

import { learnersPart } from './unchanged';
import { keepShownWidgets } from './widget-state';

/** The part of JupyterLab's notebook model used here. */
interface INotebookModel {
  dirty: boolean;
  readonly stateChanged: ISignal<any, { name: string; newValue: any }>;
  readonly metadataChanged: ISignal<any, { key: string; newValue?: any }>;
  getMetadata(key: string): any;
  setMetadata(key: string, value: any): void;
  toJSON(): any;
}

type Context = DocumentRegistry.IContext<DocumentRegistry.IModel>;

/** A plugin that calls `onOpen` with each notebook's context and model. */
function onEveryNotebook(
  id: string,
  description: string,
  onOpen: (context: Context, model: INotebookModel) => void,
): JupyterFrontEndPlugin<void> {
  return {
    id,
    description,
    autoStart: true,
    activate: (app: JupyterFrontEnd) => {
      app.docRegistry.addWidgetExtension('Notebook', {
        createNew: (_: unknown, context: Context) => {
          onOpen(context, context.model as unknown as INotebookModel);
        },
      });
    },
  };
}

export const savedWidgets = onEveryNotebook(
  '@agent-team/site-extension:saved-widgets',
  'Keeps the state of the widgets a notebook shows when it is saved before they run.',
  (_, model) => {
    // What the notebook held last: as loaded, then as saved. jupyterlab_widgets writes the
    // "widgets" metadata synchronously in the save's 'started' signal, so this runs before the
    // notebook is serialised. Setting it again here raises this signal once more, with nothing
    // left to add: no loop.
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
);

export const openedUnchanged = onEveryNotebook(
  '@agent-team/site-extension:opened-unchanged',
  'Leaves a notebook unmodified until the learner changes it.',
  (context, model) => {
    // Modified means: the learner's part differs from the one loaded or last saved.
    let saved: string | null = null;
    const remember = () => {
      saved = learnersPart(model.toJSON());
    };
    context.ready.then(remember, () => {});
    context.saveState.connect((_, state) => {
      if (state === 'completed') {
        remember();
      }
    });
    model.stateChanged.connect((_, change) => {
      if (change.name === 'dirty' && change.newValue && saved === learnersPart(model.toJSON())) {
        model.dirty = false;
      }
    });
  },
);
