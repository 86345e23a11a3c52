"""What a learner sees on opening a notebook, before running anything (used by test_notebooks.py
and, in every engine, journey.py: only page.evaluate, no Playwright locators).

Every stored output must render as stored, as JupyterLab with a Jupyter server shows it:
- printed (stream) text exactly as stored: no "," starting the lines after the first;
- stored HTML/SVG outputs rendered, not sanitized away (so: as many <svg> drawings as stored);
- every saved widget shown: as its static HTML (website/extension/src/stored-widgets.ts) or, once
  its cell runs, live; no "Loading widget..." or "Error displaying widget" placeholders;
- in a learner form, no answer before the learner gives it (tools/learner_form.py): no prediction
  checked against its run ("What happened: ..."), every prediction form's choices open.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from browsers import driver

JS_OUTPUT_TEXTS = """(selector) => Array.from(document.querySelectorAll(selector), e => e.textContent)"""
JS_COUNT = "(selector) => document.querySelectorAll(selector).length"
STDOUT = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stdout']"
PLACEHOLDERS = ("Loading widget...", "Error displaying widget")


def stored(path: Path):
    """(stream texts, number of <svg> in non-widget outputs, number of widget outputs, number of
    other outputs shown as HTML) as committed."""
    nb = json.loads(path.read_text())
    streams, svgs, widgets, htmls = [], 0, 0, 0
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if out["output_type"] == "stream" and out["name"] == "stdout":
                streams.append(driver._join(out["text"]))
            elif driver.WIDGET_MIME in data:
                widgets += 1
            else:
                svgs += driver._join(data.get("text/html", "")).count("<svg")
                svgs += "image/svg+xml" in data
                htmls += "text/html" in data
    return streams, svgs, widgets, htmls


def problems(page, path: Path, timeout=60):
    """What differs from the stored outputs in the open notebook (an empty list: nothing).

    Looked at again every half second until nothing differs or `timeout` s have passed: the widget
    manager restores the saved widgets only once the kernel answers, and on a loaded machine the
    notebook may still be drawing its outputs when the kernel is already idle.
    """
    expected = stored(path)
    deadline = time.monotonic() + timeout
    while True:
        found = _differences(page, *expected)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.5)


def live_or_html(page):
    """Outputs shown as a live widget or as HTML: a saved widget is one or the other (as its stored
    HTML until its cell runs: website/extension/src/stored-widgets.ts), as is every HTML output."""
    return (page.evaluate(JS_COUNT, ".jp-OutputArea-output > .jupyter-widgets")
            + page.evaluate(JS_COUNT, ".jp-OutputArea-output[data-mime-type='text/html']"))


def _differences(page, streams, svgs, widgets, htmls):
    found = []
    rendered = "\n".join(page.evaluate(JS_OUTPUT_TEXTS, STDOUT))
    commas = [line for line in rendered.splitlines() if line.startswith(",")]
    if commas:
        found.append(f"{len(commas)} printed lines start with a comma, e.g. {commas[0]!r}")
    missing = [s for s in streams if s.rstrip("\n") not in rendered]
    if missing:
        found.append(f"{len(missing)} stored printed outputs not shown as stored, e.g. {missing[0][:80]!r}")
    shown = live_or_html(page)
    texts = "\n".join(page.evaluate(JS_OUTPUT_TEXTS, ".jp-OutputArea-output"))
    waiting = [p for p in PLACEHOLDERS if p in texts]
    if waiting or shown < widgets + htmls:
        found.append(f"{widgets} saved widgets and {htmls} HTML outputs, {shown} shown live or as HTML; "
                     f"placeholders shown: {waiting}")
    if page.evaluate(driver.JS_MODIFIED):
        found.append("marked modified though nothing was changed: closing asks to save, autosave stores "
                     "a copy (website/extension/src/unchanged.ts)")
    # Widget views draw SVG too: count only drawings outside them.
    drawn = page.evaluate(JS_COUNT, ".jp-OutputArea-output:not(:has(.jupyter-widgets)) svg")
    if drawn < svgs:
        found.append(f"{svgs} stored SVG drawings, {drawn} rendered (HTML sanitized: notebook not trusted?)")
    return found


JS_DISABLED_CHOICES = "() => document.querySelectorAll('.jp-OutputArea-output .widget-radio-box input:disabled').length"
REVEALED = "What happened:"


def answers_shown(page):
    """What a learner form shows of a prediction's answer before anything runs (an empty list: nothing)."""
    found = []
    revealed = [t for t in page.evaluate(JS_OUTPUT_TEXTS, ".jp-OutputArea-output") if REVEALED in t]
    if revealed:
        found.append(f"{len(revealed)} predictions shown checked against their run, e.g. {revealed[0][:80]!r}")
    disabled = page.evaluate(JS_DISABLED_CHOICES)
    if disabled:
        found.append(f"{disabled} choices of a prediction or quiz shown disabled, as if already answered")
    return found


# jupyterlab_widgets' own race, seen on the site before and after it had its own plugin (about 1 in
# 12 first opens under load): a second restore, started when the kernel's connection opens, says
# "restored" before the first one has recreated the notebook's saved widgets, and each of them
# says this until reloaded. Not the kernel (which answered: widgets restored say nothing of it).
RESTORE_RACE = "Error displaying widget: model not found"


def problems_after_open(page, path: Path, reloads=2):
    """problems() of the notebook just opened; after jupyterlab_widgets' restore race (only that),
    those of a reload, at most `reloads` times: a page that shows it every time fails."""
    found = problems(page, path)
    for _ in range(reloads):
        texts = page.evaluate(JS_OUTPUT_TEXTS, ".jp-OutputArea-output")
        raced = [t for t in texts if t.strip() == RESTORE_RACE]
        others = [t for t in texts if t.strip().startswith(PLACEHOLDERS) and t.strip() != RESTORE_RACE]
        if not (found and raced and not others and all("saved widgets" in f for f in found)):
            break
        print(f"{path.name}: {len(raced)} widgets hit jupyterlab_widgets' restore race; reloading")
        page.reload()
        driver.wait_kernel_idle(page, 180)
        found = problems(page, path)
    return found


def save_and_reload(page, timeout=180):
    """Save the open notebook (to the browser's storage, as a learner does), reload the page."""
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function("() => !(" + driver.JS_MODIFIED + ")()",
                           timeout=30_000)
    page.reload()
    driver.wait_kernel_idle(page, timeout)
