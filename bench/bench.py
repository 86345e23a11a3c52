"""Start-up benchmark of the site (`make bench`; not a test). One Chromium run measures, side by side:

(a) bare Pyodide: a page that imports the site's own pyodide.mjs, boots it and runs `1+1`;
(b) the course, opening part 1 to kernel idle, then the first output after idle (its first code cell);
(c) bytes and requests of that load;
each of them twice: *cold* (a fresh browser profile: empty cache and storage, a first visit) and
*warm* (a new tab in the same browser profile right after: the disk cache, service worker and
storage of the first visit, a learner coming back); and the run-all time of every notebook.
(d) a first visit that starts at the course's home page, reads it for --read seconds (10) and then
opens part 1 (bench/home.py), shipped site only, each --repeat;
(b) and (c) are measured for each site variant (bench/variants.py): `shipped` as `make site`
builds it, and by default `no-snapshot` (the lever of a return visit) and `no-levers` (none of
the start-up levers), so what they buy is visible; `--variants
shipped,no-prewarm,no-service-worker,no-snapshot` shows one lever at a time. A warm sample starts
once the cold one's kernel snapshot is stored (a learner comes back later).
Both (a) and (b) are timed in the page, from its navigation (as `performance.now()` counts): the
bare page when `1+1` is answered, the course when the open notebook's kernel first reports idle
(looked for every 10 ms); the time the test driver saw, from its navigation call, is kept beside
it (`idle_driver`). Samples are interleaved (bare, then each variant, --repeat times, each
sample starting with the next variant) and the medians reported with their ratio to (a) of the
same kind (cold to cold, warm to warm), with the load average, since timings on a shared machine
are noisy. Results go to bench/results.json.
Nothing but 127.0.0.1 is reachable (the browser tests' host rules; see Profile).

Then the same cold and warm kernel idle, against bare Pyodide in the same engine, in Firefox ESR
and WebKitGTK (bench/per_engine.py), under "engines" in bench/results.json; --engines-only runs only
those and keeps the Chromium figures of the results file as they are.

    python -m bench.bench [--site _output] [--repeat 3] [--variants shipped,no-snapshot,no-levers]
                          [--no-build] [--no-run-all] [--timeline] [--engines firefox,webkit] [--engines-only]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from browsers import driver
from website import serve

from . import home, per_engine
from .variants import build_options

ROOT = Path(__file__).resolve().parents[1]

BARE_HTML = """<!doctype html><meta charset="utf-8"><title>bare Pyodide</title>
<script type="module">
const { loadPyodide } = await import("./site/static/pyodide/pyodide.mjs");
const pyodide = await loadPyodide();
const value = pyodide.runPython("1+1");
window.benchResult = { seconds: performance.now() / 1000, value };
</script>
"""
JS_FIRST_OUTPUT = """async () => {
  const app = window.jupyterapp;
  const panel = app.shell.currentWidget;
  const nb = panel.content;
  const i = nb.widgets.findIndex(c => c.model.type === 'code' && c.model.sharedModel.getSource().trim());
  nb.activeCellIndex = i;
  const t0 = performance.now();
  // A kernel that never answers must fail the bench, not stall it.
  const ran = await Promise.race([app.commands.execute('notebook:run-cell').then(() => true),
                                  new Promise(r => setTimeout(() => r(false), 60000))]);
  if (!ran) throw new Error('the first code cell of ' + panel.context.path + ' did not finish within 60 s');
  const cell = nb.widgets[i];
  while (cell.model.outputs.length === 0 && performance.now() - t0 < 30000) {
    await new Promise(r => setTimeout(r, 5));
  }
  return { seconds: (performance.now() - t0) / 1000, outputs: cell.model.outputs.length };
}"""
KINDS = ("cold", "warm")


def notebooks():
    nb_dir = ROOT / "notebooks"
    found = [p.relative_to(nb_dir).as_posix() for p in sorted(nb_dir.glob("*.ipynb"))]
    found += [p.relative_to(nb_dir).as_posix() for p in sorted(nb_dir.glob("solutions/*.ipynb"))]
    return found


class Profile:
    """A fresh browser profile on disk (empty cache and storage) with the network guard, as a
    learner's browser keeps one: its disk cache (and compiled-code cache) is what a return visit
    reuses. Not driver.new_page: Playwright turns the HTTP cache off in a context with a route, and
    an in-memory context cache drops the 9.6 MB pyodide.asm.wasm. The guard still records any
    request to another origin; --host-resolver-rules (driver.CHROMIUM_ARGS) lets none leave 127.0.0.1."""

    def __init__(self, playwright, base, count_bytes=False):
        self.dir = tempfile.mkdtemp(prefix="bench-profile-")
        self.context = playwright.chromium.launch_persistent_context(
            self.dir, executable_path=driver.CHROMIUM, args=driver.CHROMIUM_ARGS)
        self.guard = driver.Guard(driver._origin(base))
        self.context.on("request", self.guard.on_request)
        self.context.on("requestfailed", self.guard.on_failed)
        if count_bytes:
            self.context.on("requestfinished", self.guard.on_finished)
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()

    def new_tab(self):
        """The first visit's tab is closed; its cache, service worker and storage stay."""
        self.page.close()
        self.page = self.context.new_page()
        return self.page

    def close(self):
        self.context.close()
        shutil.rmtree(self.dir, ignore_errors=True)
        assert not self.guard.blocked, self.guard.blocked


