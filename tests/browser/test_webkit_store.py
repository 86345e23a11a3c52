"""WebKit's return visit with the data store a Safari learner has: a persistent one (issue 21).

The journey's WebKit return visit (test_journey.py) is a plain start because WebKitWebDriver can
drive MiniBrowser only in `--automation` mode, and MiniBrowser then uses an ephemeral website
data manager: after a reload its Cache Storage still lists the `agent-team-kernel` cache, but
without a record in it, so there is no snapshot to restore (docs/browsers.md). A browser with a
persistent store keeps it. No WebDriver can drive that, so this test drives nothing: MiniBrowser
without `--automation`, with a HOME of its own (its data under XDG_DATA_HOME/XDG_CACHE_HOME), is
opened on the smoke notebook, closed once the snapshot is on disk, and opened again on the same
address; the site's server keeps every request. The return visit must be a restore:

- the kernel's worker asked for the snapshot key and the kernel took the worker (booted-pyodide);
- not one of the kernel's wheels was fetched (a plain start fetches all 23);
- the snapshot's two records are still on disk when the browser is closed, more than the restore's
  own bound after it began (a restore that failed or hung is refused: its records deleted).

What it cannot see is the kernel answering a cell (nothing drives the page); the journey checks
that on every other path.
"""

from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
import threading
import time

import pytest

from website import engines, serve

WHEELS = 20          # a plain start fetches the kernel's 23 wheels; a restore none
BIG = 5_000_000      # the snapshot's records on disk: the heap (~54 MB) and the files (~16 MB)
FIRST_SECONDS = 240  # bounds, read at call time
RESTORED_SECONDS = 50  # past the page's own bound on a restore (bounds.ts `restored`, 45 s)


@pytest.fixture
def logged_site(site_dir):
    requests = []

    class Handler(serve.Handler):
        def log_message(self, format, *args):  # noqa: A002 -- http.server's own signature
            requests.append(self.requestline.split()[1])

    server = serve.Server(("127.0.0.1", 0), functools.partial(Handler, directory=str(site_dir)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/lab/index.html?path=smoke.ipynb", requests
    server.shutdown()


def records(home):
    """The big files of the browser's Cache Storage on disk: the snapshot's heap and files."""
    return [p for p in (home / "cache").rglob("*")
            if "CacheStorage" in str(p) and p.is_file() and p.stat().st_size > BIG]


def visit(url, home, done, seconds):
    """MiniBrowser on `url` with `home`'s persistent store until `done()` (or `seconds`), then closed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CACHE_HOME=str(home / "cache"),
               XDG_CONFIG_HOME=str(home / "config"), DISPLAY=engines.Display.name(), JSC_useSharedArrayBuffer="1")
    browser = subprocess.Popen([engines.MINIBROWSER, url], env=env, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline and not done():
            time.sleep(0.5)
    finally:
        os.killpg(browser.pid, signal.SIGTERM)
        browser.wait(30)


def test_a_webkit_return_visit_with_a_persistent_store_is_restored(logged_site, tmp_path):
    if engines.available("webkit"):
        pytest.skip(engines.available("webkit"))
    url, requests = logged_site
    home = tmp_path / "home"
    try:
        visit(url, home, lambda: len(records(home)) >= 2, FIRST_SECONDS)
        first = list(requests)
        assert sum(r.endswith(".whl") for r in first) > WHEELS, first  # a plain first start
        assert len(records(home)) == 2, "the first visit stored no snapshot on disk"
        del requests[:]
        began = []

        def restored_long_enough():
            if not began and any("booted-pyodide." in r for r in requests):
                began.append(time.monotonic())
            return bool(began) and time.monotonic() - began[0] > RESTORED_SECONDS

        visit(url, home, restored_long_enough, FIRST_SECONDS)
    finally:
        engines.Display.stop()
    again = list(requests)
    assert any("agent-team-snapshot.json" in r for r in again), again
    assert began, f"the kernel never took its worker: {again}"
    assert [r for r in again if r.endswith(".whl")] == [], "a plain start, not a restore"
    assert len(records(home)) == 2, "the snapshot was refused (a restore that failed or hung)"
    shutil.rmtree(home, ignore_errors=True)
