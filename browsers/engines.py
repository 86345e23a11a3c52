"""The browser engines the learner's journey runs in (tests/browser/journey.py), one adapter each.

Every adapter offers the part of Playwright's Page the shared code uses (driver.py, first_open.py):
`goto`, `evaluate(js, arg)` (a function's source called with one JSON argument, or an expression),
`wait_for_function`, `reload`, `screenshot(path=)`, `set_default_timeout`; so lite's JavaScript
snippets and checks run unchanged in all of them. A page is a fresh profile (empty storage: a first
visit); `reload` is the learner coming back in the same profile.

- chromium: Debian's Chromium through Playwright (as the rest of tests/browser);
- firefox: Debian's Firefox ESR over WebDriver BiDi (bidi.py says why not a library);
- webkit: WebKitGTK through Selenium and Debian's WebKitWebDriver, in webkit_browser.py (a small
  browser whose automation session keeps its website data on disk, as a Safari learner's does;
  MiniBrowser's is ephemeral), on a virtual X display (WebKitGTK has no headless mode), with
  SharedArrayBuffer exposed as Safari exposes it to an isolated page (JSC_useSharedArrayBuffer=1);
- webkit-no-sab: the same as WebKitGTK ships it (GNOME Web): SharedArrayBuffer hidden.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

WEBKIT_DRIVER = os.environ.get("WEBKIT_DRIVER", "/usr/bin/WebKitWebDriver")
WEBKIT_BROWSER = str(Path(__file__).with_name("webkit_browser.py"))
# What webkit_browser.py runs on: Debian's python3 with PyGObject and WebKit2 4.1's introspection data.
WEBKIT_PYTHON = "/usr/bin/python3"
WEBKIT_TYPELIB = os.environ.get("WEBKIT_TYPELIB", "/usr/lib/x86_64-linux-gnu/girepository-1.0/WebKit2-4.1.typelib")
ENGINES = ("chromium", "firefox", "webkit", "webkit-no-sab")

# Called in the page with the source of a function (or an expression) and its argument as JSON;
# returns {value} or {error} as JSON, so both drivers carry plain strings only.
JS_CALL = """async (source, arg) => {
  try {
    const f = (0, eval)('(' + source + ')');
    const value = typeof f === 'function' ? await f(JSON.parse(arg)) : await f;
    return JSON.stringify({value: value === undefined ? null : value});
  } catch (e) {
    return JSON.stringify({error: String(e && e.stack || e)});
  }
}"""
# Resources the page fetched from another origin (the drivers without request routing check this).
JS_FOREIGN = """() => performance.getEntriesByType('resource').map(e => e.name)
  .filter(u => !u.startsWith(location.origin + '/') && !/^(data|blob|about):/.test(u))"""


class EvaluationError(RuntimeError):
    pass


class _Page:
    """The shared part: evaluate on top of the driver's `_call(arguments) -> JSON string`."""

    name = ""
    default_timeout = 30.0
    min_polling = 50

    def evaluate(self, js, arg=None):
        out = json.loads(self._call(js, json.dumps(arg)))
        if "error" in out:
            raise EvaluationError(f"{self.name}: {out['error'][:1000]}")
        return out["value"]

    def wait_for_function(self, js, timeout=30_000, polling=100):
        """Until `js` is truthy in the page (evaluations that fail, e.g. during a reload, count as
        not yet); TimeoutError after `timeout` ms."""
        deadline = time.monotonic() + timeout / 1000
        last = None
        while True:
            try:
                if self.evaluate(js):
                    return
            except Exception as e:  # noqa: BLE001 -- a page navigating or not loaded yet
                last = e
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: not true after {timeout / 1000:.0f} s: {js[:120]!r}"
                                   + (f" (last error: {last})" if last else ""))
            time.sleep(max(polling, self.min_polling) / 1000)

    def wait_for_timeout(self, ms):
        time.sleep(ms / 1000)

    def set_default_timeout(self, ms):
        self.default_timeout = ms / 1000

    def foreign_requests(self):
        return self.evaluate(JS_FOREIGN)


class FirefoxPage(_Page):
    name = "firefox"

    def __init__(self):
        from . import bidi

        self.browser = bidi.Firefox()
        self.version = f"Firefox {self.browser.version()}"

    def _call(self, js, arg):
        return self.browser.call(JS_CALL, js, arg, timeout=self.default_timeout + 30)

    def goto(self, url):
        self.browser.navigate(url)

    def reload(self):
        self.browser.reload()

    def screenshot(self, path):
        Path(path).write_bytes(self.browser.screenshot())

    def log(self):
        return [f"{p.get('level')}: {p.get('text')}" for m, p in self.browser.events if m == "log.entryAdded"]

    def foreign_requests(self):
        # every request the browser saw, workers' included (the proxy let none of them out)
        from .driver import _origin

        origin = _origin(self.evaluate("location.href"))
        urls = [p["request"]["url"] for m, p in self.browser.events if m == "network.beforeRequestSent"]
        return sorted({u for u in urls if _origin(u) not in (origin, None)})

    def close(self):
        self.browser.close()


