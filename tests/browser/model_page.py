"""The course page's kernel as a model client, written once for every engine (test_models.py).

A page is any of engines.py's pages or Playwright's own (driver.execute runs code in its kernel
through `evaluate` alone). `prepare` opens the smoke notebook and defines `turn`, one coder turn
against a fault of the fault server (tests/fault_server.py) on another origin;
`check_cross_origin` and `check_runner` are what every engine must do with it.
"""

from __future__ import annotations

import json
import re
import time

from browsers import driver
from hostile_server import ECHOES, ERRORS, Hostile, allow_all, answer

KEY = "sk-test-browser-0123456789abcdefghijkl"

SETUP = """
from agent_team.realteam.llm import llm_policy
from agent_team.realteam.models import openai_chat
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


def run(page, code, timeout=60):
    """What `code` printed in the page's kernel; it must end without an exception."""
    reply = driver.execute(page, code, timeout=timeout)
    assert reply["status"] == "ok", reply
    return reply["out"]


def prepare(page, site_url, faults_url, timeout=120):
    """Open the smoke notebook (a first visit: `timeout` s to kernel idle) and define `turn` in its kernel."""
    driver.open_notebook(page, site_url, "smoke.ipynb", timeout=timeout)
    assert run(page, SETUP.replace("{url}", faults_url)) == "ready\n"


def check_cross_origin(page, faults):
    """A keyed call that parses, a server with no CORS header refused in words, a slow one cut off.

    The CORS refusal is where the engines differ: Chromium's synchronous XMLHttpRequest raises a
    NetworkError, Firefox's returns status 0 without raising; either way the learner must read
    "refused ... (CORS)" and what to set on the server, not a crash or "not JSON".
    """
    out = run(page, f"out, _ = turn('ok', key={KEY!r})\n"
                    "a = out['attempts'][0]\n"
                    "print(a['failure'], a['usage']['prompt_tokens'] > 0, out['patches'][0]['path'])")
    assert out == "None True src/fizzbuzz.py\n", out
    sent = faults.requests[-1]
    assert sent["headers"]["authorization"] == f"Bearer {KEY}" and "origin" in sent["headers"]
    out = run(page, "out, _ = turn('nocors')\na = out['attempts'][0]\nprint(a['failure'], a['error'])")
    assert out.startswith("error ") and "the server refused a request from this page (CORS)" in out, out
    assert "must answer with Access-Control-Allow-Origin" in out, out  # what to set (wire.hint_for)
    # the worker's XMLHttpRequest timeout, from what is left of the caller's 1.5 s
    out = run(page, "out, took = turn('slow-30', seconds=1.5)\n"
                    "print(out['attempts'][0]['failure'], took < 6)")
    assert out == "timeout True\n", out


def check_real_model(page, url):
    """One coder turn on the real model's server (tests/llama.py), cross-origin: a reply that parses."""
    out = run(page, "from agent_team.realteam.models import openai_chat\n"
                    f"model = openai_chat({url + '/v1'!r}, 'smollm2', max_tokens=120)\n"
                    "view = make_view('coder', GOAL, initial_repo(), [])\n"
                    "out = llm_policy('coder', model, retries=0, seconds=170)(GOAL, view)\n"
                    "a = out['attempts'][0]\n"
                    "print(a['failure'], a['error'], a['usage']['completion_tokens'] > 0)", timeout=200)
    assert out == "None None True\n", out


def check_runner(page, faults):
    """With a key in the kernel the team's code is tested in the runner worker (made in one cell,
    used in the next): it has no network API, no drive, no key, a memory cap and a time limit."""
    run(page, f"from agent_team.runners import browser\n"
              f"model = openai_chat({faults.url + '/ok/v1'!r}, 'smol', key={KEY!r})\n"
              "team = {r: llm_policy(r, model, retries=0, seconds=10) for r in ('planner', 'coder', 'reviewer')}")
    out = run(page, "from agent_team.supervisor import supervise\n"
                    "from agent_team import oracle\n"
                    "result = supervise(max_rounds=1, seconds=60, **team)\n"
                    "print(result.status, oracle.current_runner() is browser.run_in_worker, result.tests['passed'])",
              timeout=120)
    assert out == "pass True 4\n", out
    probe = ("import js, os, sys\n"
             "cut = [n for n in ('fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', "
             "'indexedDB', 'caches', 'Worker', 'BroadcastChannel', 'postMessage') if hasattr(js, n)]\n"
             f"hunt = {KEY!r}[-12:] in repr(globals()) + repr(dict(os.environ))\n"
             "RESULT = (cut, os.path.exists('/drive'), hunt)")
    out = run(page, f"print(browser.run_python_in_worker({probe!r}))")
    assert out == "([], False, False)\n", out
    check_no_way_out(page)
    # the memory cap (browser.MEMORY_MB, 512): 200 MB fit, 600 MB more do not; the runner still answers
    hog = ("kept = bytearray(200 << 20)\n"
           "try:\n    more = bytearray(600 << 20)\n    RESULT = 'allocated'\n"
           "except MemoryError:\n    RESULT = 'refused'")
    out = run(page, f"print(browser.run_python_in_worker({hog!r}), "
                    "browser.run_python_in_worker('RESULT = 2'))")
    assert out == "refused 2\n", out
    out = run(page, "try:\n    browser.run_python_in_worker('while True: pass', seconds=2)\n"
                    "except RuntimeError as err:\n    print(err)")
    assert out.startswith("it was stopped after 2"), out


