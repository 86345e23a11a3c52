"""Cold-start benchmark of the site (`make bench`; not a test). One Chromium run measures:

(a) bare Pyodide: a page that imports the site's own pyodide.mjs, boots it and runs `1+1`;
(b) the course: navigation to kernel idle on part 1, first output after idle (its first code cell),
    and run-all of each notebook;
(c) bytes transferred by the first load of part 1 (to kernel idle).
Every sample is a cold start (a fresh browser context: empty cache and storage); the median of
--repeat samples is reported, with its ratio to (a). Results go to bench/results.json.
Same network guard as the browser tests: nothing but 127.0.0.1 is reachable.

    python bench/bench.py [--site _output] [--repeat 3] [--no-build] [--timeline]
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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
import lite  # noqa: E402
import serve  # noqa: E402  (site/serve.py, put on sys.path by lite)

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
  await app.commands.execute('notebook:run-cell');
  const cell = nb.widgets[i];
  while (cell.model.outputs.length === 0 && performance.now() - t0 < 30000) {
    await new Promise(r => setTimeout(r, 5));
  }
  return { seconds: (performance.now() - t0) / 1000, outputs: cell.model.outputs.length };
}"""


def notebooks():
    nb_dir = ROOT / "notebooks"
    found = [p.relative_to(nb_dir).as_posix() for p in sorted(nb_dir.glob("*.ipynb"))]
    found += [p.relative_to(nb_dir).as_posix() for p in sorted(nb_dir.glob("solutions/*.ipynb"))]
    return found


def bare_boot(browser, base):
    page, guard = lite.new_page(browser, base)
    page.goto(base + "bare.html")
    page.wait_for_function("() => window.benchResult", timeout=120_000, polling=10)
    result = page.evaluate("() => window.benchResult")
    page.context.close()
    assert result["value"] == 2 and not guard.blocked, (result, guard.blocked)
    return result["seconds"]


def course_start(browser, base, path, timeline=False):
    page, guard = lite.new_page(browser, base, count_bytes=True)
    starts = []
    if timeline:
        page.context.on("request", lambda r: starts.append((time.monotonic(), r.url)))
    t0 = time.monotonic()
    idle = lite.open_notebook(page, base, path)
    origin = page.evaluate("() => performance.timeOrigin")
    stages = {}
    for worker in page.workers:  # the kernel's worker notes when its stages ended (site/build.py)
        try:
            times = worker.evaluate("() => globalThis.__agentTeamTimes || null")
        except Exception:  # noqa: BLE001 -- not our worker
            times = None
        if times:
            stages = {f"worker_{k}": round((v - origin) / 1000, 3) for k, v in times.items()}
    first = page.evaluate(JS_FIRST_OUTPUT)
    page.wait_for_timeout(300)  # let the last responses finish for the byte count
    out = {"idle": idle, "first_output": first["seconds"], "bytes": guard.bytes, "requests": guard.requests,
           "stages": stages}
    if timeline:
        for t, url in starts:
            print(f"  {t - t0:6.2f} s  {url.replace(base, '/')}")
    page.context.close()
    assert not guard.blocked, guard.blocked
    return out


def run_all(browser, base, path):
    page, guard = lite.new_page(browser, base)
    lite.open_notebook(page, base, path)
    ok, seconds = lite.run_all(page)
    page.context.close()
    assert not guard.blocked, guard.blocked
    return seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--site", type=Path, default=ROOT / "_output")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-build", action="store_true", help="use the site as it is")
    ap.add_argument("--timeline", action="store_true", help="print the request timeline of one start")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results.json")
    args = ap.parse_args()
    site = args.site.resolve()
    if not args.no_build:
        subprocess.run([sys.executable, str(ROOT / "site" / "build.py"), "--output", str(site)], check=True)
    part1 = notebooks()[0]

    bench_root = ROOT / "build" / "bench-root"
    shutil.rmtree(bench_root, ignore_errors=True)
    bench_root.mkdir(parents=True)
    (bench_root / "site").symlink_to(site)
    (bench_root / "bare.html").write_text(BARE_HTML)
    server, base = serve.start(bench_root)
    site_base = base + "site/"

    from playwright.sync_api import sync_playwright

    samples = {"bare": [], "idle": [], "first_output": [], "bytes": [], "requests": []}
    stages = []
    runs = {}
    with sync_playwright() as p:
        browser = lite.launch(p)
        bare_boot(browser, base)  # warm-up: the OS file cache, Chromium's compile workers
        for i in range(args.repeat):
            samples["bare"].append(bare_boot(browser, base))
            start = course_start(browser, site_base, part1, timeline=args.timeline and i == 0)
            for k in ("idle", "first_output", "bytes", "requests"):
                samples[k].append(start[k])
            stages.append(start["stages"])
            print(f"sample {i + 1}: bare {samples['bare'][-1]:.2f} s, kernel idle {start['idle']:.2f} s, "
                  f"first output +{start['first_output']:.2f} s, {start['bytes'] / 1e6:.1f} MB; worker: "
                  + ", ".join(f"{k[7:]} {v:.2f} s" for k, v in start["stages"].items()), flush=True)
        for path in notebooks():
            runs[path] = run_all(browser, site_base, path)
            print(f"run all {path}: {runs[path]:.2f} s", flush=True)
        browser.close()
    server.shutdown()

    med = {k: statistics.median(v) for k, v in samples.items()}
    bare = med["bare"]
    result = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "chromium": subprocess.run([lite.CHROMIUM, "--version"], capture_output=True, text=True).stdout.strip(),
        "repeat": args.repeat,
        "notebook": part1,
        "bare_pyodide_s": round(bare, 3),
        "kernel_idle_s": round(med["idle"], 3),
        "kernel_idle_ratio": round(med["idle"] / bare, 2),
        "first_output_after_idle_s": round(med["first_output"], 3),
        "first_output_ratio": round((med["idle"] + med["first_output"]) / bare, 2),
        "first_load_bytes": int(med["bytes"]),
        "first_load_requests": int(med["requests"]),
        "run_all_s": {k: round(v, 3) for k, v in runs.items()},
        "run_all_ratio": {k: round(v / bare, 2) for k, v in runs.items()},
        # seconds from navigation: the kernel worker got the prewarm request (the kernel extension
        # activated), Pyodide and all preloaded packages were ready, the kernel's imports were done
        "worker_stages_s": {k: round(statistics.median(st[k] for st in stages if k in st), 3)
                            for k in (stages[0] if stages else {})},
        "samples": samples,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"\nbare Pyodide boot (1+1)        {bare:6.2f} s   1.00x")
    print(f"course: kernel idle            {med['idle']:6.2f} s   {med['idle'] / bare:.2f}x")
    print(f"course: first output           {med['idle'] + med['first_output']:6.2f} s   "
          f"{(med['idle'] + med['first_output']) / bare:.2f}x  (+{med['first_output']:.2f} s after idle)")
    for k, v in runs.items():
        print(f"run all {k:<22} {v:6.2f} s   {v / bare:.2f}x")
    print(f"first load: {med['bytes'] / 1e6:.1f} MB in {int(med['requests'])} requests")
    if result["worker_stages_s"]:
        print("kernel worker (s from navigation): " + ", ".join(
            f"{k[7:]} {v:.2f}" for k, v in result["worker_stages_s"].items()) + f", idle {med['idle']:.2f}")
    print(f"wrote {args.out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
