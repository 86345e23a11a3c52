"""A model in the learner's own tab (agent_team.realteam.models.tab): the real SmolLM2-135M GGUF, run by the
site's vendored llama.cpp (wllama) on the page, loaded from another origin of 127.0.0.1 (CORS).

In each engine, one page: opening a notebook fetches nothing of the runtime (intab/); the model
loads, with its size said while it comes; one coder turn through the LLM slot answers in the
role's JSON schema with its token counts on the attempt; a call given one second is stopped in its
own words within it; Interrupt stops a long generation within seconds and the next call answers.
Chromium and Firefox run it with wllama's own build; WebKitGTK runs its compat build (no JSPI) with the
file held in memory (no origin private file system); WebKit without SharedArrayBuffer says in one line
that the tab cannot run a model, before anything is fetched.
"""

import os
import re
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from browsers import driver

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "build" / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf"
RUNTIME = "/intab/"

# A long generation, then Kernel -> Interrupt once the page has started it: the call's reply, the
# seconds Interrupt took, and what a short call printed afterwards.
JS_INTERRUPT = """async ([long, after]) => {
  const app = window.jupyterapp, kernel = app.shell.currentWidget.sessionContext.session.kernel;
  let reply = null, out = '';
  const future = kernel.requestExecute({code: long});
  future.onIOPub = (msg) => { if (msg.header.msg_type === 'error') out += msg.content.ename; };
  future.done.then((r) => { reply = r.content; });
  await new Promise((r) => setTimeout(r, 1500));  // the page is generating by now (the ask is posted at once)
  if (reply) return {early: reply};
  const start = performance.now();
  await app.commands.execute('kernelmenu:interrupt');
  while (!reply && performance.now() - start < 30000) await new Promise((r) => setTimeout(r, 20));
  const seconds = (performance.now() - start) / 1000;
  let printed = '';
  const next = kernel.requestExecute({code: after});
  next.onIOPub = (msg) => { if (msg.header.msg_type === 'stream') printed += msg.content.text; };
  const status = (await next.done).content.status;
  return {seconds, status: reply && reply.status, error: out, after: {status, printed}};
}"""


class _Files(SimpleHTTPRequestHandler):
    """The model file, readable by a page of any origin (CORS), as the Hugging Face hub serves it."""

    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Expose-Headers", "Content-Length, ETag")
        super().end_headers()

    def log_message(self, *args):
        pass


class _NoCors(SimpleHTTPRequestHandler):
    """The same file from a server that lets no other origin read it."""

    def log_message(self, *args):
        pass


