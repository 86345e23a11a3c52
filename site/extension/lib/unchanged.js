/**
 * Whether a learner changed a notebook: its cells and its metadata, except the metadata that
 * JupyterLab and the widget manager write by themselves.
 *
 * Opening a course notebook marked it modified at once (the tab's dot): JupyterLab writes the
 * Pyodide kernel's `kernelspec` and `language_info` over the stored ones, and jupyterlab_widgets
 * (save widget state on, site/overrides.json) marks the notebook modified for each stored widget it
 * recreates. So closing it asked to save, and autosave stored a copy in the browser, which then
 * hid any newer version of that notebook the site published. JupyterLab with a server opens it
 * unmodified. Those keys are saved with whatever the learner saves; they alone are no reason to.
 */
const WRITTEN_BY_JUPYTER = ['kernelspec', 'language_info', 'widgets'];
/** The notebook's JSON as a learner shaped it, as text to compare. */
export function learnersPart(notebook) {
    var _a;
    const metadata = { ...((_a = notebook === null || notebook === void 0 ? void 0 : notebook.metadata) !== null && _a !== void 0 ? _a : {}) };
    for (const key of WRITTEN_BY_JUPYTER) {
        delete metadata[key];
    }
    return JSON.stringify({ ...notebook, metadata });
}
