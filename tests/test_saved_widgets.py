"""site/extension/src/widget-state.ts: what the notebook's "widgets" metadata holds after a save.

jupyterlab_widgets (saveState on, site/overrides.json) writes only the widgets whose kernel is
alive; in JupyterLite the kernel dies with the page. The site's plugin completes that with the
state the notebook had before, for what its outputs still show. The browser tests check the
whole path (test_notebooks: open, save, reload; test_widgets: run, save, reload).
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "node" / "widget_state.mjs"
STATE = "application/vnd.jupyter.widget-state+json"
VIEW = "application/vnd.jupyter.widget-view+json"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (ROOT / "node_modules" / "esbuild").exists(),
    reason="needs Node.js and `npm ci` (make test does both)")


def keep(*cases):
    """Each case (written, before, cells) through keepShownWidgets, in one Node.js run."""
    payload = [dict(written=w, before=b, cells=c) for w, b, c in cases]
    run = subprocess.run(["node", str(SCRIPT)], input=json.dumps(payload), capture_output=True,
                         text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def widgets(**state):
    return {STATE: {"version_major": 2, "version_minor": 0, "state": state}}


def model(*children, **fields):
    return {"model_name": "BoxModel" if children else "HTMLModel",
            "state": {"children": [f"IPY_MODEL_{c}" for c in children], **fields}}


def shows(*ids):
    """A notebook whose code cells show these widget views."""
    return [{"cell_type": "markdown", "source": "no outputs"}] + [
        {"cell_type": "code", "outputs": [{"output_type": "display_data",
                                           "data": {VIEW: {"version_major": 2, "model_id": i}}}]}
        for i in ids]


def test_saved_before_running_keeps_what_the_outputs_show_and_what_those_contain():
    before = widgets(box=model("a", "b"), a=model(), b=model(), gone=model())
    [result] = keep((widgets(), before, shows("box")))
    assert result["kept"][STATE]["state"] == {"box": model("a", "b"), "a": model(), "b": model()}


def test_a_new_run_is_saved_as_written_and_the_old_widgets_are_dropped():
    before = widgets(old=model())
    written = widgets(new=model(value="after the run"))
    assert keep((written, before, shows("new"))) == [{"same": True}]


def test_a_live_widget_wins_over_its_older_state():
    before = widgets(box=model("a"), a=model(value="old"))
    written = widgets(a=model(value="new"))
    [result] = keep((written, before, shows("box")))
    assert result["kept"][STATE]["state"] == {"box": model("a"), "a": model(value="new")}


def test_a_view_stored_inside_an_output_widget_is_kept():
    inner = {"output_type": "display_data", "data": {VIEW: {"model_id": "inner"}}}
    before = widgets(out={"model_name": "OutputModel", "state": {"outputs": [inner]}}, inner=model())
    [result] = keep((widgets(), before, shows("out")))
    assert set(result["kept"][STATE]["state"]) == {"out", "inner"}


def test_references_in_a_cycle_end():
    before = widgets(a=model("b"), b=model("a"))
    [result] = keep((widgets(), before, shows("a")))
    assert set(result["kept"][STATE]["state"]) == {"a", "b"}


def test_nothing_to_add_or_nothing_known_leaves_what_was_written():
    assert keep(
        (widgets(), None, shows("a")),                  # a notebook that never had widgets
        (widgets(), widgets(a=model()), shows()),       # nothing shown any more
        (widgets(), widgets(), shows("a")),             # shown, but never known
    ) == [{"same": True}] * 3


@pytest.mark.parametrize("written,before,cells", [
    (None, None, None), ("junk", widgets(a=model()), shows("a")), (widgets(), {STATE: []}, shows("a")),
    (widgets(), widgets(a=model()), "not cells"), (widgets(), widgets(a=None), [{"outputs": None}]),
    ({STATE: {"state": ["a"]}}, widgets(a=model()), shows("a")),
])
def test_malformed_metadata_or_cells_never_raise(written, before, cells):
    [result] = keep((written, before, cells))
    assert "error" not in result
