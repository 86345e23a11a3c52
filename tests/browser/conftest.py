"""Real-browser tests of the built site: `make test-browser` (part of `make test`).

They need Chromium and a site build, so a plain `pytest tests` leaves them out; they run when
AGENT_TEAM_BROWSER_TESTS=1 (the Makefile sets it). AGENT_TEAM_SITE_DIR=<folder> reuses a site
already built with tests/browser/notebooks in it instead of building one (handy while editing).
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

if not os.environ.get("AGENT_TEAM_BROWSER_TESTS"):
    collect_ignore_glob = ["test_*.py"]


@pytest.fixture(scope="session")
def site_dir():
    prebuilt = os.environ.get("AGENT_TEAM_SITE_DIR")
    if prebuilt:
        return Path(prebuilt)
    out = ROOT / "build" / "site" / "test-output"
    subprocess.run([sys.executable, "-m", "website.build", "--output", str(out),
                    "--extra-contents", str(HERE / "notebooks")], check=True, cwd=ROOT)
    return out


@pytest.fixture(scope="session")
def site_url(site_dir):
    from website import serve

    server, url = serve.start(site_dir)
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    from browsers import driver

    with sync_playwright() as p:
        b = driver.launch(p)
        yield b
        b.close()


@pytest.fixture(scope="module", autouse=True)
def display():
    """WebKitGTK's virtual display (browsers/engines.py starts it on first use), stopped after each module."""
    yield
    from browsers import engines

    engines.Display.stop()


class PlaywrightPage:
    """The session's Chromium (a `guarded` page) as a browsers/engines.py page: a second Playwright
    (engines.ChromiumPage) cannot start in this thread while the session's runs. Whatever the
    adapters share is Playwright's own (goto, evaluate, wait_for_function, reload...)."""

    name = "chromium"

    def __init__(self, page, guard):
        self.page, self.guard = page, guard
        self.version = f"Chromium {page.context.browser.version}"

    def __getattr__(self, name):
        return getattr(self.page, name)

    def screenshot(self, path):
        self.page.screenshot(path=str(path))

    def foreign_requests(self):
        return self.guard.blocked

    def log(self):
        return []  # `guarded` keeps the page's log and shows it under a failed test

    def close(self):
        pass  # `guarded` closes its context


@pytest.fixture
def engine_page(request):
    """``open(engine)``: a fresh page in that engine, as browsers/engines.py's adapters give one, closed
    after the test; the test is skipped, saying why, where the engine cannot run here. Chromium's is
    a page of the session's browser (PlaywrightPage)."""
    from browsers import engines

    opened = []

    def open_page(engine):
        why_not = engines.available(engine)
        if why_not:
            pytest.skip(why_not)
        page = PlaywrightPage(*request.getfixturevalue("guarded")) if engine == "chromium" else \
            engines.open_page(engine)
        opened.append(page)
        return page

    yield open_page
    for page in opened:
        page.close()


@pytest.fixture
def guarded(request, browser, site_url):
    """(page, guard) in a fresh context; fails the test if any non-local request was attempted.

    What the page and its workers log is kept, and shown under a failed test ("page log"): a
    kernel that stops answering leaves no other trace.
    """
    from browsers import driver

    page, guard = driver.new_page(browser, site_url)
    start = time.monotonic()
    log = request.node.page_log = []
    page.on("console", lambda m: log.append(f"{time.monotonic() - start:7.2f} {m.type}: {m.text}"[:500]))
    page.on("pageerror", lambda e: log.append(f"{time.monotonic() - start:7.2f} pageerror: {e}"[:500]))
    yield page, guard
    page.context.close()
    assert not guard.blocked, f"requests to other origins: {guard.blocked}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    report = (yield).get_result()
    log = getattr(item, "page_log", None)
    if report.failed and log:
        # The last lines, without the debug chatter (JupyterLab logs every message at debug level).
        lines = [line for line in log if " debug: " not in line][-200:]
        report.sections.append(("page log", "\n".join(lines)))

