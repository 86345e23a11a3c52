"""Driving the built JupyterLite site in Chromium: the browser tests (tests/browser) and the start-up
benchmark (bench/) both import it (`from browsers import driver`); it needs Playwright.

Chromium is Debian's (/usr/bin/chromium): Playwright cannot download a browser here. Every
request to an origin other than the site's 127.0.0.1 server is aborted and recorded (a route on
the browser context, which also sees the kernel's web worker), and the browser resolves no host
name but 127.0.0.1 (--host-resolver-rules), so nothing can leave the machine even if a route
were missed.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-default-apps", "--disable-extensions",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]

# JavaScript run in the page (the site sets exposeAppInBrowser, so window.jupyterapp is the app).
JS_KERNEL_STATUS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return k ? k.status : null;
}"""
JS_KERNEL_IDLE = "() => (" + JS_KERNEL_STATUS + ")() === 'idle'"
# Run all (or another run command) without awaiting it in page.evaluate (which has no timeout):
# a hang must fail, not stall.
JS_START_RUN_ALL = """(command) => {
  window.__runAll = undefined;
  window.jupyterapp.commands.execute(command).then(
    (ok) => { window.__runAll = {ok: !!ok}; }, (e) => { window.__runAll = {ok: false, error: String(e)}; });
}"""
JS_RUN_ALL_DONE = "() => window.__runAll !== undefined && (" + JS_KERNEL_IDLE + ")()"
# The open notebook has changes not saved yet: the dot on its tab, or the application's own
# record of it (which asks before the page is left).
JS_MODIFIED = ("() => window.jupyterapp.shell.currentWidget.context.model.dirty"
               " || window.jupyterapp.status.isDirty")
JS_CELLS = """() => {
  const m = window.jupyterapp.shell.currentWidget.content.model;
  const cells = [];
  for (let i = 0; i < m.cells.length; i++) cells.push(m.cells.get(i).toJSON());
  return cells;
}"""

# Replace the sources of the cells at these indexes, and put `SENTINEL = 42` in a new first cell
# (the runaway tests check the kernel still has it afterwards).
JS_SET_SOURCES = """(changes) => {
  const model = window.jupyterapp.shell.currentWidget.content.model;
  for (const [index, source] of changes) model.cells.get(index).sharedModel.setSource(source);
  model.sharedModel.insertCell(0, {cell_type: 'code', source: 'SENTINEL = 42', metadata: {}});
  return model.cells.length;
}"""


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


@dataclass
class Guard:
    """Aborts and records every request that does not go to the site's own origin."""

    origin: str
    blocked: list = field(default_factory=list)
    failed: list = field(default_factory=list)
    bytes: int = 0
    requests: int = 0

    def route(self, route):
        # Only requests to other origins are routed here (see new_page): abort and record.
        url = route.request.url
        if url not in self.blocked:
            self.blocked.append(url)
        route.abort("blockedbyclient")

    def on_request(self, request):
        self.requests += 1
        if _origin(request.url) not in (self.origin, None) and request.url not in self.blocked:
            self.blocked.append(request.url)

    def on_failed(self, request):
        failure = request.failure or ""
        if "NAME_NOT_RESOLVED" in failure and request.url not in self.blocked:
            self.blocked.append(request.url)
        self.failed.append((request.url, failure))

    def on_finished(self, request):
        try:
            sizes = request.sizes()
            self.bytes += sizes["responseBodySize"] + sizes["responseHeadersSize"]
        except Exception:  # noqa: BLE001 -- a request torn down with its page
            pass


def _origin(url):
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about", "chrome", "chrome-extension", "devtools"):
        return None
    return f"{parts.scheme}://{parts.netloc}"


def new_page(browser, base_url, count_bytes=False):
    """A fresh context (empty storage, so a cold start) with the network guard; returns (page, guard)."""
    context = browser.new_context()
    guard = Guard(_origin(base_url))
    # A regex is matched inside the browser driver, so same-origin requests are not paused for a
    # round trip to Python (routing every request slowed the site down measurably).
    context.route(re.compile("^(?!" + re.escape(guard.origin) + "/)(?!data:)(?!blob:)"), guard.route)
    context.on("request", guard.on_request)
    context.on("requestfailed", guard.on_failed)
    if count_bytes:
        context.on("requestfinished", guard.on_finished)
    page = context.new_page()
    return page, guard


def wait_kernel_idle(page, timeout=120, idle=JS_KERNEL_IDLE, polling=20):
    """Seconds until the open notebook's kernel reports idle (after starting up): until `idle`
    (JavaScript) is true in the page, looked for every `polling` ms."""
    start = time.monotonic()
    page.wait_for_function(idle, timeout=timeout * 1000, polling=polling)
    return time.monotonic() - start


def open_notebook(page, base_url, path, timeout=120, **wait):
    """Open `path` (relative to the site's files) in JupyterLab; return seconds to kernel idle
    (`wait`: wait_kernel_idle's `idle` and `polling`)."""
    start = time.monotonic()
    page.goto(f"{base_url}lab/index.html?path={path}")
    wait_kernel_idle(page, timeout, **wait)
    return time.monotonic() - start


