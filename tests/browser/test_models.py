"""The course page's kernel calling a model server on another origin (docs/models.md).

The site's kernel (a Web Worker) runs agent_team.models against the project's fault server on
another port of 127.0.0.1 (and the real model's server, tests/llama.py): a cross-origin
call with a key, preflighted. Checked: a reply parses
with its token counts; a server that sends no CORS header is reported as a CORS refusal in words
(not a crash); a slow server is cut off by the request's own timeout (the worker's synchronous
XMLHttpRequest, which no trace hook could stop) within the caller's limit; with a key in the
kernel, model-written code runs only in the runner worker (no key, no network, a time limit),
and a team run in the very cell that made the model runs no code and says why; the key typed
into the password box is in no stored byte after save and reload.
"""

import os
import re

import pytest

from website import driver

import llama
from fault_server import FaultServer

KEY = "sk-test-browser-0123456789abcdefghijkl"

SETUP = """
from agent_team.llm import llm_policy
from agent_team.models import openai_chat
from agent_team.repo import GOAL, initial_repo
from agent_team.views import make_view
import time
def turn(fault, seconds=10, key=None, role="coder"):
    model = openai_chat("{url}/" + fault + "/v1", "smol", key=key)
    started = time.monotonic()
    out = llm_policy(role, model, retries=0, seconds=seconds)(GOAL, make_view(role, GOAL, initial_repo(), []))
    return out, time.monotonic() - started
print("ready")
"""


@pytest.fixture(scope="module")
def faults():
    server = FaultServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def real_model():
    """The real model's server (tests/llama.py), started only for the test that uses it."""
    problem = llama.missing()
    if problem:
        if os.environ.get("AGENT_TEAM_REAL_MODEL") == "1":
            pytest.fail(problem)
        pytest.skip(problem)
    process, url = llama.start()
    yield url
    llama.stop(process)


@pytest.fixture
def page(request, browser, site_url, faults):
    """A fresh context whose network guard lets the model servers' origins through, and only them."""
    context = browser.new_context()
    guard = driver.Guard(driver._origin(site_url))
    servers = [faults.url] + ([request.getfixturevalue("real_model")] if "real_model" in request.fixturenames else [])
    allowed = "|".join(re.escape(origin + "/") for origin in (guard.origin, *servers))
    context.route(re.compile(f"^(?!{allowed})(?!data:)(?!blob:)"), guard.route)
    context.on("request", guard.on_request)
    page = context.new_page()
    driver.open_notebook(page, site_url, "smoke.ipynb")
    reply = driver.execute(page, SETUP.replace("{url}", faults.url), timeout=60)
    assert reply == {"status": "ok", "out": "ready\n"}, reply
    yield page
    context.close()
    assert [u for u in guard.blocked if not u.startswith(tuple(servers))] == []  # on_request lists them all


def run(page, code, timeout=60):
    reply = driver.execute(page, code, timeout=timeout)
    assert reply["status"] == "ok", reply
    return reply["out"]


def test_cross_origin_calls_from_the_kernel_a_reply_a_cors_refusal_a_timeout(page, faults):
    """One page for the three (opening a notebook in a fresh context is most of a test's time)."""
    out = run(page, f"out, _ = turn('ok', key={KEY!r})\n"
                    "a = out['attempts'][0]\n"
                    "print(a['failure'], a['usage']['prompt_tokens'] > 0, out['patches'][0]['path'])")
    assert out == "None True src/fizzbuzz.py\n"
    sent = faults.requests[-1]
    assert sent["headers"]["authorization"] == f"Bearer {KEY}" and "origin" in sent["headers"]
    out = run(page, "out, _ = turn('nocors')\nprint(out['attempts'][0]['error'])")
    assert "refused a request from this page (CORS)" in out, out
    # the worker's XMLHttpRequest timeout, from what is left of the caller's 1.5 s
    out = run(page, "out, took = turn('slow-30', seconds=1.5)\n"
                    "print(out['attempts'][0]['failure'], took < 6)")
    assert out == "timeout True\n", out


def test_the_kernel_calls_the_real_model_server_cross_origin(real_model, page):
    out = run(page, "from agent_team.models import openai_chat\n"
                    f"model = openai_chat({real_model + '/v1'!r}, 'smollm2', max_tokens=120)\n"
                    "view = make_view('coder', GOAL, initial_repo(), [])\n"
                    "out = llm_policy('coder', model, retries=0, seconds=170)(GOAL, view)\n"
                    "a = out['attempts'][0]\n"
                    "print(a['failure'], a['error'], a['usage']['completion_tokens'] > 0)", timeout=200)
    assert out == "None None True\n", out


def test_a_team_run_in_the_cell_that_made_a_keyed_model_runs_no_code_and_says_why(page, faults):
    out = run(page, "from agent_team.supervisor import supervise\n"
                    f"model = openai_chat({faults.url + '/ok/v1'!r}, 'smol', key={KEY!r})\n"
                    "team = {r: llm_policy(r, model, retries=0, seconds=10)\n"
                    "        for r in ('planner', 'coder', 'reviewer')}\n"
                    "result = supervise(max_rounds=1, seconds=30, **team)\n"
                    "print(result.status, result.tests['errors'][0])\n"
                    f"import json; print({KEY[-12:]!r} in json.dumps(result.trace))")
    assert out == ("budget the isolated runner failed: it starts when this cell ends (a browser runs a new worker "
                   "only then): make the model in one cell and run the team in the next\nFalse\n"), out