# Code that escaped the oracle's sandbox in the runner tries every route out it has left: a script
# of another origin through import() (from eval, run_js, the Function constructor), Pyodide's own
# package loader, a font, a WebSocket, and the origin private file system. {url}: a listener's.
ESCAPES = """import js, pyodide.code, pyodide_js
tries = {{
    'eval import': lambda: js.eval("import('{url}/eval.mjs').catch(() => 0)"),
    'run_js import': lambda: pyodide.code.run_js("import('{url}/run_js.mjs').catch(() => 0)"),
    'Function import': lambda: js.Function.new("return import('{url}/function.mjs').catch(() => 0)")(),
    'loadPackage': lambda: pyodide_js.loadPackage('{url}/package.whl'),
    'font': lambda: js.FontFace.new('x', 'url({url}/font.woff)').load(),
    'fonts': lambda: js.fonts.load('1em x'),
    'websocket': lambda: js.WebSocket.new('{ws}/socket'),
    'opfs': lambda: js.navigator.storage.getDirectory(),
}}
ran = []
for name, attempt in tries.items():
    try:
        attempt()
        ran.append(name)
    except Exception:
        pass
RESULT = ran"""


def check_no_way_out(page):
    """No request leaves the runner by any route it still has, whatever ran: the listener, which
    would answer anything (CORS and CORP allowed), hears nothing; OPFS is not there at all."""
    with Hostile(cors=True, default=allow_all) as listener:
        out = run(page, "print(browser.run_python_in_worker("
                        + repr(ESCAPES.format(url=listener.url, ws=listener.url.replace("http", "ws"))) + "))")
        time.sleep(3)  # what ran asked asynchronously: long enough for a request to arrive
    assert listener.heard() == [], (listener.heard(), out)
    assert "opfs" not in out and "font" not in out, out


def check_redirect_not_followed(page, server, elsewhere):
    """A model server that redirects a keyed call to another origin (`server`, a Hostile server that
    redirects to `elsewhere`): the key never gets there, for Authorization (which a browser drops
    on the way) and for x-api-key (which it does not: the site's service worker refuses to follow),
    and the learner reads why."""
    server.requests.clear(), elsewhere.requests.clear()
    base = server.url + "/v1"
    out = run(page, "from agent_team.realteam.models import anthropic_messages, openai_chat\n"
                    f"for model in (openai_chat({base!r}, 'smol', key={KEY!r}),\n"
                    f"              anthropic_messages('smol', base_url={base!r}, key={KEY!r})):\n"
                    "    view = make_view('coder', GOAL, initial_repo(), [])\n"
                    "    a = llm_policy('coder', model, retries=0, seconds=20)(GOAL, view)['attempts'][0]\n"
                    "    print(a['failure'], '|', a['error'])", timeout=90)
    assert [p for p in server.heard("POST") if p.startswith("POST /v1")], server.heard()  # the calls were made
    assert elsewhere.heard() == [], (elsewhere.heard(), out)
    assert not any(KEY in str(r["headers"]) for r in elsewhere.requests)
    lines = out.splitlines()
    assert len(lines) == 2, out
    for line in lines:
        assert "answered with a redirect" in line and "the key went nowhere else" in line, out
        assert KEY not in line


