"""Every notebook of the course, learner and solution forms, run in Chromium against the built site.

For each notebook: open it in JupyterLite, wait for the Pyodide kernel and check that, before
anything runs, every stored output shows as stored (tests/browser/first_open.py: no comma-prefixed
printed lines, stored HTML/SVG rendered, saved widgets rendered, not "Loading widget..."), and in the
learner forms no prediction's answer (none checked, every form open); for the learner forms again
after a save and a reload. Then run all cells, and check
- no error output, no printed traceback, run-all went through every code cell;
- every grader report in the committed outputs (`<Report 'Exercise ...': status, n/m checks>`)
  appears in the browser too, and in the solution forms every report says "passed";
- every widget output is rendered as a live widget view, and the widgets respond: every step
  stepper moves when its next (or previous) button is pressed, every quiz shows its explanation
  when answered; EXPECTED below says how many of each a notebook must have, and any extra
  clicks and texts it must show;
- in the learner forms, the course's outputs fit at two widths in both themes and pass axe-core
  (tests/browser/layout.py; measured once run-all is done, before any widget is pressed);
- no request left 127.0.0.1 (the `guarded` fixture fails the test otherwise).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import expect

import first_open
import layout

from browsers import driver

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
REPORT_RE = re.compile(r"<Report '(?P<title>[^']*)': (?P<status>[a-z ]+), (?P<ok>\d+)/(?P<n>\d+) checks>")


@dataclass
class Expect:
    """What one notebook must show in the browser, beyond the generic checks."""

    texts: list = field(default_factory=list)          # must appear in some output
    # (what to click, text that must then appear)
    clicks: list = field(default_factory=list)
    steppers: int = 0                                   # at least this many step-through widgets
    quizzes: int = 0                                    # at least this many quizzes


# Notebook-specific expectations, keyed by the path inside the site.
EXPECTED = {
    "smoke.ipynb": Expect(
        texts=["agent_team 0.1.0 on emscripten", "SMOKE-DONE 42", "LOOP-STOPPED in",
               "Exercise 3.1: run_team: NOT YET", "did not return within 2 s"],
        clicks=[("button:has-text('smoke: press me')", "smoke: pressed")],
    ),
    **{f"{form}{name}": Expect(steppers=steppers, quizzes=quizzes)
       for form in ("", "solutions/")
       for name, steppers, quizzes in [
           ("01_architecture.ipynb", 0, 2),
           ("02_policies.ipynb", 1, 2),
           ("03_supervisor.ipynb", 2, 3),
           ("04_failure_injection.ipynb", 0, 3),
           ("05_real_team.ipynb", 1, 2),
           ("07_real_model.ipynb", 2, 2),
           ("08_frameworks.ipynb", 0, 1),
       ]},
    # part 6's stepper shows the learner's own fault, so only the worked solution has one to press
    "06_your_team.ipynb": Expect(quizzes=2),
    "solutions/06_your_team.ipynb": Expect(steppers=1, quizzes=2),
}


def site_notebooks():
    """(path in the site, path on disk): notebooks/ is the site's root folder."""
    found = [(p.name, p) for p in sorted((HERE / "notebooks").glob("*.ipynb"))]
    nb_dir = ROOT / "notebooks"
    found += [(p.relative_to(nb_dir).as_posix(), p) for p in sorted(nb_dir.glob("*.ipynb"))]
    found += [(p.relative_to(nb_dir).as_posix(), p) for p in sorted(nb_dir.glob("solutions/*.ipynb"))]
    return found


def committed_reports(path: Path):
    nb = json.loads(path.read_text())
    reports = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            reports += [m.group(0) for m in REPORT_RE.finditer(driver.text_of(out))]
    return reports


def assert_progress_counts_the_graded_runs(site_path, outputs):
    """The progress widget at the end of a part lists each of its exercises with one graded run (its
    report, shown by the grader cell, was recorded in the browser's storage) and no other exercise;
    done in the worked solutions. The page's storage is new for every test."""
    from agent_team import course

    name = site_path.removeprefix("solutions/")
    graded = [e.id for e in course.EXERCISES if name[:2].isdigit() and e.part == int(name[:2])]
    shown = [driver.text_of(o) for o in outputs if "Your progress" in driver.text_of(o)]
    if not graded or not shown:
        return
    runs = re.findall(r"(\d+) graded runs?", shown[-1])
    assert runs == ["1"] * len(graded), (f"{site_path}: the progress widget shows graded runs {runs}, "
                                         f"expected one for each of {graded}")
    if site_path.startswith("solutions/"):
        for ex_id in graded:
            assert f"[x] {ex_id} " in shown[-1], f"{site_path}: {ex_id} not done in the progress widget"