def bare_boot(playwright, base):
    """{cold, warm}: seconds from navigation to `1+1` answered, first visit then a new tab."""
    profile = Profile(playwright, base)
    page = profile.page
    out = {}
    for kind in KINDS:
        if kind == "warm":
            page = profile.new_tab()
        page.goto(base + "bare.html")
        page.wait_for_function("() => window.benchResult", timeout=120_000, polling=10)
        result = page.evaluate("() => window.benchResult")
        assert result["value"] == 2, result
        out[kind] = result["seconds"]
    profile.close()
    return out


# When the open notebook's kernel was first seen idle, in seconds from the page's navigation.
JS_IDLE_AT = ("() => (" + driver.JS_KERNEL_IDLE + ")() && (window.__benchIdleAt ??= performance.now() / 1000)")

JS_KERNEL_MARKS = """() => Object.fromEntries(performance.getEntriesByType('mark')
  .filter(m => m.name.startsWith('agent-team:')).map(m => [m.name.slice(11), m.startTime / 1000]))"""


def worker_stages(page):
    """Seconds from navigation at which the kernel's worker finished each stage (website/extension/src/boot.ts),
    and at which JupyterLab created the kernel and the kernel was ready (its marks, kernel.ts)."""
    origin = page.evaluate("() => performance.timeOrigin")
    stages = {k.replace("-", "_"): round(v, 3) for k, v in page.evaluate(JS_KERNEL_MARKS).items()}
    times = driver.worker_value(page, "__agentTeamTimes") or {}
    stages.update({k: round((v - origin) / 1000, 3) for k, v in times.items()})
    return dict(sorted(stages.items(), key=lambda kv: kv[1]))


def course_start(playwright, base, path, timeline=False, server=None):
    """{cold: {...}, warm: {...}}: kernel idle, stages, bytes, requests of a first and a return visit
    (and, given the `server`, the bytes it sent)."""
    profile = Profile(playwright, base, count_bytes=True)
    page, guard = profile.page, profile.guard
    starts = []
    if timeline:
        page.context.on("request", lambda r: starts.append((time.monotonic(), r.url)))
    out = {}
    for kind in KINDS:
        if kind == "warm":
            page = profile.new_tab()
        guard.bytes = guard.requests = 0
        sent = server.body_bytes if server else 0
        t0 = time.monotonic()
        idle_driver = driver.open_notebook(page, base, path, idle=JS_IDLE_AT, polling=10)
        sample = {"idle": page.evaluate("() => window.__benchIdleAt"), "idle_driver": idle_driver}
        if kind == "cold":
            sample["first_output"] = page.evaluate(JS_FIRST_OUTPUT)["seconds"]
            # A learner comes back later: by then the first visit's snapshot is stored.
            driver.wait_snapshot_stored(page)
        sample["snapshot"] = driver.snapshot_state(page)
        sample["stages"] = worker_stages(page)  # with the time it was stored
        page.wait_for_timeout(300)  # let the last responses finish for the byte count
        sample.update(bytes=guard.bytes, requests=guard.requests)
        if server:
            sample["server_bytes"] = server.body_bytes - sent
        out[kind] = sample
        if timeline:
            print(f"{kind} start:")
            for t, url in starts:
                print(f"  {t - t0:6.2f} s  {url.replace(base, '/')}")
            starts.clear()
    profile.close()
    return out


def run_all(browser, base, path):
    page, guard = driver.new_page(browser, base)
    driver.open_notebook(page, base, path)
    ok, seconds = driver.run_all(page)
    page.context.close()
    assert not guard.blocked, guard.blocked
    return seconds


def median(values):
    return statistics.median(values) if values else None


