"""The site's notebook plugins (website/extension/src/notebooks.ts), their logic in Node.js.

widget-state.ts: what a notebook's "widgets" metadata holds after a save. jupyterlab_widgets (save
widget state on, website/overrides.json) writes only the widgets whose kernel is alive; in JupyterLite
the kernel dies with the page. The plugin completes that with the state the notebook held before,
for what its outputs still show.

unchanged.ts: what counts as a learner's change (the "modified" mark, autosave).

The browser tests check the whole path (test_notebooks: open, save, reload, unmodified; a run,
all of it or part, saved and reloaded).
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "site" / "node" / "notebook_state.mjs"
STATE = "application/vnd.jupyter.widget-state+json"
VIEW = "application/vnd.jupyter.widget-view+json"
SAME = {"same": True}

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (ROOT / "node_modules" / "esbuild").exists(),
    reason="needs Node.js and `npm ci` (make test does both)")


def node(*cases):
    """Each case through tests/site/node/notebook_state.mjs, in one Node.js run: its results."""
    run = subprocess.run(["node", str(SCRIPT)], input=json.dumps(cases), capture_output=True,
                         text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    answers = json.loads(run.stdout)
    assert not [a for a in answers if "error" in a], answers
    return [a["result"] for a in answers]


def keep(*cases):
    """Each (written, before, cells) through keepShownWidgets."""
    return node(*({"keep": list(case)} for case in cases))


def saved_states(result):
    return result[STATE]["state"]


def widgets(**state):
    return {STATE: {"version_major": 2, "version_minor": 0, "state": state}}


def model(*children, **fields):
    return {"model_name": "BoxModel" if children else "HTMLModel",
            "state": {"children": [f"IPY_MODEL_{c}" for c in children], **fields}}


def shows(*ids):
    """A notebook's cells whose code cells show these widget views."""
    return [{"cell_type": "markdown", "source": "no outputs"}] + [
        {"cell_type": "code", "outputs": [{"output_type": "display_data",
                                           "data": {VIEW: {"version_major": 2, "model_id": i}}}]}
        for i in ids]


# -- keepShownWidgets ----------------------------------------------------------------------------

def test_saved_before_running_keeps_what_the_outputs_show_and_what_those_contain():
    before = widgets(box=model("a", "b"), a=model(), b=model(), gone=model())
    [result] = keep((widgets(), before, shows("box")))
    assert saved_states(result) == {"box": model("a", "b"), "a": model(), "b": model()}
    assert {k: v for k, v in result[STATE].items() if k != "state"} == {"version_major": 2, "version_minor": 0}


def test_a_new_run_is_saved_as_written_and_the_old_widgets_are_dropped():
    before = widgets(old=model())
    written = widgets(new=model(value="after the run"))
    assert keep((written, before, shows("new"))) == [SAME]


def test_a_live_widget_wins_over_its_older_state():
    before = widgets(box=model("a"), a=model(value="old"))
    written = widgets(a=model(value="new"))
    [result] = keep((written, before, shows("box")))
    assert saved_states(result) == {"box": model("a"), "a": model(value="new")}


def test_a_live_entry_that_is_no_state_is_replaced_by_the_stored_one():
    [result] = keep((widgets(a=None), widgets(a=model()), shows("a")))
    assert saved_states(result) == {"a": model()}


def test_a_view_stored_inside_an_output_widget_is_kept():
    inner = {"output_type": "display_data", "data": {VIEW: {"model_id": "inner"}}}
    before = widgets(out={"model_name": "OutputModel", "state": {"outputs": [inner]}}, inner=model())
    [result] = keep((widgets(), before, shows("out")))
    assert set(saved_states(result)) == {"out", "inner"}


def test_references_in_a_cycle_end():
    before = widgets(a=model("b"), b=model("a"))
    [result] = keep((widgets(), before, shows("a")))
    assert set(saved_states(result)) == {"a", "b"}


def test_what_was_kept_once_has_nothing_more_to_add_so_setting_it_again_ends():
    before = widgets(box=model("a"), a=model())
    [kept] = keep((widgets(), before, shows("box")))
    assert keep((kept, kept, shows("box")), (kept, before, shows("box"))) == [SAME, SAME]


def test_nothing_to_add_or_nothing_known_leaves_what_was_written():
    assert keep(
        (widgets(), None, shows("a")),                  # a notebook that never had widgets
        (widgets(), widgets(a=model()), shows()),       # nothing shown any more
        (widgets(), widgets(), shows("a")),             # shown, but never known
    ) == [SAME] * 3


def test_model_ids_that_are_names_of_object_properties_are_plain_ids():
    before = widgets(__proto__=model(), constructor=model())
    [result] = keep((widgets(), before, shows("__proto__", "constructor", "toString")))
    assert saved_states(result) == {"__proto__": model(), "constructor": model()}