@pytest.fixture(scope="module")
def kinds_seen():
    """(widget kind, width, theme) measured and photographed by layout.problems, and the pages checked."""
    seen = set()
    yield seen
    missing = layout.missing_kinds(seen)
    assert not missing, f"widget kinds never found on any page: {missing}"


def test_axe_is_served_locally():
    """The accessibility checker comes from node_modules (package.json), never from a CDN."""
    package = json.loads((ROOT / "package.json").read_text())
    assert "axe-core" in {**package.get("dependencies", {}), **package.get("devDependencies", {})}
    assert layout.AXE.exists()


def test_network_guard_blocks_other_origins(guarded, site_url):
    """The guard itself works: a fetch to a CDN from the page is stopped and recorded."""
    page, guard = guarded
    page.goto(site_url + "lab/index.html")
    # On a first visit the page reloads itself once to become cross-origin isolated (website/isolation.py);
    # JupyterLab starts after that reload, so once it exists no navigation can cut the fetch short.
    page.wait_for_function("() => !!window.jupyterapp", timeout=120_000)
    result = page.evaluate("""() => fetch('https://cdn.jsdelivr.net/pyodide/').then(
        () => 'fetched', (e) => 'blocked')""")
    assert result == "blocked"
    assert guard.blocked == ["https://cdn.jsdelivr.net/pyodide/"]
    guard.blocked.clear()  # expected here; every other test must leave it empty


@pytest.mark.parametrize("site_path,disk_path", site_notebooks(), ids=[p for p, _ in site_notebooks()])
def test_notebook_runs_in_browser(guarded, site_url, site_path, disk_path, kinds_seen):
    page, guard = guarded
    expect = EXPECTED.get(site_path, Expect())

    idle = driver.open_notebook(page, site_url, site_path)
    assert page.evaluate("crossOriginIsolated"), "the page is not cross-origin isolated: no Interrupt"
    assert not first_open.problems_after_open(page, disk_path), f"{site_path} on first open"
    if site_path[:2].isdigit():
        assert not first_open.answers_shown(page), f"{site_path} on first open"
    if site_path[:2].isdigit():  # a learner form: what they see after saving their work and coming back
        # ... to a kernel restored from the snapshot the first visit stored (test_snapshot.py)
        assert driver.wait_snapshot_stored(page) == "stored"
        first_open.save_and_reload(page)
        assert driver.snapshot_state(page) == "restored"
        assert not first_open.problems_after_open(page, disk_path), f"{site_path} after a save and a reload"
    went_through, seconds = driver.run_all(page)
    cells = driver.cells(page)
    print(f"{site_path}: kernel idle in {idle:.1f} s, run all in {seconds:.1f} s")

    driver.assert_ran_through(site_path, went_through, cells)
    misfits = []
    if site_path in layout.NOTEBOOKS:
        assert layout.AXE.exists(), "axe-core is missing: run `npm ci` (it is a devDependency in package.json)"
        misfits = layout.problems(page, site_path, kinds_seen)

    outputs = driver.outputs(cells)
    text = "\n".join(driver.text_of(o) for o in outputs)
    for wanted in expect.texts:
        assert wanted in text, f"{site_path}: {wanted!r} not in the outputs"
    expected_reports = committed_reports(disk_path)
    for report in expected_reports:
        assert report in text, f"{site_path}: grader report {report!r} (committed output) not shown"
    if site_path.startswith("solutions/"):
        for m in REPORT_RE.finditer(text):
            assert m.group("status") == "passed", f"{site_path}: solution graded {m.group(0)}"
    assert_progress_counts_the_graded_runs(site_path, outputs)

    n_widgets = sum(1 for o in outputs if driver.shows_widget(o))
    if n_widgets:
        rendered = page.locator(".jp-OutputArea-output > .jupyter-widgets")
        assert rendered.count() >= n_widgets, f"{site_path}: {n_widgets} widget outputs, " \
            f"{rendered.count()} rendered views"
    assert page.get_by_text("Error displaying widget").count() == 0
    for selector, then in expect.clicks:
        page.locator(selector).first.click()
        page.get_by_text(then).first.wait_for(timeout=15_000)
    steppers = press_steppers(page)
    quizzes = answer_quizzes(page)
    print(f"{site_path}: {n_widgets} widget outputs, {steppers} steppers moved, {quizzes} quizzes answered")
    assert steppers >= expect.steppers, f"{site_path}: {steppers} steppers, expected {expect.steppers}"
    assert quizzes >= expect.quizzes, f"{site_path}: {quizzes} quizzes, expected {expect.quizzes}"
    assert not misfits, f"{site_path}:\n" + "\n".join(misfits)
    if site_path in layout.NOTEBOOKS:
        print(f"{site_path}: fits at {layout.WIDTHS} px in {list(layout.THEMES)}; no serious axe violation; "
              f"screenshots in {layout.SHOTS.relative_to(ROOT)}")


