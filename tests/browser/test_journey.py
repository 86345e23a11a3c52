"""The learner's journey (journey.py) in every engine besides Chromium's own suite: Firefox ESR,
WebKitGTK with SharedArrayBuffer (as Safari has it) and WebKitGTK without it (as it ships).

What runs where is chosen for `make test`'s budget (docs/browsers.md has the measured times): every
learner notebook is opened, attempted and run in every engine; the return visit (save, reload,
snapshot restored) and the loop and Interrupt run in every notebook in Firefox and in two notebooks
in each WebKit, whose first visits take three times as long. AGENT_TEAM_ENGINES=firefox,chromium
picks engines (chromium runs the same journey through Playwright); AGENT_TEAM_JOURNEY=all runs
every step everywhere.
"""

from __future__ import annotations

import json
import os
import time

import pytest

import engines
import journey

LEARNER = sorted(p.name for p in (journey.ROOT / "notebooks").glob("*.ipynb"))
# engine: the notebooks that also get the return visit, the loop and Interrupt (None: all)
FULL = {"chromium": None, "firefox": None,
        "webkit": {"01_architecture.ipynb", "04_failure_injection.ipynb"},
        "webkit-no-sab": {"01_architecture.ipynb", "04_failure_injection.ipynb"}}
# Known failures until the start-up fix (issue 21, item 2) is merged: strict, so they turn red then.
KNOWN = {
    ("webkit", "return"): "WebKit: the snapshot restore hangs on a return visit (issue 21, item 2)",
    ("webkit-no-sab", "open"): "WebKit without SharedArrayBuffer: no kernel at all (issue 21, item 2)",
}
TIMES = journey.ROOT / "build" / "journey-times.json"


def cases():
    for engine in journey.engines_wanted():
        for path in LEARNER:
            full = os.environ.get("AGENT_TEAM_JOURNEY") == "all" or FULL[engine] is None or path in FULL[engine]
            steps = ["open", "attempt"] + (["return", "loop", "interrupt"] if full else [])
            marks = [pytest.mark.xfail(strict=True, reason=KNOWN[engine, s]) for s in steps if (engine, s) in KNOWN]
            yield pytest.param(engine, path, steps, id=f"{engine}-{path}", marks=marks[:1])


@pytest.fixture(scope="module", autouse=True)
def display():
    yield
    engines.Display.stop()


@pytest.mark.parametrize("engine,site_path,steps", list(cases()))
def test_learner_journey(request, site_url, engine, site_path, steps):
    why_not = engines.available(engine)
    if why_not:
        pytest.skip(why_not)
    start = time.monotonic()
    page = engines.open_page(engine)
    request.node.page_log = log = []
    trip = journey.Journey(page, site_url, site_path)
    done = []
    try:
        trip.open()
        done.append("open")
        trip.attempt()
        done.append("attempt")
        if "return" in steps:
            trip.return_visit()
            done.append("return")
        if "loop" in steps:
            trip.loop()
            trip.interrupt()
            done += ["loop", "interrupt"]
        foreign = page.foreign_requests()
        assert not foreign, f"{engine}: requests to other origins: {foreign}"
    finally:
        log += page.log()
        trip.times["total_s"] = time.monotonic() - start
        record(engine, page.version, site_path, done, trip.times)
        page.close()
    print(f"{engine} ({page.version}) {site_path}: " + ", ".join(f"{k} {v:.1f}" for k, v in trip.times.items()))


def record(engine, version, site_path, done, times):
    """Keep what each case measured in build/journey-times.json (docs/browsers.md quotes it)."""
    found = json.loads(TIMES.read_text()) if TIMES.exists() else {}
    found.setdefault(engine, {"version": version, "notebooks": {}})["version"] = version
    found[engine]["notebooks"][site_path] = {"steps_passed": done, **{k: round(v, 2) for k, v in times.items()}}
    TIMES.parent.mkdir(parents=True, exist_ok=True)
    TIMES.write_text(json.dumps(found, indent=2) + "\n")
