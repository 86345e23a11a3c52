"""A return visit with the server down in Firefox and WebKit (test_offline.py is Chromium's, which
also checks the home page's prefetch list): home, part 1 from it, a saved change and a pass; the
server stops; part 1 reloads isolated with its kernel idle and the change, runs a cell, and the
home page shows the pass. AGENT_TEAM_ENGINES picks the engines (default firefox,webkit).
"""

from __future__ import annotations

import os
import time

import pytest
from test_offline import JS_ADD_MARK, JS_BADGE, JS_MARK, JS_WARM, MARK, PART1, READY_SECONDS, wait_kept

from browsers import driver, engines
from website import serve

ENGINES = [e for e in os.environ.get("AGENT_TEAM_ENGINES", "firefox,webkit").split(",") if e and e != "chromium"]
JS_CONTINUE = "() => { document.getElementById('continue').click(); return true; }"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_return_visit_works_with_the_server_down(request, site_dir, engine):
    why_not = engines.available(engine)
    if why_not:
        pytest.skip(why_not)
    server, base = serve.start(site_dir)  # this test's own server: it stops it halfway
    page = engines.open_page(engine)
    request.node.page_log = log = []
    try:
        page.goto(base)
        page.wait_for_function(JS_WARM + " === 'ready'", timeout=READY_SECONDS * 1000, polling=250)
        page.evaluate(JS_CONTINUE)
        page.wait_for_function(f"() => location.href.includes('{PART1}')", timeout=30_000)
        driver.wait_kernel_idle(page, READY_SECONDS)
        assert page.evaluate("crossOriginIsolated"), f"{engine}: part 1 opened from the home page is not isolated"
        assert driver.execute(page, "from agent_team import progress; progress.record('1.1', True)")["status"] == "ok"
        page.evaluate(JS_ADD_MARK, MARK)
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        page.wait_for_function("() => !(" + driver.JS_MODIFIED + ")()", timeout=30_000)
        kept = wait_kept(page, seconds=90)
        assert kept["files"] > 100, f"{engine}: only {kept['files']} files kept for offline use"
        print(f"{page.version}: kept for offline use: {kept['files']} files, {kept['bytes'] / 1e6:.1f} MB")

        server.shutdown()
        server.server_close()  # from now on the server refuses every connection
        offline = time.monotonic()
        page.reload()
        driver.wait_kernel_idle(page, READY_SECONDS)
        assert page.evaluate("crossOriginIsolated"), f"{engine}: part 1 offline is not isolated"
        assert page.evaluate(JS_MARK, MARK), f"{engine}: part 1 offline lost the learner's saved change"
        ran = driver.execute(page, "import agent_team; print(6 * 7)")
        assert ran == {"status": "ok", "out": "42\n"}, f"{engine}: {ran}"
        page.goto(base)
        page.wait_for_function("() => window.__agentTeamHome && window.__agentTeamHome.record", timeout=30_000)
        assert page.evaluate(JS_BADGE, "1.1") == "passed", f"{engine}: the home page offline lost the progress"
        print(f"{page.version}: offline return (part 1 idle, a cell, home) {time.monotonic() - offline:.1f} s")
    finally:
        log += page.log()
        page.close()
        server.server_close()
