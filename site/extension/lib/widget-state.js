/**
 * Widget state saved with a notebook: keep what the notebook still shows.
 *
 * With saveState on (site/overrides.json), jupyterlab_widgets writes the state of the widgets
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
/** The `state` map of a notebook's "widgets" metadata, or null when it has none. */
export function states(metadata) {
    var _a;
    const state = (_a = metadata === null || metadata === void 0 ? void 0 : metadata[WIDGET_STATE]) === null || _a === void 0 ? void 0 : _a.state;
    return state && typeof state === 'object' && !Array.isArray(state) ? state : null;
}
/**
 * The ids of the widget models a piece of JSON refers to: a view output's model_id, a
 * container's "IPY_MODEL_<id>" children, the view outputs stored inside an Output widget.
 */
function referencedModels(json) {
    const found = new Set();
    const text = JSON.stringify(json !== null && json !== void 0 ? json : null);
    for (const pattern of [/IPY_MODEL_([\w-]+)/g, /"model_id":"([\w-]+)"/g]) {
        for (const match of text.matchAll(pattern)) {
            found.add(match[1]);
        }
    }
    return found;
}
/** The ids of the models the outputs of a notebook's cells show. */
function shownModels(cells) {
    const outputs = (Array.isArray(cells) ? cells : []).map(cell => { var _a; return (_a = cell === null || cell === void 0 ? void 0 : cell.outputs) !== null && _a !== void 0 ? _a : []; });
    return referencedModels(outputs);
}
/** `object[key]` if it is the object's own and a model's state (an object), else undefined. */
function stateOf(object, key) {
    const value = Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}
/**
 * The "widgets" metadata to save: `written` (what jupyterlab_widgets wrote), plus, from `known`
 * (model id -> state), the state of every model the notebook's outputs still show, directly or
 * inside another shown model, that `written` lacks (or holds no state for). Returns `written`
 * itself when nothing is added.
 */
export function keepShownWidgets(written, known, cells) {
    const now = states(written);
    if (!now) {
        return written;
    }
    const added = {};
    const todo = [...shownModels(cells)];
    const seen = new Set(todo);
    while (todo.length) {
        const id = todo.pop();
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
    constructor() {
        this.known = {};
    }
    /** What to save instead of `written` (the "widgets" metadata just set): keepShownWidgets. */
    complete(written, cells) {
        const kept = keepShownWidgets(written, this.known, cells);
        this.known = { ...this.known, ...states(written) }; // the newest state of a model wins
        return kept;
    }
}
