"""A return visit with the server out of reach (website/service-worker.js, website/offline.py), and
the home page's prefetch of what a notebook fetches (website/labfetch.py), in Chromium.

One profile: the learner opens the home page (which prepares the kernel and prefetches JupyterLab's
chunks), then part 1 from it, saves a change and records a pass; then the server stops (connection
refused, as a server that is down or a laptop without a network) and the learner comes back: part 1
opens isolated with its kernel idle, runs a cell and shows the saved change; the home page shows
the pass. On the way: every chunk the home page prefetched is one the notebook asked for, and
every chunk the notebook asked for was prefetched (the recorded list has not rotted;
AGENT_TEAM_RECORD_LAB_FETCHES=1 records it again instead).
"""

from __future__ import annotations

import os
import time

from browsers import driver
from website import labfetch, serve

PART1 = "01_architecture.ipynb"
MARK = "# kept offline: a learner's change"
# Generous, read at call time.
READY_SECONDS = 240
JS_WARM = "() => window.__agentTeamHome && window.__agentTeamHome.warm && window.__agentTeamHome.warm.state"
JS_PREFETCH = "() => JSON.parse(document.getElementById('agent-team-home').textContent).prefetch"
JS_BADGE = "(id) => document.querySelector(`[data-exercise=\"${id}\"] [data-status]`).textContent"
JS_KEPT = """async () => {
  const cache = await caches.open('agent-team-site');
  let bytes = 0, files = 0;
  for (const request of await cache.keys()) {
    bytes += (await (await cache.match(request)).arrayBuffer()).byteLength;
    files += 1;
  }
  const estimate = navigator.storage && navigator.storage.estimate;  // WebKitGTK has none
  return {files, bytes, usage: estimate ? (await navigator.storage.estimate()).usage : 0};
}"""
JS_MARK = """(mark) => window.jupyterapp.shell.currentWidget.content.model.cells.get(0).sharedModel
  .getSource().startsWith(mark)"""
JS_ADD_MARK = """(mark) => {
  const cell = window.jupyterapp.shell.currentWidget.content.model.cells.get(0).sharedModel;
  cell.setSource(mark + '\\n' + cell.getSource());
}"""


def wait_kept(page, seconds=60, still=6):
    """What the service worker keeps, once it has kept nothing more for `still` s (it keeps the
    files a first visit left to the browser after the site has been quiet: service-worker.js)."""
    deadline = time.monotonic() + seconds
    kept, since = page.evaluate(JS_KEPT), time.monotonic()
    while time.monotonic() < deadline and time.monotonic() - since < still:
        time.sleep(1)
        now = page.evaluate(JS_KEPT)
        if now["files"] != kept["files"]:
            kept, since = now, time.monotonic()
    return kept


def site_path(url, base):
    return url[len(base):] if url.startswith(base) else None


def test_a_return_visit_works_with_the_server_down(request, browser, site_dir):
    server, base = serve.start(site_dir)  # this test's own server: it stops it halfway
    page, guard = driver.new_page(browser, base)
    log = request.node.page_log = []
    page.on("console", lambda m: log.append(f"{m.type}: {m.text}"[:500]))
    asked = []  # what the pages and their workers asked for (not the service worker's own requests)
    page.context.on("request", lambda r: r.service_worker is None and asked.append(r.url))
    start = time.monotonic()
    try:
        page.goto(base)
        page.wait_for_function(JS_WARM + " === 'ready'", timeout=READY_SECONDS * 1000, polling=250)
        prefetched = {labfetch.pattern(p) for p in page.evaluate(JS_PREFETCH)} - {None}
        asked.clear()
        page.click("#continue")
        page.wait_for_url(f"**/lab/**{PART1}*", timeout=30_000)
        driver.wait_kernel_idle(page, READY_SECONDS)
        assert page.evaluate("crossOriginIsolated"), "part 1 opened from the home page is not isolated"
        assert driver.execute(page, "from agent_team import progress; progress.record('1.1', True)")["status"] == "ok"
        page.evaluate(JS_ADD_MARK, MARK)
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        page.wait_for_function("() => !(" + driver.JS_MODIFIED + ")()", timeout=30_000)
        check_prefetch(prefetched, [site_path(u, base) for u in asked if site_path(u, base)])
        kept = wait_kept(page)
        print(f"kept for offline use: {kept['files']} files, {kept['bytes'] / 1e6:.1f} MB "
              f"(the origin's storage: {kept['usage'] / 1e6:.1f} MB)")
        online = time.monotonic() - start

        server.shutdown()
        server.server_close()  # from now on the server refuses every connection
        offline = time.monotonic()
        page.reload()
        driver.wait_kernel_idle(page, READY_SECONDS)
        assert page.evaluate("crossOriginIsolated"), "part 1 offline is not isolated"
        assert page.evaluate(JS_MARK, MARK), "part 1 offline lost the learner's saved change"
        ran = driver.execute(page, "import agent_team; print(6 * 7)")
        assert ran == {"status": "ok", "out": "42\n"}, ran
        page.goto(base)
        page.wait_for_function("() => window.__agentTeamHome && window.__agentTeamHome.record", timeout=30_000)
        assert page.evaluate(JS_BADGE, "1.1") == "passed", "the home page offline lost the progress"
        assert page.inner_text("#continue").startswith("Continue: Part 2"), "part 1 passed: part 2 is next"
        assert not guard.blocked, f"requests to other origins: {guard.blocked}"
        print(f"online visit {online:.1f} s, offline return (part 1 idle, a cell, home) "
              f"{time.monotonic() - offline:.1f} s")
    finally:
        page.context.close()
        server.server_close()


def check_prefetch(prefetched, asked_paths):
    """The chunks the home page prefetched against those the notebook page asked for."""
    asked = {labfetch.pattern(p) for p in asked_paths} - {None}
    if os.environ.get("AGENT_TEAM_RECORD_LAB_FETCHES"):
        labfetch.record(asked_paths)
        return
    extra = sorted(prefetched - asked)
    assert not extra, f"the home page prefetched chunks the notebook never asked for (extra bytes): {extra}"
    missing = sorted(asked - prefetched)
    assert not missing, (f"the notebook asked for chunks the home page did not prefetch: {missing}; "
                         f"record {labfetch.LIST.name} again (AGENT_TEAM_RECORD_LAB_FETCHES=1)")