def summary(samples, bare):
    """Medians of one variant's samples, each ratio against bare Pyodide of the same kind."""
    out = {}
    for kind in KINDS:
        prefix = "" if kind == "cold" else "warm_"
        runs = [s[kind] for s in samples]
        idle = median([r["idle"] for r in runs])
        out[prefix + "kernel_idle_s"] = round(idle, 3)
        out[prefix + "kernel_idle_ratio"] = round(idle / bare[kind], 2)
        # as the test driver saw it, from its navigation call (not a ratio: bare has no such figure)
        out[prefix + "kernel_idle_driver_s"] = round(median([r["idle_driver"] for r in runs]), 3)
        # what the kernel's worker did with the snapshot, per sample: "stored" (a start afresh that
        # stored one), "restored", or "none"/None (the no-snapshot variants)
        out[prefix + "snapshot"] = [r.get("snapshot") for r in runs]
        names = {k for r in runs for k in r["stages"]}
        # seconds from navigation: the worker got the prewarm request (start), JupyterLab created
        # the kernel (kernel_created), Pyodide and every preloaded package were ready (booted), the
        # kernel's imports were done (imported; both the restore's end for a restored snapshot),
        # the kernel was ready (kernel_ready), the snapshot was stored (stored)
        out[prefix + "worker_stages_s"] = {k: round(median([r["stages"][k] for r in runs if k in r["stages"]]), 3)
                                           for k in sorted(names, key=lambda k: median(
                                               [r["stages"][k] for r in runs if k in r["stages"]]))}
        out[prefix + "load_bytes"] = int(median([r["bytes"] for r in runs]))
        out[prefix + "load_requests"] = int(median([r["requests"] for r in runs]))
    first = median([s["cold"]["first_output"] for s in samples])
    out["first_output_after_idle_s"] = round(first, 3)
    out["first_output_ratio"] = round((out["kernel_idle_s"] + first) / bare["cold"], 2)
    return out


def build_variants(site, variants):
    """{variant: built site folder}; `shipped` goes to --site, the others under build/bench-sites/."""
    sites = {}
    for name in variants:
        dest = site if name == "shipped" else ROOT / "build" / "bench-sites" / name
        subprocess.run([sys.executable, "-m", "website.build", "--output", str(dest), *build_options(name)],
                       check=True, cwd=ROOT)
        sites[name] = dest
    return sites


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--site", type=Path, default=ROOT / "_output")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--variants", default="shipped,no-snapshot,no-levers",
                    help="comma-separated: shipped, no-levers, no-<lever> (bench/variants.py); shipped first")
    ap.add_argument("--no-build", action="store_true", help="use the sites as they are")
    ap.add_argument("--no-run-all", action="store_true", help="skip the run-all of every notebook")
    ap.add_argument("--timeline", action="store_true", help="print the request timeline of one start")
    ap.add_argument("--read", type=float, default=home.READ_SECONDS,
                    help="seconds the learner reads the home page before opening part 1 (d)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results.json")
    ap.add_argument("--engines", default="firefox,webkit",
                    help="comma-separated engines besides Chromium: firefox, webkit, webkit-no-sab ('' for none)")
    ap.add_argument("--engines-only", action="store_true",
                    help="only the other engines (shipped site); the results file's Chromium figures are kept")
    args = ap.parse_args()
    variants = ["shipped"] if args.engines_only else args.variants.split(",")
    if variants[0] != "shipped":
        sys.exit("--variants must start with shipped (the site the top-level figures describe)")
    site = args.site.resolve()
    if args.no_build:
        sites = {n: site if n == "shipped" else ROOT / "build" / "bench-sites" / n for n in variants}
    else:
        sites = build_variants(site, variants)
    part1 = notebooks()[0]

    bench_root = ROOT / "build" / "bench-root"
    shutil.rmtree(bench_root, ignore_errors=True)
    bench_root.mkdir(parents=True)
    (bench_root / "site").symlink_to(site)  # bare.html loads the shipped site's Pyodide
    for name, path in sites.items():
        if name != "shipped":
            (bench_root / name).symlink_to(path.resolve())
    (bench_root / "bare.html").write_text(BARE_HTML)
    server, base = serve.start(bench_root)
    site_base = {n: base + ("site/" if n == "shipped" else n + "/") for n in variants}

    other_engines = [e for e in args.engines.split(",") if e]
    if args.engines_only:
        result = json.loads(args.out.read_text()) if args.out.exists() else {}
        result["engines"] = engines_bench(other_engines, base, part1, args.repeat)
        server.shutdown()
        args.out.write_text(json.dumps(result, indent=2) + "\n")
        print(f"wrote {args.out}")
        return

    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    bare = []
    course = {n: [] for n in variants}
    from_home = []
    runs = {}
    with sync_playwright() as p:
        bare_boot(p, base)  # warm-up: the OS file cache, Chromium's compile workers
        for i in range(args.repeat):
            bare.append(bare_boot(p, base))
            line = (f"sample {i + 1} (load {os.getloadavg()[0]:.1f}): "
                    f"bare {bare[-1]['cold']:.2f}/{bare[-1]['warm']:.2f} s")
            # Each sample starts with another variant, so an order effect is spread over them all: in
            # a run of 2026-12-01 the cold start right after bare Pyodide's (then always `shipped`)
            # was 0.2 to 3.0 s slower than the next variant's, while an A/B of the same two builds,
            # alternated, had it 0.2 to 0.9 s faster (a trial lever, since dropped).
            first = i % len(variants)
            for name in variants[first:] + variants[:first]:
                start = course_start(p, site_base[name], part1, timeline=args.timeline and i == 0, server=server)
                course[name].append(start)
                line += f"; {name} idle {start['cold']['idle']:.2f}/{start['warm']['idle']:.2f} s"
            from_home.append(home.home_then_part(Profile(p, site_base["shipped"], count_bytes=True),
                                                 site_base["shipped"], part1, JS_IDLE_AT, server, args.read))
            line += (f"; home -> part 1 idle {from_home[-1]['idle_from_click']:.2f} s from the click "
                     f"({from_home[-1]['warm_state_at_click']})")
            print(line + "  (cold/warm)", flush=True)
        if not args.no_run_all:
            browser = driver.launch(p)
            for path in notebooks():
                runs[path] = run_all(browser, site_base["shipped"], path)
                print(f"run all {path}: {runs[path]:.2f} s", flush=True)
            browser.close()
    load_after = os.getloadavg()
    by_engine = engines_bench(other_engines, base, part1, args.repeat)
    server.shutdown()

    bare_med = {k: median([b[k] for b in bare]) for k in KINDS}
    shipped = summary(course["shipped"], bare_med)
    result = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "load_average": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in load_after]},
        "chromium": subprocess.run([driver.CHROMIUM, "--version"], capture_output=True, text=True).stdout.strip(),
        "repeat": args.repeat,
        "notebook": part1,
        "bare_pyodide_s": round(bare_med["cold"], 3),
        "warm_bare_pyodide_s": round(bare_med["warm"], 3),
        **shipped,
        "first_load_bytes": shipped["load_bytes"],
        "first_load_requests": shipped["load_requests"],
        "home_then_part1": home.summary(from_home, bare_med["cold"], [s["cold"] for s in course["shipped"]], args.read),
        "variants": {n: summary(course[n], bare_med) for n in variants if n != "shipped"},
        "run_all_s": {k: round(v, 3) for k, v in runs.items()},
        "run_all_ratio": {k: round(v / bare_med["cold"], 2) for k, v in runs.items()},
        "samples": {"bare": bare, "course": course, "home_then_part1": from_home},
        "engines": by_engine,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    report(result, variants, runs)
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")


