"""Part 7 in the course page: run whole with no model at all, and with a local model the learner connects.

With no server: run all goes through every cell, each live cell says it was skipped, each recording
shows its label, and nothing leaves the site's origin. With the tests' real model (SmolLM2-135M,
tests/llama.py, on another port of 127.0.0.1): the learner types the server's address and the
model's name into the form, runs the connect cell (a local server needs no key) and then the live
coder cell, which runs the team with that model in the kernel and reports its tokens.
"""

import os
import re
import time

import pytest

import llama

from browsers import driver

NOTEBOOK = "07_real_model.ipynb"
RUN_ALL_SECONDS = float(os.environ.get("AGENT_TEAM_PART7_SECONDS", "300"))  # read at call time below

# Select cell `index` and run it (the learner's Shift+Enter), without awaiting it in evaluate.
JS_RUN_CELL = """(index) => {
  const panel = window.jupyterapp.shell.currentWidget;
  panel.content.activeCellIndex = index;
  window.__runAll = undefined;
  window.jupyterapp.commands.execute('notebook:run-cell').then(
    (ok) => { window.__runAll = {ok: !!ok}; }, (e) => { window.__runAll = {ok: false, error: String(e)}; });
}"""


def texts(page):
    return [driver.text_of(o) for o in driver.outputs(driver.cells(page))]


def index_of(page, start):
    found = [i for i, c in enumerate(driver.cells(page))
             if c["cell_type"] == "code" and driver._join(c["source"]).startswith(start)]
    assert len(found) == 1, (start, found)
    return found[0]


def run_cell(page, index, seconds):
    started = time.monotonic()
    page.evaluate(JS_RUN_CELL, index)
    page.wait_for_function(driver.JS_RUN_ALL_DONE, timeout=seconds * 1000, polling=100)
    return time.monotonic() - started


def test_part_7_runs_whole_with_no_model_and_no_network(guarded, site_url):
    page, guard = guarded
    driver.open_notebook(page, site_url, NOTEBOOK, timeout=180)
    went, _ = driver.run_all(page, timeout=RUN_ALL_SECONDS)
    cells = driver.cells(page)
    driver.assert_ran_through(NOTEBOOK, went, cells)
    shown = "\n".join(texts(page))
    assert shown.count("skipped: no model connected") == 4, shown[-3000:]
    assert shown.count("recorded: SmolLM2-135M-Instruct") >= 8  # the label above every recording shown
    assert "No model connected: the cells below use the recorded runs." in shown
    assert "In the course page the runner is a second worker" in shown
    assert "scripted, not a model's reply" in shown


@pytest.fixture(scope="module")
def real_model():
    problem = llama.missing()
    if problem:
        if os.environ.get("AGENT_TEAM_REAL_MODEL") == "1":
            pytest.fail(problem)
        pytest.skip(problem)
    process, url = llama.start()
    yield url
    llama.stop(process)


def test_a_learner_connects_a_local_model_and_runs_the_team_with_it(browser, site_url, real_model):
    context = browser.new_context()
    guard = driver.Guard(driver._origin(site_url))
    allowed = "|".join(re.escape(origin + "/") for origin in (guard.origin, real_model))
    context.route(re.compile(f"^(?!{allowed})(?!data:)(?!blob:)"), guard.route)
    page = context.new_page()
    try:
        driver.open_notebook(page, site_url, NOTEBOOK, timeout=180)
        for start in ("import json", "from agent_team.widgets import Connect"):
            run_cell(page, index_of(page, start), 120)
        # the learner types into the form: the address, then the model's name
        page.locator(".widget-text input").nth(0).fill(real_model + "/v1")
        page.locator(".widget-text input").nth(1).fill("smollm2")
        page.locator(".widget-text input").nth(1).press("Tab")
        run_cell(page, index_of(page, "model = connect.connect()"), 200)
        connected = "\n".join(driver.text_of(o) for o in driver.cells(page)[index_of(page, "model = connect.connect()")]
                              .get("outputs", []))
        assert "connected: OpenAI-compatible at " + real_model in connected, connected
        assert "the model answered in" in connected
        for start in ("from agent_team.widgets import Predict", "coder = recordings", "if LIVE:\n    live_coder"):
            took = run_cell(page, index_of(page, start), 400)
        print(f"\nthe live coder cell took {took:.1f} s")
        live = "\n".join(driver.text_of(o) for o in driver.cells(page)[index_of(page, "if LIVE:\n    live_coder")]
                         .get("outputs", []))
        assert re.search(r"your model as the coder: (pass|budget) after [1-3] rounds", live), live
        tokens = re.search(r"'prompt_tokens': (\d+), 'completion_tokens': (\d+), 'calls': (\d+)", live)
        assert tokens and all(int(n) > 0 for n in tokens.groups()), live
        assert driver.errors(driver.cells(page)) == []
        print("\nthe live coder cell in the page:", live.strip().splitlines()[:2])
        assert [u for u in guard.blocked if not u.startswith(real_model)] == []
    finally:
        context.close()