def check_echoes(page, hostile):
    """The browser's client against a hostile server (tests/hostile_server.py, with CORS) that
    echoes the key back in every encoding a reply, an error or a page can carry it: the key, or
    any 12 characters of it, is in nothing a turn hands on (what the trace keeps), decoded or not,
    nor in the connection test's words and the Connect form's HTML."""
    for name, reply in {**ECHOES, **ERRORS}.items():
        body = reply(KEY)  # an ECHOES entry is a reply's body, an ERRORS one a whole answer
        raw = body if isinstance(body, list) else answer(200, body)
        hostile.routes[name] = lambda request, raw=raw: raw
    names = list(ECHOES) + list(ERRORS)
    out = run(page, "import json, html, urllib.parse\n"
                    "from agent_team.realteam.models import openai_chat\n"
                    "from agent_team.realteam.models.connection import probe_connection\n"
                    "from agent_team.render.connect import connect_html\n"
                    "said = []\n"
                    f"for name in {names!r}:\n"
                    f"    model = openai_chat({hostile.url!r} + '/' + name + '/v1', 'smol', key={KEY!r})\n"
                    "    view = make_view('coder', GOAL, initial_repo(), [])\n"
                    "    turn = llm_policy('coder', model, retries=0, seconds=10)(GOAL, view)\n"
                    "    conn = probe_connection(model, seconds=5)\n"
                    "    text = json.dumps(turn, default=repr) + conn.words + connect_html('p', name, 'smol', conn)\n"
                    "    said.append(text + html.unescape(urllib.parse.unquote(urllib.parse.unquote(text))))\n"
                    "print(json.dumps(said))", timeout=240)
    said = json.loads(out)
    assert len(said) == len(names), out[:500]
    for name, text in zip(names, said):
        for piece in (KEY, KEY[:12], KEY[-12:], KEY[10:22]):
            assert piece not in text and json.dumps(piece)[1:-1] not in text, (name, text[:800])
    # and nothing the site keeps holds it (the whole key: its last 12 letters are in the site's scripts)
    stored = page.evaluate(JS_FIND_STORED, KEY)
    assert stored["searched"] > 0 and stored["found"] == [], stored


def check_first_run_at_once(page, faults, times=5):
    """The cell after the one that made a keyed model asks the runner at once, `times` times over,
    each with a fresh runner: every first boot answers. Both cells are sent together, as "run all"
    sends them, so the kernel goes from one to the next with no pause of the test's own in between.
    The kernel itself starts no worker (the page does, website/extension/src/runner.ts): a worker
    started by the kernel's worker never started while the kernel waited for it in Chromium (issue
    22: 6 of 8 first boots), and in Firefox hung both threads for good now and then (issue 33: 3
    of 134). The count of workers the kernel made is what fails at once where the hang is rare."""
    run(page, "from agent_team.runners import browser\nbrowser.BOOT_SECONDS = 30")
    run(page, "import js\njs.eval(" + repr(COUNT_NESTED) + ")")
    # the model starts the runner only the first time (oracle.run_elsewhere is set once): a fresh
    # runner each time, started in this cell as the model's first start is; the steps go to the
    # console (Firefox's is shown under a failed test)
    mark = "js.console.log('first run at once: {}')\n"
    make = (f"model = openai_chat({faults.url + '/ok/v1'!r}, 'smol', key={KEY!r})\nimport js\n"
            + mark.format("cell 1, stop") + "browser._stop()\n" + mark.format("cell 1, start")
            + "browser.start()\n" + mark.format("cell 1, started"))
    ask = (mark.format("cell 2, ask") + "print(browser.run_python_in_worker('RESULT = 6 * 7'))\n"
           + mark.format("cell 2, answered"))
    for i in range(times):  # stops at the first that fails: the kernel is stuck after one
        answers = driver.execute_at_once(page, [make, ask], timeout=120)
        assert answers == [{"status": "ok", "out": ""}, {"status": "ok", "out": "42\n"}], (i, times, answers)
    made = run(page, "print(js.agentTeamNestedWorkers)")
    assert made == "0\n", f"the kernel's worker started {made.strip()} workers itself (the page must)"


# In the kernel's worker: `Worker` counts the workers made through it (and still makes them).
COUNT_NESTED = """(() => {
  const Made = self.Worker;
  self.agentTeamNestedWorkers = 0;
  self.Worker = function (...args) { self.agentTeamNestedWorkers++; return new Made(...args); };
})()"""


def check_boot_bounded(page):
    """A runner whose boot does not answer within its limit is ended, and the oracle's report says
    so in words (the team's attempt fails; nothing waits for good); the next run starts a new one.
    (The page starts only the site's runner script, so a boot too slow for a short limit stands in
    for one that never answers.)"""
    out = run(page, "from agent_team import oracle\nfrom agent_team.runners import browser\n"
                    "browser.BOOT_SECONDS, started = 0.05, time.monotonic()\n"
                    "browser._stop()\n"
                    "try:\n"
                    "    report = oracle.run_tests({'src/fizzbuzz.py': 'def fizzbuzz(n):\\n    return str(n)'})\n"
                    "finally:\n"
                    "    browser.BOOT_SECONDS = 60.0\n"
                    "print(report['errors'][0], '|', time.monotonic() - started < 10, browser._runner)")
    assert re.fullmatch(r"the isolated runner failed: it did not start within 0.05 s "
                        r"\((no answer|the worker never started)\) \| True \{\}\n", out), out
    assert run(page, "print(browser.run_python_in_worker('RESULT = 6 * 7'))") == "42\n"


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


