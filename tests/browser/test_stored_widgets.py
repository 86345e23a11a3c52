"""A stored notebook's widgets, opened in Chromium before anything runs, look like what they are.

Each widget output stored in a notebook names a model the page's kernel never made. jupyterlab_widgets
drew it from the saved widget state as a dead control, with ipywidgets' red "disconnected" chain icon
on every line (issue 35: learners took them for errors). The site's plugin shows the output's own
static HTML instead (website/extension/src/stored-widgets.ts; the rendering is the widget's
``text/html``, src/agent_team/widgets/base.py). Running the cell still shows the live widget.
A screenshot of the stored quiz goes to the test's output folder (AGENT_TEAM_SHOTS, else tmp).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from browsers import driver

PART = "01_architecture.ipynb"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# Generous hang guards, read at call time.
OPEN_SECONDS = 180
SHOW_SECONDS = 60
RUN_SECONDS = 120

JS_WIDGET_OUTPUTS = """async (mime) => {
  const notebook = window.jupyterapp.shell.currentWidget.content;
  const found = [];
  for (let i = 0; i < notebook.widgets.length; i++) {
    const cell = notebook.widgets[i];
    if (cell.model.type !== 'code' || !cell.model.outputs.toJSON().some(o => o.data && o.data[mime])) {
      continue;
    }
    await notebook.scrollToItem(i);
    const node = cell.outputArea.node;
    found.push({index: i, text: node.textContent,
                disconnected: node.querySelectorAll('.jupyter-widgets-disconnected').length,
                html: node.querySelectorAll('.jp-RenderedHTMLCommon').length,
                live: node.querySelectorAll('.jupyter-widgets button').length});
  }
  return found;
}"""


def stored_first_lines(site_dir: Path) -> dict[int, str]:
    """{cell index: the first line of its widget output's text} in the notebook as shipped."""
    cells = json.loads((site_dir / "files" / PART).read_text())["cells"]
    return {i: "".join(o["data"]["text/plain"]).splitlines()[0] for i, c in enumerate(cells)
            for o in c.get("outputs", []) if WIDGET_VIEW in o.get("data", {})}


def widget_outputs(page):
    return {o["index"]: o for o in page.evaluate(JS_WIDGET_OUTPUTS, WIDGET_VIEW)}


def test_stored_widgets_show_their_static_rendering_not_a_broken_link(guarded, site_url, site_dir, tmp_path):
    page, _ = guarded
    expected = stored_first_lines(site_dir)
    assert len(expected) >= 4  # a prediction, two quizzes, hints, progress
    driver.open_notebook(page, site_url, PART, timeout=OPEN_SECONDS)
    # what each shows once the kernel is up and the widget manager has read the saved state
    page.wait_for_function(f"""async () => {{
      const shown = await ({JS_WIDGET_OUTPUTS})({json.dumps(WIDGET_VIEW)});
      return shown.length === {len(expected)} && shown.every(o => o.html > 0 || o.disconnected > 0);
    }}""", timeout=SHOW_SECONDS * 1000)
    shown = widget_outputs(page)
    assert sorted(shown) == sorted(expected)
    for index, first_line in expected.items():
        out = shown[index]
        assert out["disconnected"] == 0, f"cell {index} shows the disconnected icon: {out['text'][:200]!r}"
        assert out["html"] >= 1 and out["live"] == 0, f"cell {index} is not its static rendering: {out}"
        assert first_line_in(out["text"], first_line), f"cell {index} does not show {first_line!r}"
    quiz = next(i for i, line in expected.items() if "REVIEW.json" in line)  # Quiz("1.1")
    shots = Path(os.environ.get("AGENT_TEAM_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    page.evaluate(f"() => window.jupyterapp.shell.currentWidget.content.scrollToItem({quiz})")
    page.screenshot(path=str(shots / "stored_quiz.png"))

    # run the quiz's cell: the live widget, with its buttons and no disconnected icon
    page.evaluate(f"""() => {{
      const panel = window.jupyterapp.shell.currentWidget;
      panel.content.activeCellIndex = {quiz};
      return window.jupyterapp.commands.execute('notebook:run-cell');
    }}""")
    page.wait_for_function(f"""async () => {{
      const shown = await ({JS_WIDGET_OUTPUTS})({json.dumps(WIDGET_VIEW)});
      const quiz = shown.find(o => o.index === {quiz});
      return quiz && quiz.live > 0;
    }}""", timeout=RUN_SECONDS * 1000)
    live = widget_outputs(page)[quiz]
    assert live["disconnected"] == 0 and first_line_in(live["text"], expected[quiz])
    page.evaluate(f"() => window.jupyterapp.shell.currentWidget.content.scrollToItem({quiz})")
    page.screenshot(path=str(shots / "live_quiz.png"))


def first_line_in(text: str, first_line: str) -> bool:
    """Whether the page's `text` shows the start of `first_line` (text/plain), punctuation and spaces aside."""
    words = lambda s: re.sub(r"\W+", "", s)  # noqa: E731 -- the HTML and the text punctuate differently
    return words(first_line)[:15] in words(text)