def press_steppers(page):
    """Press next (previous on the last step) on every stepper; its counter must follow."""
    steppers = page.locator(".widget-hbox:has(> button:has-text('next')):has(> .widget-label)")
    moved = 0
    for i in range(steppers.count()):
        box = steppers.nth(i)
        box.scroll_into_view_if_needed()
        counter = box.locator("> .widget-label")
        m = re.fullmatch(r"\s*(\d+) / (\d+)\s*", counter.text_content())
        assert m, f"stepper counter reads {counter.text_content()!r}"
        step, total = int(m.group(1)), int(m.group(2))
        if total < 2:
            continue
        button, want = ("next", step + 1) if step < total else ("previous", step - 1)
        box.locator(f"> button:has-text('{button}')").click()
        expect(counter).to_have_text(f"{want} / {total}", timeout=15_000)
        moved += 1
    return moved


def answer_quizzes(page):
    """Pick the first answer of every quiz and press Check; an explanation must appear."""
    quizzes = page.locator(".widget-vbox:has(> button:has-text('Check')):has(input[type=radio])")
    for i in range(quizzes.count()):
        quiz = quizzes.nth(i)
        quiz.scroll_into_view_if_needed()
        quiz.locator("input[type=radio]").first.check()
        quiz.locator("> button:has-text('Check')").click()
        expect(quiz).to_contain_text(re.compile(r"Right:|Not quite:"), timeout=15_000)
    return quizzes.count()


def assert_kernel_started_early(page):
    """The kernel runs in the site plugin's worker, which the notebook page itself started (before
    JupyterLab loaded) and which had booted Pyodide and imported the kernel's packages (website/prewarm.py)."""
    assert page.evaluate("globalThis.__agentTeamWorker") is None, "the early worker was not taken by the kernel"
    workers = [w for w in page.workers if "/@agent-team/site-extension/static/" in w.url]
    assert len(workers) == 1, [w.url for w in page.workers]
    assert workers[0].evaluate("globalThis.__agentTeamStartedBy") == "page"
    times = workers[0].evaluate("globalThis.__agentTeamTimes")
    assert times and times["start"] <= times["booted"] <= times["imported"], times


def test_interrupt_stops_a_running_cell(guarded, site_url):
    """Kernel -> Interrupt stops `while True: pass` within 2 s; the kernel keeps its variables.

    The test server sends no COOP/COEP headers (like GitHub Pages): the page must isolate itself
    through the service worker (website/isolation.py) for the interrupt buffer to exist.
    """
    page, guard = guarded
    driver.open_notebook(page, site_url, "smoke.ipynb")
    assert page.evaluate("crossOriginIsolated")
    assert_kernel_started_early(page)
    result = page.evaluate(driver.JS_INTERRUPT)
    assert "early" not in result, f"the loop ended by itself: {result}"
    print(f"interrupt: the loop stopped {result['seconds']:.2f} s after Kernel -> Interrupt")
    assert result["reply"] and "KeyboardInterrupt" in result["reply"]["ename"], result
    assert result["seconds"] <= 2, f"the interrupt took {result['seconds']:.1f} s"
    assert result["after"]["reply"]["status"] == "ok" and result["after"]["out"] == "42\n", result
    # The page sends SIGINT again a second later while the cell has not replied: one that lands
    # while a slow engine still writes the traceback must not turn the reply into "ok" (WebKit, 2 of
    # 6 journeys; website/extension/src/boot.ts). Here the traceback takes 2.5 s, past two resends.
    slowed = driver.execute(page, SLOW_TRACEBACK)
    assert slowed == {"status": "ok", "out": ""}, slowed
    result = page.evaluate(driver.JS_INTERRUPT)
    assert result["reply"] and "KeyboardInterrupt" in result["reply"].get("ename", ""), result
    # The same while IPython formats the error again for its history, after showing it (a full heap
    # made that take 7 s in Firefox): a resent SIGINT landing there replaced the learner's traceback
    # with IPython's own frames, and none of the learner's code.
    slowed = driver.execute(page, SLOW_STORAGE)
    assert slowed == {"status": "ok", "out": ""}, slowed
    result = page.evaluate(driver.JS_INTERRUPT)
    assert result["reply"] and "KeyboardInterrupt" in result["reply"].get("ename", ""), result
    shown = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(result["reply"].get("traceback", [])))  # no colours
    assert "interactiveshell.py" not in shown and "while True" in shown, shown[-2000:]
    assert result["after"]["reply"]["status"] == "ok" and result["after"]["out"] == "42\n", result