JS_WRITE_CELLS = """(sources) => {
  const model = window.jupyterapp.shell.currentWidget.content.model.sharedModel;
  while (model.cells.length) model.deleteCell(0);
  for (const source of sources) model.insertCell(model.cells.length, {cell_type: 'code', source, metadata: {}});
  return model.cells.length;
}"""

# Every byte the site keeps for this origin, searched for `needle` inside the page: IndexedDB
# (the saved notebooks, the settings, the progress), Cache Storage (the kernel snapshot and its
# files), localStorage and sessionStorage. Returns where it was found, and how much was searched.
JS_FIND_STORED = """async (needle) => {
  const found = [];
  let searched = 0;
  const look = (where, value) => {
    let text;
    if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
      const bytes = new Uint8Array(value.buffer ? value.buffer : value);
      text = '';
      for (let i = 0; i < bytes.length; i += 65536) text += String.fromCharCode(...bytes.subarray(i, i + 65536));
    } else {
      text = typeof value === 'string' ? value : JSON.stringify(value);
    }
    searched += text ? text.length : 0;
    if (text && text.includes(needle)) found.push(where);
  };
  for (const info of await indexedDB.databases()) {
    const db = await new Promise((ok, fail) => {
      const r = indexedDB.open(info.name); r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error);
    });
    for (const store of db.objectStoreNames) {
      const values = await new Promise((ok, fail) => {
        const r = db.transaction(store).objectStore(store).getAll();
        r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error);
      });
      for (const value of values) {
        if (value instanceof Blob) look(`idb ${info.name}/${store}`, await value.arrayBuffer());
        else look(`idb ${info.name}/${store}`, value);
      }
    }
    db.close();
  }
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      look(`cache ${name} ${request.url}`, await (await cache.match(request)).arrayBuffer());
    }
  }
  for (const storage of [localStorage, sessionStorage]) {
    for (let i = 0; i < storage.length; i++) look(`storage ${storage.key(i)}`, storage.getItem(storage.key(i)));
  }
  return {found, searched};
}"""


def test_the_key_is_in_no_stored_byte_after_save_and_reload(page, faults, site_url):
    """The learner types the key into getpass's password box, runs a real turn, saves, reloads."""
    cells = [
        "from agent_team.models import ask_key, openai_chat\n"
        f"model = openai_chat({faults.url + '/echo/v1'!r}, 'smol', key=ask_key())",
        "out, _ = turn('echo', key=model._key)\nprint(out['attempts'][0]['failure'], out['message'])\nout",
        "print(repr(model))",
    ]
    assert page.evaluate(JS_WRITE_CELLS, cells) == 3
    page.evaluate(driver.JS_START_RUN_ALL, "notebook:run-all-cells")
    box = page.locator("input[type=password]")
    box.wait_for(timeout=60_000)
    box.fill(KEY)
    box.press("Enter")
    page.wait_for_function(driver.JS_RUN_ALL_DONE, timeout=120_000, polling=100)
    outputs = [driver.text_of(o) for cell in driver.cells(page) for o in cell.get("outputs", [])]
    assert any("None your key is <hidden>" in text for text in outputs), outputs
    assert faults.requests[-1]["headers"]["authorization"] == f"Bearer {KEY}"  # the key was used
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=30_000)
    page.reload()
    driver.wait_kernel_idle(page)
    driver.wait_snapshot_stored(page)
    result = page.evaluate(JS_FIND_STORED, KEY)
    assert result["searched"] > 1_000_000  # the snapshot and the notebooks were read
    assert result["found"] == [], result["found"]
    saved = page.evaluate(JS_FIND_STORED, "your key is <hidden>")
    assert any("idb" in where for where in saved["found"]), saved  # the saved notebook was among them


def test_model_written_code_runs_in_a_worker_with_no_key_and_no_network(page, faults):
    """A model holding a key starts the runner worker; the team, run in the next cell, is tested there."""
    run(page, f"from agent_team.models import worker_runner\n"
              f"model = openai_chat({faults.url + '/ok/v1'!r}, 'smol', key={KEY!r})\n"
              "team = {r: llm_policy(r, model, retries=0, seconds=10) for r in ('planner', 'coder', 'reviewer')}")
    out = run(page, "from agent_team.supervisor import supervise\n"
                    "from agent_team import oracle\n"
                    "result = supervise(max_rounds=1, seconds=60, **team)\n"
                    "print(result.status, oracle._runner is worker_runner.run_in_worker, result.tests['passed'])",
              timeout=120)
    assert out == "pass True 4\n", out
    probe = ("import js, os, sys\n"
             "cut = [n for n in ('fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', "
             "'indexedDB', 'caches', 'Worker', 'BroadcastChannel', 'postMessage') if hasattr(js, n)]\n"
             f"seen = [m for m in list(sys.modules) if m.startswith('agent_team.models.client')]\n"
             f"hunt = {KEY!r}[-12:] in repr(globals()) + repr(dict(os.environ))\n"
             "RESULT = (cut, os.path.exists('/drive'), hunt)")
    out = run(page, f"print(worker_runner.run_python_in_worker({probe!r}))")
    assert out == "([], False, False)\n", out
    out = run(page, "try:\n    worker_runner.run_python_in_worker('while True: pass', seconds=2)\n"
                    "except RuntimeError as err:\n    print(err)")
    assert out.startswith("it was stopped after 2"), out
