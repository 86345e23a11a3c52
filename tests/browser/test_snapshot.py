"""The kernel's memory snapshot (website/snapshot.py, website/extension/src/snapshot.ts), in Chromium.

A first visit stores the snapshot under the key the build wrote; a return visit (a reload, same
browser profile) restores it: the kernel then runs the course's code as built (the agent_team
of this site's wheel), draws new random numbers, and can be interrupted. A snapshot stored under
another key (an older build) is never restored and is deleted; a damaged one under the right key
only means a normal start, and is refused: never restored or stored again for this build here
(a restore that hangs: tests/browser/test_kernel_start.py).
"""

from __future__ import annotations

import json


from browsers import driver
from website import check, snapshot

NOTEBOOK = "smoke.ipynb"
CACHE = "agent-team-kernel"

JS_CACHED = f"""async () => {{
  const cache = await caches.open('{CACHE}');
  return (await cache.keys()).map(r => new URL(r.url).pathname);
}}"""
JS_PUT = f"""async ([path, text]) => {{
  const cache = await caches.open('{CACHE}');
  await cache.put(new URL(path, location.href).href, new Response(text));
}}"""
CHECK = ("import agent_team, random, sys\n"
         "print(agent_team.__version__, agent_team.__file__, 'agent_team.grading' in sys.modules)\n"
         "import agent_team.grading, wave\n"
         "print(random.random())")


def expected_key(site_dir):
    return snapshot.key(site_dir, check.kernel_settings(site_dir)["loadPyodideOptions"])


def lock_version(site_dir, name="agent-team"):
    lock = json.loads((site_dir / "static" / "pyodide" / "pyodide-lock.json").read_text())
    return lock["packages"][name]["version"]


def test_a_return_visit_restores_the_snapshot_of_this_build(guarded, site_url, site_dir):
    page, guard = guarded
    key = expected_key(site_dir)
    assert json.loads((site_dir / snapshot.KEY_FILE).read_text()) == {"key": key}
    page.goto(f"{site_url}{snapshot.KEY_FILE.as_posix()}")  # any page of the site: same Cache Storage
    # An entry of an older build (another key), and garbage under it: never to be restored.
    stale = "static/pyodide/agent-team-snapshot/" + "0" * 64
    for part in ("heap", "files"):
        page.evaluate(JS_PUT, [f"{site_url}{stale}/{part}", "not a snapshot"])

    driver.open_notebook(page, site_url, NOTEBOOK)
    assert driver.snapshot_state(page) in ("storing", "stored"), "a first visit starts afresh and stores a snapshot"
    first = driver.execute(page, CHECK, 60)["out"]
    assert driver.wait_snapshot_stored(page) == "stored"
    cached = sorted(page.evaluate(JS_CACHED))
    assert cached == [f"/static/pyodide/agent-team-snapshot/{key}/{p}" for p in ("files", "heap")], cached

    draws = [first.split()[-1]]
    for _ in range(2):
        page.reload()
        driver.wait_kernel_idle(page, 120)
        assert driver.snapshot_state(page) == "restored"
        out = driver.execute(page, CHECK, 60)["out"]
        version, path, graded_before = out.split()[:3]
        assert version == lock_version(site_dir), out
        assert path == "/lib/python3.14/site-packages/agent_team/__init__.py", out
        assert graded_before == "False", "agent_team.grading is imported only by the cell above"
        draws.append(out.split()[-1])
    assert len(set(draws)) == 3, f"the same random numbers after a restore: {draws}"

    result = page.evaluate(driver.JS_INTERRUPT)
    assert result["reply"] and "KeyboardInterrupt" in result["reply"]["ename"], result
    assert result["after"]["out"] == "42\n", result


def test_a_damaged_snapshot_means_a_normal_start_and_is_not_tried_again(guarded, site_url, site_dir):
    page, guard = guarded
    key = expected_key(site_dir)
    entry = f"/static/pyodide/agent-team-snapshot/{key}/"
    page.goto(f"{site_url}{snapshot.KEY_FILE.as_posix()}")  # any page of the site: same Cache Storage
    for part in ("heap", "files"):
        page.evaluate(JS_PUT, [f"{site_url}{entry[1:]}{part}", "damaged"])
    log = []
    page.on("console", lambda m: log.append(m.text))
    driver.open_notebook(page, site_url, NOTEBOOK, 120)
    assert driver.snapshot_state(page) == "refused", "started plainly, and took no snapshot to store"
    assert any("snapshot could not be restored" in line for line in log), log[-20:]
    assert driver.execute(page, "print(6 * 7)") == {"status": "ok", "out": "42\n"}
    assert sorted(page.evaluate(JS_CACHED)) == [entry + "refused"], "the damaged entry is deleted"
    log.clear()
    page.reload()
    driver.wait_kernel_idle(page, 120)
    assert driver.snapshot_state(page) == "refused", "the next visit does not try it again"
    assert not any("snapshot could not be restored" in line for line in log), log[-20:]
    assert sorted(page.evaluate(JS_CACHED)) == [entry + "refused"]