def run_all(page, timeout=300, command="notebook:run-all-cells"):
    """Run all cells (or run `command`); returns (finished without stopping on an error, seconds).

    Not finished (kernel idle again) within `timeout` s: an AssertionError naming the cells not run.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    start = time.monotonic()
    page.set_default_timeout(timeout * 1000)
    page.evaluate(JS_START_RUN_ALL, command)
    try:
        page.wait_for_function(JS_RUN_ALL_DONE, timeout=timeout * 1000, polling=50)
    except (PlaywrightTimeout, TimeoutError):  # TimeoutError: the other engines' pages (engines.py)
        raise AssertionError(f"run all not finished after {time.monotonic() - start:.0f} s; "
                             f"cells not run yet: {not_run(cells(page))}") from None
    return page.evaluate("() => window.__runAll.ok"), time.monotonic() - start


# Run code in the open notebook's kernel, not in a cell: each of `codes` sent at once (as "run all"
# queues cells), each one's {status of its reply, what it printed} once all have answered.
JS_EXECUTE = """async ([codes, seconds]) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const send = async (code) => {
    let out = '';
    const future = kernel.requestExecute({code});
    future.onIOPub = (msg) => {
      if (msg.header.msg_type === 'stream') out += msg.content.text;
      if (msg.header.msg_type === 'error') out += msg.content.ename + ': ' + msg.content.evalue;
    };
    const timeout = new Promise((r) => setTimeout(() => r(null), seconds * 1000));
    const reply = await Promise.race([future.done, timeout]);
    // without a reply, what the kernel looked like then: the one trace a kernel that stopped answering leaves
    return {status: reply ? reply.content.status
      : `no reply within ${seconds} s (kernel ${kernel.status}, ${kernel.connectionStatus})`, out};
  };
  return Promise.all(codes.map(send));
}"""


# Runs `before = 41`, then `while True: pass`; presses Kernel -> Interrupt 1.5 s later; then
# `print(before + 1)`: the loop's reply, the seconds it took to stop, and what the print gave.
JS_INTERRUPT = """async () => {
  const app = window.jupyterapp, kernel = app.shell.currentWidget.sessionContext.session.kernel;
  const run = async (code) => {
    let out = '';
    const future = kernel.requestExecute({code});
    future.onIOPub = (msg) => { if (msg.header.msg_type === 'stream') out += msg.content.text; };
    const timeout = new Promise((r) => setTimeout(() => r(null), 60000));
    const reply = await Promise.race([future.done, timeout]);
    if (!reply) throw new Error(`no reply to ${code} within 60 s`);
    return {reply: reply.content, out};
  };
  await run('before = 41');
  const looping = kernel.requestExecute({code: 'while True: pass'});
  let reply = null;
  looping.done.then((r) => { reply = r.content; });
  await new Promise((r) => setTimeout(r, 1500));
  if (reply) return {early: reply};
  const start = performance.now();
  await app.commands.execute('kernelmenu:interrupt');
  while (!reply && performance.now() - start < 30000) await new Promise((r) => setTimeout(r, 10));
  const seconds = (performance.now() - start) / 1000;
  return {seconds, reply, after: await run('print(before + 1)')};
}"""


def execute(page, code, timeout=30):
    """Run `code` in the kernel of the open notebook: {"status": "ok" or ..., "out": printed text}."""
    return execute_at_once(page, [code], timeout)[0]


def execute_at_once(page, codes, timeout=30):
    """Send each of `codes` to the open notebook's kernel at once (no pause between, as "run all"
    queues cells); [{"status", "out"}, ...] once all have answered or `timeout` s have passed."""
    return page.evaluate(JS_EXECUTE, [codes, timeout])


def worker_value(page, name):
    """globalThis[name] in the page's kernel worker (None if no worker of the site's plugin has it)."""
    for worker in page.workers:
        try:
            value = worker.evaluate(f"() => globalThis.{name}")
        except Exception:  # noqa: BLE001 -- a worker gone with its page
            continue
        if value is not None:
            return value
    return None


def snapshot_state(page):
    """What the kernel's worker did with its memory snapshot (website/extension/src/boot.ts):
    "restored", "storing", "stored", "not stored" or "none"."""
    return worker_value(page, "__agentTeamSnapshot")


def wait_snapshot_stored(page, timeout=60):
    """The snapshot state once the worker is no longer storing one (at most `timeout` s)."""
    deadline = time.monotonic() + timeout
    while snapshot_state(page) == "storing" and time.monotonic() < deadline:
        time.sleep(0.25)
    return snapshot_state(page)


def cells(page):
    """The notebook as the browser has it now (nbformat cell dicts, outputs included)."""
    return page.evaluate(JS_CELLS)


def shows_widget(output):
    """Whether a cell output (its JSON) shows a widget."""
    return WIDGET_MIME in (output.get("data") or {})


def outputs(cells):
    """Every output of the code cells, in order."""
    return [out for c in cells if c["cell_type"] == "code" for out in c.get("outputs", [])]


def errors(cells):
    """The text of every error output and of every printed traceback."""
    found = outputs(cells)
    return ([text_of(o) for o in found if o["output_type"] == "error"]
            + [text_of(o) for o in found if o["output_type"] == "stream" and "Traceback" in text_of(o)])


def not_run(cells):
    """Indices of the code cells with code in them that have not run."""
    return [i for i, c in enumerate(cells) if c["cell_type"] == "code" and _join(c["source"]).strip()
            and c.get("execution_count") is None]


def assert_ran_through(name, went_through, cells):
    """Run-all went through every code cell of `name` with no error output and no printed traceback."""
    found = errors(cells)
    assert not found, f"{name}: error output in the browser:\n" + "\n---\n".join(found)
    assert went_through, f"{name}: run all stopped early"
    skipped = not_run(cells)
    assert not skipped, f"{name}: code cells {skipped} did not run"


def text_of(output):
    """All text of one output: stream text, error, and the text/plain and text/html of results."""
    if output.get("output_type") == "stream":
        return _join(output.get("text", ""))
    if output.get("output_type") == "error":
        return f"{output.get('ename')}: {output.get('evalue')}\n" + "\n".join(output.get("traceback", []))
    data = output.get("data", {})
    return "\n".join(_join(data[k]) for k in ("text/plain", "text/html", "text/markdown") if k in data)


def _join(value):
    return "".join(value) if isinstance(value, list) else str(value)