class Display:
    """A virtual X display (Xvfb) for WebKitGTK's windows, started once and shared."""

    _proc = None
    _name = None

    @classmethod
    def name(cls):
        if cls._name is None:
            read, write = os.pipe()
            cls._proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24",
                                          "-nolisten", "tcp"], pass_fds=[write], stderr=subprocess.DEVNULL)
            os.close(write)
            with os.fdopen(read) as f:
                cls._name = ":" + f.readline().strip()
        return cls._name

    @classmethod
    def stop(cls):
        if cls._proc:
            cls._proc.terminate()
            cls._proc.wait()
            cls._proc = cls._name = None


class WebKitPage(_Page):
    def __init__(self, shared_array_buffer=True):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        self.name = "webkit" if shared_array_buffer else "webkit-no-sab"
        env = {k: v for k, v in os.environ.items() if k != "JSC_useSharedArrayBuffer"}
        env["DISPLAY"] = Display.name()
        if shared_array_buffer:
            env["JSC_useSharedArrayBuffer"] = "1"
        # A fresh profile (a first visit) that the page keeps until closed: a reload, or another
        # address in the same page, is a return visit with the first one's Cache Storage on disk.
        self.profile = tempfile.mkdtemp(prefix="agent-team-webkit-")
        options = Options()
        options.binary_location = WEBKIT_BROWSER
        options.add_argument("--automation")
        options.add_argument(f"--profile={self.profile}")
        options.set_capability("browserName", "agent-team-webkit")  # webkit_browser.py's NAME
        try:
            self.driver = webdriver.WebKitGTK(options=options, service=Service(executable_path=WEBKIT_DRIVER, env=env))
        except Exception:
            shutil.rmtree(self.profile, ignore_errors=True)
            raise
        self.driver.set_window_size(1280, 900)
        self.version = f"WebKitGTK {self.driver.capabilities.get('browserVersion')}"

    # Each WebDriver call is a round trip through WebKitWebDriver and the web process: polled
    # less often than the others so the polling does not slow the start it waits for.
    min_polling = 250

    def _call(self, js, arg):
        self.driver.set_script_timeout(self.default_timeout + 30)
        return self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            f"({JS_CALL})(arguments[0], arguments[1]).then(done);", js, arg)

    def goto(self, url):
        self.driver.get(url)

    def reload(self):
        self.driver.refresh()

    def screenshot(self, path):
        self.driver.save_screenshot(str(path))

    def log(self):
        return []  # WebKitWebDriver does not hand out the console

    def close(self):
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)


class ChromiumPage(_Page):
    """Playwright's page already is the interface: passed through, in its own browser."""

    name = "chromium"

    def __init__(self):
        from . import driver
        from playwright.sync_api import sync_playwright

        self._pw = sync_playwright().start()
        self._browser = driver.launch(self._pw)
        self.page = self._browser.new_page()
        self.version = f"Chromium {self._browser.version}"

    def evaluate(self, js, arg=None):
        return self.page.evaluate(js, arg)

    def goto(self, url):
        self.page.goto(url)

    def reload(self):
        self.page.reload()

    def screenshot(self, path):
        self.page.screenshot(path=str(path))

    def log(self):
        return []

    def close(self):
        self._browser.close()
        self._pw.stop()


def open_page(engine: str):
    """A fresh profile in `engine` (one of ENGINES)."""
    if engine == "firefox":
        return FirefoxPage()
    if engine in ("webkit", "webkit-no-sab"):
        return WebKitPage(shared_array_buffer=engine == "webkit")
    if engine == "chromium":
        return ChromiumPage()
    raise ValueError(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")


def available(engine: str):
    """Why `engine` cannot run here (None: it can): not installed, or left out of make's ENGINES
    (AGENT_TEAM_ENGINES_ENABLED, which `make test-browser ENGINES=...` sets)."""
    from . import bidi

    base = engine.replace("-no-sab", "")
    enabled = os.environ.get("AGENT_TEAM_ENGINES_ENABLED")
    if enabled is not None and base not in enabled.replace(",", " ").split():
        return (f"{base} is not in ENGINES ({enabled.strip() or 'none'}): its tests were not run "
                f"(make test-browser ENGINES=\"{enabled.strip()} {base}\" runs them)")
    needs = {"firefox": [bidi.FIREFOX], "webkit": [WEBKIT_DRIVER, WEBKIT_PYTHON, WEBKIT_TYPELIB, "Xvfb"],
             "chromium": [os.environ.get("CHROMIUM", "/usr/bin/chromium")]}[base]
    missing = [n for n in needs if not shutil.which(n)
               and not os.access(n, os.R_OK if n.endswith(".typelib") else os.X_OK)]
    return f"not installed: {', '.join(missing)} (make test installs them)" if missing else None


def snapshot_state(page):
    """What the kernel's worker did with its snapshot (driver.snapshot_state), asked of the kernel
    itself, so it works in every engine (not only where the driver can read the worker)."""
    from . import driver
    got = driver.execute(page, "print(getattr(__import__('js'), '__agentTeamSnapshot', None))")
    return got["out"].strip() if got["status"] == "ok" else got


def wait_snapshot_stored(page, timeout=60):
    deadline = time.monotonic() + timeout
    while (state := snapshot_state(page)) == "storing" and time.monotonic() < deadline:
        time.sleep(0.5)
    return state
