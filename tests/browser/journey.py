"""A learner's journey through one notebook, written once for every engine (engines.py's pages).

Steps (each returns what it measured; test_journey.py says which run where):
- open: a first visit (fresh profile) to kernel idle; before anything runs, every stored output and
  saved widget shows as stored (first_open.py);
- attempt: the exercise functions get a wrong answer (`return None`) and the learner runs all: every
  code cell runs without an error, every grader report of the notebook shows, the attempted
  exercise's says "not yet";
- loop: the exercise body becomes an endless loop; run all still ends (test_runaway.py's loops and
  the graders' caps), the kernel keeps its state;
- interrupt: Kernel -> Interrupt stops `while True: pass` (an engine with SharedArrayBuffer), or,
  where there is none, the page says in one line that Interrupt is not available;
- interrupt_reply: the interrupted cell's reply is a KeyboardInterrupt (the learner is told);
- return: save, reload (a return visit, same profile): the kernel comes back restored from the
  snapshot the first visit stored and answers, and the saved cells and reports are all there;
- restart: Kernel -> Restart while `while True: pass` runs (what the page tells a learner whose
  browser cannot interrupt a cell) brings back a kernel that answers, however long its start;
- home: the course's home page, opened next, shows each exercise as the notebook's last grader
  report left it (read from the browser's storage: the record the progress widget shows).
Everything goes through page.evaluate, with lite's JavaScript snippets; the kernel's worker is read
from the kernel itself (`js` in Pyodide is the worker's global scope), not through a driver.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import first_open
from exercise_cells import EXERCISE_FUNCTIONS, LOOPS, is_exercise, replace_bodies

from browsers import driver
from browsers.engines import snapshot_state, wait_snapshot_stored

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "build" / "screenshots"
REPORT_RE = re.compile(r"<Report '(?P<title>[^']*)': (?P<status>[a-z ]+), (?P<ok>\d+)/(?P<n>\d+) checks>")
WRONG = ["return None"]
# Generous bounds (seconds), read at call time so a test can shrink them.
FIRST_VISIT_SECONDS = 180
RETURN_VISIT_SECONDS = 120
RUN_ALL_SECONDS = 300
RESTART_SECONDS = 300  # a plain start: up to 60 s seen in WebKit under Xvfb, and the machine may be busy
# What Interrupt needs (as website/extension/src/capabilities.ts's sharedMemory() checks it).
JS_SHARED_MEMORY = """() => !!globalThis.crossOriginIsolated && typeof SharedArrayBuffer === 'function'
  && typeof Atomics === 'object' && typeof Atomics.waitAsync === 'function'"""
# Each exercise's badge on the home page (website/home.py draws them, page/home.ts fills them in).
JS_HOME_BADGES = """(ids) => ids.map((id) => {
  const badge = document.querySelector(`[data-exercise="${id}"] [data-status]`);
  return badge && badge.textContent; })"""
# Kernel -> Restart as its dialog does once accepted, with a cell that never ends running; not awaited
# here (page.evaluate has no timeout): window.__agentTeamRestart says when it is done, or how it failed.
JS_RESTART = """async () => {
  const context = window.jupyterapp.shell.currentWidget.sessionContext;
  context.session.kernel.requestExecute({code: 'while True: pass'}).done.catch(() => {});
  await new Promise((r) => setTimeout(r, 1500));
  window.__agentTeamRestart = 'restarting';
  context.restartKernel().then(() => { window.__agentTeamRestart = 'done'; },
                               (e) => { window.__agentTeamRestart = String(e); });
  return true;
}"""
# A line of the page (the site's own message) saying Interrupt is not available and what to do.
JS_NO_INTERRUPT_LINE = r"""() => document.body.innerText.split('\n')
  .filter(l => /interrupt/i.test(l) && /restart/i.test(l) && l.length < 300)"""


class Journey:
    """One notebook (path in the site) in one engine's page; `times` collects what was measured."""

    def __init__(self, page, base_url, site_path):
        self.page, self.base_url, self.site_path = page, base_url, site_path
        self.disk_path = ROOT / "notebooks" / site_path
        self.functions = EXERCISE_FUNCTIONS.get(site_path, [])
        self.times = {}
        self.shots = SHOTS / page.name
        self.shots.mkdir(parents=True, exist_ok=True)

    def shot(self, step):
        self.page.screenshot(path=self.shots / f"{Path(self.site_path).stem}-{step}.png")

    def open(self):
        page = self.page
        self.times["first_visit_idle_s"] = driver.open_notebook(page, self.base_url, self.site_path,
                                                              timeout=FIRST_VISIT_SECONDS, polling=100)
        self.shot("open")
        assert page.evaluate("crossOriginIsolated"), f"{page.name}: the page is not cross-origin isolated"
        found = first_open.problems_after_open(page, self.disk_path)
        assert not found, f"{page.name}: {self.site_path} on first open: {found}"

    def attempt(self):
        """A wrong answer in every exercise function, then run all."""
        page = self.page
        replaced = self._replace_bodies(WRONG)
        went_through, self.times["run_all_s"] = driver.run_all(page, timeout=RUN_ALL_SECONDS)
        cells = driver.cells(page)
        self.shot("attempt")
        driver.assert_ran_through(f"{page.name}: {self.site_path}", went_through, cells)
        shown = reports(cells)
        # every exercise's report is there: the learner form stores none (tools/learner_form.py),
        # so the titles come from the worked solutions' stored reports
        solved = ROOT / "notebooks" / "solutions" / Path(self.site_path).name
        stored = reports(json.loads(solved.read_text())["cells"]) if solved.exists() else {}
        assert sorted(shown) == sorted(stored), f"{page.name}: reports {shown}, the solutions' {stored}"
        if replaced:
            wrong = [t for t, status in shown.items() if status == "not yet"]
            assert wrong, f"{page.name}: {self.site_path}: no report says 'not yet' for {replaced}: {shown}"

    def return_visit(self):
        """Save, come back (reload, same profile): restored from the snapshot, the work kept."""
        page = self.page
        state = wait_snapshot_stored(page)
        assert state == "stored", f"{page.name}: the first visit's snapshot: {state}"
        saved = driver.cells(page)
        start = time.monotonic()
        first_open.save_and_reload(page, timeout=RETURN_VISIT_SECONDS)
        self.times["return_visit_idle_s"] = time.monotonic() - start
        self.shot("return")
        assert snapshot_state(page) == "restored", f"{page.name}: return visit: {snapshot_state(page)}"
        cells = driver.cells(page)
        assert [c["source"] for c in cells] == [c["source"] for c in saved], f"{page.name}: the saved work changed"
        assert reports(cells) == reports(saved), f"{page.name}: reports {reports(cells)}, saved {reports(saved)}"
        after = driver.execute(page, "print(1 + 1)")
        assert after == {"status": "ok", "out": "2\n"}, f"{page.name}: the restored kernel: {after}"

    def restart(self):
        """Kernel -> Restart with an endless cell running: a kernel comes back and answers."""
        page = self.page
        start = time.monotonic()
        page.evaluate(JS_RESTART)
        page.wait_for_function("() => window.__agentTeamRestart !== 'restarting' && (" + driver.JS_KERNEL_STATUS
                               + ")() !== 'restarting'", timeout=RESTART_SECONDS * 1000, polling=200)
        status = page.evaluate("() => [window.__agentTeamRestart, (" + driver.JS_KERNEL_STATUS + ")()]")
        assert status[0] == "done" and status[1] != "dead", f"{page.name}: after Kernel -> Restart: {status}"
        page.wait_for_function(driver.JS_KERNEL_IDLE, timeout=RESTART_SECONDS * 1000, polling=200)
        self.times["restart_s"] = time.monotonic() - start
        self.shot("restart")
        after = driver.execute(page, "print(1 + 1)")
        assert after == {"status": "ok", "out": "2\n"}, f"{page.name}: the restarted kernel: {after}"

    def home(self):
        """The home page after the work: each exercise's badge says what its last report said."""
        page = self.page
        last = {title.split()[1].rstrip(":"): status for title, status in reports(driver.cells(page)).items()
                if title.startswith("Exercise ")}
        if not last:
            return  # a notebook with no graded exercise
        page.goto(self.base_url)
        page.wait_for_function("() => window.__agentTeamHome && window.__agentTeamHome.record", timeout=30_000)
        ids = sorted(last)
        badges = dict(zip(ids, page.evaluate(JS_HOME_BADGES, ids)))
        self.shot("home")
        for exercise, status in last.items():
            badge = badges[exercise] or ""
            ok = badge == "passed" if status == "passed" else badge.startswith(("not yet (", "passed before"))
            assert ok, f"{page.name}: exercise {exercise}'s last report says {status!r}, the home page {badge!r}"

    def loop(self):
        """An endless loop in the exercise: run all ends anyway, the kernel keeps SENTINEL."""
        page = self.page
        loop = LOOPS[self.site_path]
        self._replace_bodies(loop)
        went_through, self.times["loop_run_all_s"] = driver.run_all(page, timeout=RUN_ALL_SECONDS)
        cells = driver.cells(page)
        self.shot("loop")
        driver.assert_ran_through(f"{page.name}: {self.site_path} with a loop", went_through, cells)
        text = "\n".join(driver.text_of(o) for o in driver.outputs(cells))
        assert "did not return" in text, f"{page.name}: no output says the function did not return"
        after = driver.execute(page, "print(SENTINEL)")
        assert after == {"status": "ok", "out": "42\n"}, f"{page.name}: the kernel lost its state: {after}"

    def interrupt(self):
        page = self.page
        if not page.evaluate(JS_SHARED_MEMORY):
            # Without it a cell cannot be stopped: the page must say so, once, in a learner's words.
            lines = page.evaluate(JS_NO_INTERRUPT_LINE)
            self.shot("no-interrupt")
            assert len(lines) == 1, f"{page.name}: no SharedArrayBuffer; lines about Interrupt: {lines}"
            return
        result = self.interrupted = page.evaluate(driver.JS_INTERRUPT)
        assert "early" not in result, f"{page.name}: the loop ended by itself: {result}"
        assert result["reply"], f"{page.name}: the loop still runs {result['seconds']:.0f} s after Interrupt"
        self.times["interrupt_s"] = result["seconds"]
        assert result["after"]["reply"]["status"] == "ok" and result["after"]["out"] == "42\n", result

    def interrupt_reply(self):
        """The interrupted cell tells the learner so: its reply is a KeyboardInterrupt."""
        reply = getattr(self, "interrupted", {}).get("reply")
        if reply is None:
            return  # no Interrupt here (no shared memory): interrupt() checked the notice
        assert "KeyboardInterrupt" in reply.get("ename", ""), f"{self.page.name}: the interrupted cell's reply: {reply}"

    def _replace_bodies(self, body):
        changes, replaced = [], []
        for index, cell in enumerate(driver.cells(self.page)):
            if cell["cell_type"] == "code" and is_exercise(cell):
                source, found = replace_bodies(driver._join(cell["source"]), self.functions, body)
                if found:
                    changes.append([index, source])
                    replaced += found
        assert sorted(replaced) == sorted(self.functions), f"exercise functions found: {replaced}"
        if changes:
            self.page.evaluate(driver.JS_SET_SOURCES, changes)
        return replaced


def reports(cells):
    """{report title: status} of the grader reports in these cells' outputs."""
    found = {}
    for cell in cells:
        for out in cell.get("outputs", []):
            found.update((m["title"], m["status"]) for m in REPORT_RE.finditer(driver.text_of(out)))
    return found


def engines_wanted():
    """AGENT_TEAM_ENGINES (comma-separated), by default the engines besides Chromium's own suite."""
    return [e for e in os.environ.get("AGENT_TEAM_ENGINES", "firefox,webkit,webkit-no-sab").split(",") if e]