def _serve(handler):
    server = ThreadingHTTPServer(("127.0.0.1", 0), lambda *a: handler(*a, directory=str(MODEL.parent)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/{MODEL.name}"


@pytest.fixture(scope="module")
def model_url():
    """The tests' GGUF on a second origin of 127.0.0.1 (`make models` gets it; nothing is downloaded here),
    and as ``model_url.refused`` on a third that sends no CORS header."""
    if not MODEL.is_file():
        why = f"{MODEL.relative_to(ROOT)} is missing: `make models` gets it"
        if os.environ.get("AGENT_TEAM_REAL_MODEL") == "1":
            pytest.fail(why)
        pytest.skip(why)
    (server, url), (refusing, refused) = _serve(_Files), _serve(_NoCors)
    yield Url(url, refused)
    for each in (server, refusing):
        each.shutdown()
        each.server_close()


class Url(str):
    """The model's URL, with the same file's on a server that refuses this page."""

    def __new__(cls, url, refused):
        made = super().__new__(cls, url)
        made.refused = refused
        return made


@pytest.fixture
def chromium(browser, site_url, model_url):
    """Chromium's page, its network guard letting the model's origin through, and only it; the URLs it asked."""
    context = browser.new_context()
    guard = driver.Guard(driver._origin(site_url))
    allowed = "|".join(re.escape(o + "/") for o in (guard.origin, driver._origin(model_url),
                                                      driver._origin(model_url.refused)))
    context.route(re.compile(f"^(?!{allowed})(?!data:)(?!blob:)"), guard.route)
    page = context.new_page()
    page.asked = []
    context.on("request", lambda r: page.asked.append(r.url))
    yield page
    context.close()
    assert guard.blocked == []


def run(page, code, timeout=120):
    reply = driver.execute(page, code, timeout=timeout)
    assert reply["status"] == "ok", reply
    return reply["out"]


SETUP = """
from agent_team.realteam.llm import build_prompt, llm_policy
from agent_team.realteam.models.tab import in_tab
from agent_team.repo import GOAL, initial_repo
from agent_team.views import make_view
model = in_tab({url!r}, n_ctx=2048, max_tokens={tokens})
print("loaded", sorted(model.info))
"""

KEPT = """
from agent_team.realteam.models.tab import in_tab
model = in_tab({url!r}, n_ctx=512, max_tokens=4)
print(model.info["kept"], model.info["build"])
"""

# A file whose server refuses this page: the learner reads where and the two causes a page cannot tell apart.
REFUSED = """
from agent_team.realteam.models import ModelError, in_tab
try:
    in_tab({url!r})
except ModelError as err:
    print(err.failure, err)
"""

# The reviewer's reply is the shortest a role's schema allows (about 50 tokens): its verdict is one of
# the schema's two words, the slot's own checks find nothing wrong, the attempt carries the counts.
TURN = """
policy = llm_policy("reviewer", model, retries=0, seconds=150)
out = policy(GOAL, make_view("reviewer", GOAL, initial_repo(), []))
a = out["attempts"][0]
print(a["failure"], a["error"], out["role"], out["patches"][0]["path"], a["usage"]["prompt_tokens"] > 0,
      a["usage"]["completion_tokens"] > 0)
"""
# llama.cpp's own speeds of that turn, for the test's log (`-s`): the bench's figures are bench/README.md's.
SPEED = """
t = policy.model.last_timings
print(model.info, round(t["prompt_per_second"], 1), round(t["predicted_per_second"], 1))
"""

LATE = """
import time
from agent_team.realteam.models import ModelError
late = model.for_role(None)
late.seconds, late.max_tokens = 1.0, 4000
started = time.monotonic()
try:
    late("Count from 1 to 2000, one number a line.")
except ModelError as err:
    print(err.failure, time.monotonic() - started < 5)
"""

# The coder's schema holds the model to a whole JSON reply (about 100 tokens, half a minute here), so
# the generation is still running when Interrupt comes 1.5 s after it started.
LONG = """
long = model.for_role("coder")
long.max_tokens = 4000
long(build_prompt("coder", GOAL, make_view("coder", GOAL, initial_repo(), [])))
"""
AFTER = "print(len(model.for_role(None)('Say ok.')) > 0)"


def check_in_tab(page, site_url, model_url, asked):
    """The whole story in one page of any engine (`asked()`: the URLs it requested so far)."""
    driver.open_notebook(page, site_url, "smoke.ipynb", timeout=180)
    runtime = [u for u in asked() if RUNTIME in u]
    assert runtime == [], f"a first visit fetched the model runtime: {runtime}"
    out = run(page, REFUSED.format(url=model_url.refused), timeout=60)
    assert out.startswith("error the model file could not be fetched from http://127.0.0.1:"), out
    assert out.rstrip().endswith("either nothing answers there, or that server refuses this page (CORS)"), out
    out = run(page, SETUP.format(url=model_url, tokens=160), timeout=240)
    assert out.endswith("loaded ['build', 'kept', 'load_seconds', 'name', 'threads']\n"), out
    assert [u for u in asked() if RUNTIME in u], "the runtime was not fetched from the site"
    assert run(page, TURN, timeout=180) == "None None reviewer REVIEW.json True True\n"
    print(getattr(page, "name", "chromium"), run(page, SPEED), end="")
    assert run(page, LATE, timeout=60) == "timeout True\n"
    result = page.evaluate(JS_INTERRUPT, [LONG, AFTER])
    assert "early" not in result, f"the long generation ended by itself: {result}"
    assert result["status"] == "error" and "KeyboardInterrupt" in result["error"], result
    assert result["seconds"] < 5, result
    assert result["after"] == {"status": "ok", "printed": "True\n"}, result


def test_a_model_in_the_tab_in_chromium(chromium, site_url, model_url):
    check_in_tab(chromium, site_url, model_url, lambda: chromium.asked)


def test_a_kept_model_loads_on_a_return_visit_with_its_server_gone(browser, site_url, model_url):
    """The browser keeps the file (wllama's cache in the origin's private file system): after a reload,
    with the file's server shut down, the same model loads again, from the kept copy."""
    server, url = _serve(_Files)
    context = browser.new_context()
    guard = driver.Guard(driver._origin(site_url))
    allowed = "|".join(re.escape(o + "/") for o in (guard.origin, driver._origin(url)))
    context.route(re.compile(f"^(?!{allowed})(?!data:)(?!blob:)"), guard.route)
    page = context.new_page()
    try:
        driver.open_notebook(page, site_url, "smoke.ipynb", timeout=180)
        assert run(page, KEPT.format(url=url), timeout=240).endswith("True default\n")
        server.shutdown()
        server.server_close()  # from now on nothing answers at the file's address
        page.reload()
        driver.wait_kernel_idle(page, 180)
        out = run(page, KEPT.format(url=url), timeout=240)  # the file's server is gone: only the kept copy remains
        assert out.endswith("True default\n"), out
    finally:
        context.close()
        server.server_close()
    assert guard.blocked == []


def test_a_model_in_the_tab_in_firefox(engine_page, site_url, model_url):
    page = engine_page("firefox")
    page.set_default_timeout(300_000)  # one evaluate may wait for the load's 240 s
    check_in_tab(page, site_url, model_url, lambda: [p["request"]["url"] for m, p in page.browser.events
                                                     if m == "network.beforeRequestSent"])



WEBKIT = """
from agent_team.realteam.models import CannotRunHere
from agent_team.realteam.models.tab import in_tab
try:
    model = in_tab({url!r}, n_ctx=2048, max_tokens=8)
except CannotRunHere as err:
    print("cannot:", err)
else:
    print("answered:", model.info["build"], model.info["kept"], len(model.for_role(None)("Say ok.")) > 0)
"""
# Resources the page itself fetched (WebKitWebDriver hands out no network log): the runtime's module is one.
JS_PAGE_FETCHED = "() => performance.getEntriesByType('resource').map((e) => e.name)"


def test_webkit_runs_the_model_with_the_compat_build(engine_page, site_url, model_url):
    """WebKitGTK has no JSPI (so wllama's compat build, from the site) and no origin private file
    system (so the file is fetched into memory each visit, `kept` False): it loads and answers."""
    page = engine_page("webkit")
    page.set_default_timeout(300_000)
    driver.open_notebook(page, site_url, "smoke.ipynb", timeout=240)
    assert [u for u in page.evaluate(JS_PAGE_FETCHED) if RUNTIME in u] == []
    out = run(page, WEBKIT.format(url=model_url), timeout=240)
    assert out.endswith("\nanswered: compat False True\n") and "of 98.4 MB" in out, out  # the load said its size
    assert [u for u in page.evaluate(JS_PAGE_FETCHED) if u.endswith("/intab/intab.js")]


def test_without_shared_memory_it_says_so_in_one_line(engine_page, site_url, model_url):
    """WebKit without SharedArrayBuffer: the kernel cannot wait for the page, so no model in the tab;
    said in one line before anything is fetched."""
    page = engine_page("webkit-no-sab")
    page.set_default_timeout(300_000)
    driver.open_notebook(page, site_url, "smoke.ipynb", timeout=240)
    out = run(page, WEBKIT.format(url=model_url), timeout=60)
    assert out.startswith("cannot: this page cannot share memory with its kernel (no SharedArrayBuffer"), out
    assert out.count("\n") == 1 and "openai_chat(...)" in out, out
    assert [u for u in page.evaluate(JS_PAGE_FETCHED) if RUNTIME in u] == []
