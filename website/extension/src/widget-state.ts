/**
 * Widget state saved with a notebook: keep what the notebook still shows.
 *
 * With saveState on (website/overrides.json), jupyterlab_widgets writes the state of the widgets
 * whose kernel is alive into the notebook's metadata at every save, and only theirs. In
 * JupyterLite the kernel dies with the page, so a notebook opened with stored widgets and saved
 * before running them lost their state, and showed "Error displaying widget: model not found"
 * once reloaded. Here the state written is completed by the state the notebook had before, for
 * the widgets its outputs still show (and the widgets those contain); the rest is dropped, so a
 * notebook run again and again does not grow.
 *
 * Functions on nbformat JSON, and WidgetMemory, one notebook's memory of them; notebooks.ts
 * wires that to the notebooks.
 */

const WIDGET_STATE = 'application/vnd.jupyter.widget-state+json';

type Json = any;

/** The `state` map of a notebook's "widgets" metadata, or null when it has none. */
export function states(metadata: Json): Record<string, Json> | null {
  const state = metadata?.[WIDGET_STATE]?.state;
  return state && typeof state === 'object' && !Array.isArray(state) ? state : null;
}

/**
 * The ids of the widget models a piece of JSON refers to: a view output's model_id, a
 * container's "IPY_MODEL_<id>" children, the view outputs stored inside an Output widget.
 */
function referencedModels(json: Json): Set<string> {
  const found = new Set<string>();
  const text = JSON.stringify(json ?? null);
  for (const pattern of [/IPY_MODEL_([\w-]+)/g, /"model_id":"([\w-]+)"/g]) {
    for (const match of text.matchAll(pattern)) {
      found.add(match[1]);
    }
  }
  return found;
}

/** The ids of the models the outputs of a notebook's cells show. */
function shownModels(cells: Json[]): Set<string> {
  const outputs = (Array.isArray(cells) ? cells : []).map(cell => cell?.outputs ?? []);
  return referencedModels(outputs);
}

/** `object[key]` if it is the object's own and a model's state (an object), else undefined. */
function stateOf(object: Record<string, Json>, key: string): Json {
  const value = Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
  return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

/**
 * The "widgets" metadata to save: `written` (what jupyterlab_widgets wrote), plus, from `known`
 * (model id -> state), the state of every model the notebook's outputs still show, directly or
 * inside another shown model, that `written` lacks (or holds no state for). Returns `written`
 * itself when nothing is added.
 */
export function keepShownWidgets(written: Json, known: Record<string, Json>, cells: Json[]): Json {
  const now = states(written);
  if (!now) {
    return written;
  }
  const added: Record<string, Json> = {};
  const todo = [...shownModels(cells)];
  const seen = new Set<string>(todo);
  while (todo.length) {
    const id = todo.pop() as string;
    let entry = stateOf(now, id);
    if (entry === undefined) {
      entry = stateOf(known, id);
      if (entry === undefined) {
        continue; // unknown, or not a model's state
      }
      Object.defineProperty(added, id, { value: entry, enumerable: true });
    }
    for (const child of referencedModels(entry)) {
      if (!seen.has(child)) {
        seen.add(child);
        todo.push(child);
      }
    }
  }
  if (!Object.keys(added).length) {
    return written;
  }
  return {
    ...written,
    [WIDGET_STATE]: { ...written[WIDGET_STATE], state: { ...now, ...added } },
  };
}

/**
 * Every widget state one open notebook has held (as loaded, then as each save wrote it), so
 * that a widget whose output comes back (a cell cut, saved, then pasted back) still finds its
 * state. Lives as long as the page; only what the outputs show is saved.
 */
export class WidgetMemory {
  private known: Record<string, Json> = {};

  /** What to save instead of `written` (the "widgets" metadata just set): keepShownWidgets. */
  complete(written: Json, cells: Json[]): Json {
    const kept = keepShownWidgets(written, this.known, cells);
    this.known = { ...this.known, ...states(written) }; // the newest state of a model wins
    return kept;
  }
}