def slowed(method):
    """``method`` of IPython's shell made 2.5 s slow (a busy loop, which a SIGINT can stop)."""
    return f"""ip = get_ipython()
def slow(*args, done=ip.{method}, **kwargs):
    import time
    end = time.monotonic() + 2.5
    while time.monotonic() < end:
        pass
    return done(*args, **kwargs)
ip.{method} = slow"""


SLOW_TRACEBACK = slowed("_showtraceback")  # writing the interrupted cell's traceback
# Formatting the traceback again for IPython's history, once it is shown: made slow inside
# _format_exception_for_storage (its formatter, when that method calls it), where a full heap was slow.
SLOW_STORAGE = """ip = get_ipython()
def slow(*args, done=ip.InteractiveTB.structured_traceback, **kwargs):
    import sys, time
    if sys._getframe(1).f_code.co_name == "_format_exception_for_storage":
        end = time.monotonic() + 2.5
        while time.monotonic() < end:
            pass
    return done(*args, **kwargs)
ip.InteractiveTB.structured_traceback = slow"""


# Select the cell after the first one that shows a widget (for Run All Above Selected Cell).
JS_SELECT_AFTER_FIRST_WIDGET = "(i) => { window.jupyterapp.shell.currentWidget.content.activeCellIndex = i + 1; }"


def shown_models(page):
    return [o["data"][driver.WIDGET_MIME]["model_id"] for o in driver.outputs(driver.cells(page))
            if driver.shows_widget(o)]


@pytest.mark.parametrize("run", ["all", "to the first widget"])
def test_widgets_a_learner_ran_come_back_after_a_save_and_reload(guarded, site_url, run):
    """A learner runs part 1 (new widgets), all of it or only its first cells, saves, comes back: every
    widget shows again, those of the run drawn from the state saved in the notebook (website/overrides.json:
    the widget manager's saveState), the others from the state stored before (the site's plugin,
    website/extension/src/widget-state.ts), not "Error displaying widget: model not found"."""
    page, guard = guarded
    driver.open_notebook(page, site_url, "01_architecture.ipynb")
    stored = shown_models(page)
    assert len(stored) >= 2, "part 1 shows widgets"
    command = "notebook:run-all-cells"
    if run != "all":
        first = next(i for i, cell in enumerate(driver.cells(page))
                     if any(map(driver.shows_widget, cell.get("outputs", []))))
        page.evaluate(JS_SELECT_AFTER_FIRST_WIDGET, first)
        command = "notebook:run-all-above"
    went_through, _ = driver.run_all(page, command=command)
    assert went_through
    assert page.evaluate(driver.JS_MODIFIED), "a run changes the notebook: it is marked modified"
    ran = shown_models(page)
    changed = sum(a != b for a, b in zip(stored, ran))
    assert len(ran) == len(stored) and changed == (len(stored) if run == "all" else 1), (stored, ran)
    widgets = len(ran)
    first_open.save_and_reload(page)
    texts = page.evaluate(first_open.JS_OUTPUT_TEXTS, ".jp-OutputArea-output")
    for _ in range(40):  # the widget manager restores them once the kernel answers
        if widgets_shown(page) >= widgets:
            break
        page.wait_for_timeout(500)
        texts = page.evaluate(first_open.JS_OUTPUT_TEXTS, ".jp-OutputArea-output")
    placeholders = [t.strip()[:60] for t in texts if t.strip().startswith(first_open.PLACEHOLDERS)]
    assert not placeholders, placeholders
    assert widgets_shown(page) >= widgets


def widgets_shown(page):
    """How many widget outputs show, live or as their stored HTML (first_open.live_or_html, less the
    outputs that are HTML of their own)."""
    outs = driver.outputs(driver.cells(page))
    htmls = sum("text/html" in o.get("data", {}) and not driver.shows_widget(o) for o in outs)
    return first_open.live_or_html(page) - htmls