def engines_bench(names, base, path, repeat):
    """{engine: per_engine.run(...)} with the load average around each, reported as it goes."""
    out = {}
    for name in names:
        before = os.getloadavg()
        out[name] = per_engine.run(name, base, path, repeat)
        out[name]["when"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        out[name]["load_average"] = {"before": [round(x, 2) for x in before],
                                     "after": [round(x, 2) for x in os.getloadavg()]}
        per_engine.report(name, out[name])
    return out


def report(result, variants, runs):
    load = result["load_average"]
    print(f"\nload average {load['before'][0]:.1f} before, {load['after'][0]:.1f} after "
          f"({result['repeat']} samples, medians)")
    print(f"{'':34}{'cold':>16}{'warm':>16}")
    print(f"{'bare Pyodide boot (1+1)':34}{result['bare_pyodide_s']:10.2f} s 1.00x"
          f"{result['warm_bare_pyodide_s']:10.2f} s 1.00x")
    for name in variants:
        r = result if name == "shipped" else result["variants"][name]
        print(f"{name + ': kernel idle':34}{r['kernel_idle_s']:10.2f} s {r['kernel_idle_ratio']:.2f}x"
              f"{r['warm_kernel_idle_s']:10.2f} s {r['warm_kernel_idle_ratio']:.2f}x")
        for prefix, kind in (("", "cold"), ("warm_", "warm")):
            stages = r[prefix + "worker_stages_s"]
            print(f"    {kind}: {r[prefix + 'load_bytes'] / 1e6:.1f} MB in {r[prefix + 'load_requests']} requests"
                  f"; snapshot {'/'.join(str(x) for x in r[prefix + 'snapshot'])}"
                  + ("; worker (s from navigation): " + ", ".join(f"{k} {v:.2f}" for k, v in stages.items())
                     if stages else ""))
    home.report(result["home_then_part1"])
    print(f"first output (shipped): +{result['first_output_after_idle_s']:.2f} s after idle, "
          f"{result['first_output_ratio']:.2f}x bare")
    for k, v in runs.items():
        print(f"run all {k:<36} {v:6.2f} s   {v / result['bare_pyodide_s']:.2f}x")


if __name__ == "__main__":
    main()
