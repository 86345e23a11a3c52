"""On a return visit, the notebook a page opens gets its session as the site's plugin activates
(site/extension/src/session.ts).

JupyterLab would ask for that notebook's kernel only once the notebook is loaded and drawn; the
plugin starts the session earlier and the notebook connects to it. What a learner must see: one
kernel, the notebook's, running in the notebook's folder, on JupyterLab's page and on the
notebook page alike; a first visit (no kernel snapshot stored yet) left to JupyterLab; and a link
to a notebook that is not there starts no kernel at all.
"""

from __future__ import annotations

import pytest

import lite

JS_SESSIONS = """() => Array.from(window.jupyterapp.serviceManager.sessions.running())
  .map(s => ({path: s.path, name: s.name, kernel: s.kernel && s.kernel.id}))"""
JS_NOTEBOOK_SESSION = """() => {
  const s = window.jupyterapp.shell.currentWidget.sessionContext.session;
  return {path: s.path, kernel: s.kernel.id};
}"""
JS_KERNELS_CREATED = "() => performance.getEntriesByName('agent-team:kernel-created').length"
JS_EARLY = "() => window.__agentTeamEarlySession || null"


@pytest.mark.parametrize("app, path", [("lab", "smoke.ipynb"), ("notebooks", "smoke.ipynb"),
                                       ("lab", "solutions/01_architecture.ipynb")])
def test_the_opened_notebook_runs_in_the_kernel_started_for_it(guarded, site_url, app, path):
    page, guard = guarded
    page.goto(f"{site_url}{app}/index.html?path={path}")
    lite.wait_kernel_idle(page, 120)
    assert page.evaluate(JS_EARLY) == {"path": path, "state": "first visit"}, (
        "a first visit's session is JupyterLab's to start")
    assert lite.wait_snapshot_stored(page) == "stored"
    # A return visit, by the same link (JupyterLab's page drops `?path=` from its address once open).
    page.goto(f"{site_url}{app}/index.html?path={path}")
    lite.wait_kernel_idle(page, 120)
    assert page.evaluate(JS_EARLY) == {"path": path, "state": "started"}, (
        "the plugin did not start the session of the notebook in the URL")
    sessions = page.evaluate(JS_SESSIONS)
    assert [(s["path"], s["name"]) for s in sessions] == [(path, path.rsplit("/", 1)[-1])], sessions
    notebook = page.evaluate(JS_NOTEBOOK_SESSION)
    assert notebook == {"path": path, "kernel": sessions[0]["kernel"]}, (notebook, sessions)
    assert page.evaluate(JS_KERNELS_CREATED) == 1, "one kernel, not a second one for the notebook"
    folder = path.rsplit("/", 1)[0] if "/" in path else ""
    reply = lite.execute(page, "import os\nprint(os.getcwd())", 60)
    assert reply["status"] == "ok" and reply["out"].rstrip("\n").endswith("/drive" + ("/" + folder if folder else "")), (
        f"the kernel does not run in the notebook's folder: {reply}")


def test_a_link_to_a_missing_notebook_starts_no_kernel(guarded, site_url):
    page, guard = guarded
    lite.open_notebook(page, site_url, "smoke.ipynb")
    assert lite.wait_snapshot_stored(page) == "stored"  # so that this is a return visit
    page.goto(f"{site_url}lab/index.html?path=no_such_part.ipynb")
    page.wait_for_function("() => ['failed', 'started'].includes((window.__agentTeamEarlySession || {}).state)",
                           timeout=60_000, polling=50)
    assert page.evaluate(JS_EARLY) == {"path": "no_such_part.ipynb", "state": "failed"}
    page.wait_for_timeout(1000)  # anything started late would show by now
    # JupyterLab's page reopens the notebook of the last visit (its workspace): its kernel only.
    sessions = page.evaluate(JS_SESSIONS)
    assert "no_such_part.ipynb" not in [s["path"] for s in sessions], sessions
    assert page.evaluate(JS_KERNELS_CREATED) == len(sessions), "a kernel with no notebook"
