"""Start-up in the engines besides Chromium (bench.py's `engines` in bench/results.json).

For each engine (browsers/engines.py: Firefox ESR over WebDriver BiDi, WebKitGTK with
SharedArrayBuffer, optionally without), --repeat samples, each in a fresh profile:
- bare Pyodide (bench.py's bare.html): seconds from navigation to `1+1` answered, on a first visit
  (cold) and on the same page loaded again in that profile (warm: its cache and storage);
- the course, part 1: seconds from navigation to the notebook's kernel first seen idle, cold and
  warm (warm starts once the cold visit's snapshot is stored, as bench.py's Chromium samples do).
Both are timed in the page (performance.now(), looked for every 10 ms by a watcher in the page),
as bench.py times Chromium. A start that never reaches idle is recorded as None with the reason, not waited
for past START_SECONDS: the bench reports it rather than hanging.
Ratios are against bare Pyodide of the same kind in the same engine.
"""

from __future__ import annotations

import statistics
import time

from browsers import driver, engines

START_SECONDS = 150
# Starts (once per document) an in-page watcher that notes, looking every 10 ms, the seconds from
# navigation at which `ready` (a function's source) first held; returns them, or null while not yet.
# Each call returns at once: a long-running call cut short by the page's own isolation reload can
# leave WebKitWebDriver without an answer for good.
JS_WATCH = """(ready) => {
  if (!window.__benchWatch) {
    const test = (0, eval)('(' + ready + ')');
    window.__benchWatch = setInterval(() => {
      if (window.__benchAt === undefined && test()) {
        window.__benchAt = performance.now() / 1000;
        clearInterval(window.__benchWatch);
      }
    }, 10);
  }
  return window.__benchAt ?? null;
}"""
JS_BARE_DONE = "() => window.benchResult && window.benchResult.value === 2"


def seen_at(page, ready, timeout=START_SECONDS):
    """Seconds from the page's navigation when `ready` first held, or None after `timeout` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            at = page.evaluate(JS_WATCH, ready)
        except Exception:  # noqa: BLE001 -- the page reloading itself (isolation), not loaded yet
            at = None
        if at is not None:
            return at
        time.sleep(0.2)
    return None


def bare_boot(engine, base):
    page = engines.open_page(engine)
    out = {}
    try:
        for kind in ("cold", "warm"):
            page.goto(base + "bare.html")
            page.wait_for_function(JS_BARE_DONE, timeout=START_SECONDS * 1000)
            out[kind] = page.evaluate("() => window.benchResult.seconds")
    finally:
        page.close()
    return out, page.version


def course_start(engine, base, path):
    page = engines.open_page(engine)
    out = {}
    try:
        for kind in ("cold", "warm"):
            page.goto(f"{base}lab/index.html?path={path}")
            at = seen_at(page, driver.JS_KERNEL_IDLE)
            sample = {"idle": at}
            if at is None:
                sample["problem"] = f"no idle kernel within {START_SECONDS} s"
                out[kind] = sample
                if kind == "cold":
                    out["warm"] = {"idle": None, "problem": "no first visit to come back to"}
                    break
                continue
            sample["snapshot"] = engines.wait_snapshot_stored(page) if kind == "cold" else engines.snapshot_state(page)
            out[kind] = sample
        out["foreign_requests"] = page.foreign_requests()
    finally:
        page.close()
    return out


def median(values):
    values = [v for v in values if v is not None]
    return round(statistics.median(values), 3) if values else None


def ratio(a, b):
    return round(a / b, 2) if a is not None and b else None


def run(engine, base, path, repeat):
    """One engine's figures: medians, ratios against bare Pyodide in the same engine, samples."""
    why_not = engines.available(engine)
    if why_not:
        return {"skipped": why_not}
    try:
        return _run(engine, base, path, repeat)
    finally:
        engines.Display.stop()  # the virtual display WebKit's pages share, if one was started


def _run(engine, base, path, repeat):
    bare, course, version = [], [], None
    for i in range(repeat):
        sample, version = bare_boot(engine, base + "")
        bare.append(sample)
        course.append(course_start(engine, base + "site/", path))
        print(f"{engine} sample {i + 1}: bare {sample['cold']:.2f}/{sample['warm']:.2f} s; course idle "
              + "/".join("none" if course[-1][k]["idle"] is None else f"{course[-1][k]['idle']:.2f}"
                         for k in ("cold", "warm")) + " s (cold/warm)", flush=True)
    out = {"browser": version, "repeat": repeat,
           "bare_pyodide_s": median([b["cold"] for b in bare]),
           "warm_bare_pyodide_s": median([b["warm"] for b in bare])}
    for kind, prefix in (("cold", ""), ("warm", "warm_")):
        idle = [c[kind]["idle"] for c in course]
        out[prefix + "kernel_idle_s"] = median(idle)
        out[prefix + "kernel_idle_ratio"] = ratio(out[prefix + "kernel_idle_s"], out[prefix + "bare_pyodide_s"])
        out[prefix + "no_kernel"] = sum(i is None for i in idle)
        out[prefix + "snapshot"] = [c[kind].get("snapshot") for c in course]
    # the goals (docs/browsers.md): warm at most 1.5x bare, a return visit not slower than a first one
    out["warm_within_1_5x_bare"] = (out["warm_kernel_idle_ratio"] is not None
                                    and out["warm_kernel_idle_ratio"] <= 1.5 and not out["warm_no_kernel"])
    out["return_not_slower"] = (None not in (out["kernel_idle_s"], out["warm_kernel_idle_s"])
                                and out["warm_kernel_idle_s"] <= out["kernel_idle_s"] and not out["warm_no_kernel"])
    foreign = sorted({u for c in course for u in c.get("foreign_requests", [])})
    assert not foreign, f"{engine}: requests to other origins: {foreign}"
    out["samples"] = {"bare": bare, "course": course}
    return out


def report(name, r):
    if "skipped" in r:
        print(f"{name}: skipped ({r['skipped']})")
        return
    def fmt(s, x):
        return "   no kernel" if s is None else f"{s:10.2f} s {x:.2f}x"
    print(f"{name} ({r['browser']}):{'':14}{'cold':>16}{'warm':>16}")
    bare = f"{r['bare_pyodide_s']:10.2f} s 1.00x{r['warm_bare_pyodide_s']:10.2f} s 1.00x"
    print(f"  {'bare Pyodide boot (1+1)':32}{bare}")
    print(f"  {'shipped: kernel idle':32}{fmt(r['kernel_idle_s'], r['kernel_idle_ratio'] or 0)}"
          f"{fmt(r['warm_kernel_idle_s'], r['warm_kernel_idle_ratio'] or 0)}"
          f"   (no kernel: {r['no_kernel']} cold, {r['warm_no_kernel']} warm)")