def check_connect_tells_apart(page, faults, nobody, probe_sees_answers=True):
    """*Test connection* in the page, before any connect cell: a server that sends no CORS header and
    a port nobody listens on both end as status 0, so the form names both causes with the fix for
    each; then a no-cors probe (models/connection.py) finds the server that answers and says CORS
    (where the browser lets the probe see an answer: not Firefox under the site's COEP). The test
    call asks for 8 tokens."""
    out = run(page, "from agent_team.widgets import Connect\n"
                    f"forms = {{'ok': Connect('OpenAI-compatible', {faults.url + '/ok/v1'!r}, 'smol'),\n"
                    f"         'nocors': Connect('OpenAI-compatible', {faults.url + '/nocors/v1'!r}, 'smol'),\n"
                    f"         'nobody': Connect('OpenAI-compatible', {nobody + '/v1'!r}, 'smol')}}\n"
                    "for name, form in forms.items():\n"
                    "    got = form.test()\n"
                    "    print(name, got.kind, 'check both' in got.words)")
    assert out == "ok ok False\nnocors unreachable True\nnobody unreachable True\n", out
    assert faults.requests[-2]["body"]["max_tokens"] == 8  # the 'ok' form's call ('nocors' came after)
    said = "print(forms['nocors'].connection.kind, '|', forms['nobody'].connection.kind)"
    want = f"{'cors' if probe_sees_answers else 'unreachable'} | unreachable\n"
    for _ in range(20):  # the probes run after the cell, on the kernel's event loop
        out = run(page, said)
        if out == want:
            break
        time.sleep(0.5)
    time.sleep(2)  # long enough for a probe to change what it should not
    assert run(page, said) == want, out
    out = run(page, "print(forms['nocors'].text)\nprint(forms['nobody'].text)")
    assert ("a server answers at that address" in out) is probe_sees_answers, out
    assert "start the server, and check the port" in out and "this page's origin allowed" in out, out


# Runs one cell and returns [seconds since it was sent, text] for each piece of its printed output.
JS_STREAM_TIMES = """async ([code, seconds]) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const started = Date.now(), pieces = [];
  const future = kernel.requestExecute({code});
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === 'stream') pieces.push([(Date.now() - started) / 1000, msg.content.text]);
    if (msg.header.msg_type === 'error') pieces.push([(Date.now() - started) / 1000, msg.content.evalue]);
  };
  const timeout = new Promise((r) => setTimeout(() => r(null), seconds * 1000));
  await Promise.race([future.done, timeout]);
  return pieces;
}"""


def check_live_eval_shows_progress(page, faults):
    """Part 7's live eval (models/live.py, compare_live) in the page: each case's line reaches the page
    while the kernel still waits for the model, not all at the end. The server takes 2 s a call, so
    lines that stream arrive at least 2 s apart; held back to the end they would arrive together."""
    code = ("from agent_team.realteam.models.live import compare_live\n"
            "from agent_team.realteam.recordings import GATE_CASES\n"
            f"slow = openai_chat({faults.url + '/slow-2/v1'!r}, 'smol')\n"
            "rows = compare_live(GATE_CASES[:2], slow, seconds=20)\n"
            "print('rows', len(rows))")
    pieces = page.evaluate(JS_STREAM_TIMES, [code, 120])
    lines, start = [], None  # each line with the time its first piece arrived (print sends pieces)
    for at, text in pieces:
        for part in text.splitlines(keepends=True):
            if start is None:
                start = [at, ""]
            start[1] += part
            if part.endswith("\n"):
                lines.append((start[0], start[1].strip()))
                start = None
    assert [line.split(":")[0] for _, line in lines] == ["case 1 of 2", "case 2 of 2", "done", "rows 2"], pieces
    assert lines[1][0] - lines[0][0] >= 1.9, pieces  # case 2's line came after case 1's call, not with the rest


def check_testing_shown(page, faults):
    """The form's *test connection* button, pressed before any connect cell, on a server that takes 3 s:
    the form says "testing…" while the call waits, then "connected" (the walk saw no change for 15-44 s)."""
    cells = ["from agent_team.widgets import Connect\n"
             f"Connect('OpenAI-compatible', {faults.url + '/slow-3/v1'!r}, 'smol')"]
    assert page.evaluate(JS_WRITE_CELLS, cells) == 1
    page.evaluate(driver.JS_START_RUN_ALL, "notebook:run-all-cells")
    page.wait_for_function(driver.JS_RUN_ALL_DONE, timeout=120_000, polling=100)
    page.locator("button:has-text('test connection')").click()
    page.locator("text=testing…").wait_for(timeout=30_000)
    page.locator("text=connected OpenAI-compatible").wait_for(timeout=60_000)
    assert faults.requests[-1]["body"]["max_tokens"] == 8