@pytest.mark.parametrize("written,before,cells", [
    (None, None, None), ("junk", widgets(a=model()), shows("a")), (widgets(), {STATE: []}, shows("a")),
    (widgets(), widgets(a=model()), "not cells"), (widgets(), widgets(a=None), [{"outputs": None}]),
    ({STATE: {"state": ["a"]}}, widgets(a=model()), shows("a")), (widgets(), widgets(a=[1]), shows("a")),
])
def test_malformed_metadata_or_cells_never_raise_and_add_no_garbage(written, before, cells):
    [result] = keep((written, before, cells))
    assert result == SAME


# -- WidgetMemory: one notebook, save after save ---------------------------------------------------

def test_a_widget_cut_saved_and_pasted_back_keeps_its_state():
    loaded = widgets(a=model(value="stored"), b=model())
    steps = node({"memory": [
        [loaded, shows("a", "b")],    # as loaded
        [widgets(), shows("b")],      # cell of `a` cut, autosave
        [widgets(), shows("a", "b")], # pasted back, saved
    ]})[0]
    assert steps[0] == SAME
    assert saved_states(steps[1]) == {"b": model()}
    assert saved_states(steps[2]) == {"a": model(value="stored"), "b": model()}


def test_the_newest_state_a_save_wrote_is_the_one_kept_later():
    steps = node({"memory": [
        [widgets(a=model(value="stored")), shows("a")],
        [widgets(a=model(value="run")), shows("a")],  # the kernel's live widget, saved
        [widgets(), shows("a")],                      # saved again after the kernel is gone
    ]})[0]
    assert saved_states(steps[2]) == {"a": model(value="run")}


# -- learnersPart: what counts as a learner's change -----------------------------------------------

def notebook(cells=("x = 1",), **metadata):
    return {"cells": [{"cell_type": "code", "source": s, "metadata": {}, "outputs": []} for s in cells],
            "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def test_the_metadata_jupyter_writes_by_itself_is_no_change_of_the_learner():
    stored = notebook(kernelspec={"name": "python3"}, language_info={"name": "python"}, tags=["course"])
    opened = notebook(kernelspec={"name": "python", "display_name": "Python (Pyodide)"},
                      language_info={"name": "python", "version": "3.14"}, widgets=widgets(a=model()),
                      tags=["course"])
    assert node({"learnersPart": stored}, {"learnersPart": opened}) == node(
        {"learnersPart": notebook(tags=["course"])}) * 2


@pytest.mark.parametrize("changed", [
    notebook(cells=("x = 2",)),                       # a cell edited
    notebook(cells=("x = 1", "")),                    # a cell added
    notebook(tags=["mine"]),                          # other metadata
    {**notebook(), "cells": [{**notebook()["cells"][0], "metadata": {"tags": ["t"]}}]},  # a cell's metadata
    {**notebook(), "cells": [{**notebook()["cells"][0], "outputs": [{"output_type": "stream"}]}]},
])
def test_anything_else_is_a_change(changed):
    assert len(set(map(json.dumps, node({"learnersPart": notebook()}, {"learnersPart": changed})))) == 2


def test_learners_part_of_no_notebook_does_not_raise():
    assert len(node({"learnersPart": None}, {"learnersPart": "text"}, {"learnersPart": {"metadata": None}})) == 3


# -- stored-widgets.ts: a stored widget output is shown as its own HTML, a live one as the widget ----

VIEW = "application/vnd.jupyter.widget-view+json"


def bundle(model_id, html=True):
    data = {"text/plain": "Quiz 1.1", VIEW: {"version_major": 2, "version_minor": 0, "model_id": model_id}}
    return {**data, "text/html": "<p>Quiz 1.1</p>"} if html else data


def test_a_stored_widget_is_shown_as_its_html_and_a_new_one_as_the_widget():
    cells = [{"cell_type": "code", "outputs": [{"output_type": "display_data", "data": bundle("m1")},
                                               {"output_type": "stream", "text": "x"}]},
             {"cell_type": "markdown", "source": "m2"}, {"cell_type": "code", "outputs": [{"data": bundle("m3")}]}]
    assert node({"storedModels": cells}) == [["m1", "m3"]]
    assert node({"preferStored": [bundle("m1"), VIEW, ["m1", "m3"]]},     # stored: its HTML
                {"preferStored": [bundle("m9"), VIEW, ["m1", "m3"]]},     # made by this page's kernel
                {"preferStored": [bundle("m9"), VIEW, None]},             # the notebook still loading
                {"preferStored": [bundle("m1", html=False), VIEW, ["m1"]]},  # no HTML to show instead
                {"preferStored": [bundle("m1"), "text/plain", ["m1"]]},   # not drawn as a widget anyway
                {"preferStored": [{"text/plain": "x"}, None, None]}) == [
        "text/html", VIEW, "text/html", VIEW, "text/plain", None]
