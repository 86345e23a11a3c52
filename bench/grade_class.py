"""Benchmark (not a test): grade made-up classes of 30 and of 300 notebooks with agent-team-grade.

A class of N notebooks is N/5 learners handing in parts 1 to 5 (part 6 is left out, so the
figures stay comparable with earlier ones in bench/README.md), six exercises each, in a repeating
mix: a third hand in the worked solutions, a third the untouched learner forms, a third the
solutions with one exercise (3.1) that loops forever, so a grader's time cap is hit. Every cell
is made unique (a comment naming its learner), so nothing is graded once for many. The whole
class is one grading run, as an instructor runs it, then the similarity report over it.

Prints, per class size: wall time, CPU time (this process and the Node runners), seconds per
exercise, and the load average before and after (the machine may be shared: quote it).

    python -m bench.grade_class [--sizes 30 300] [--workers 2] [--timeout 30]   # agent_team importable

Goals (issue 26): 30 notebooks in 60 s or less on 2 cores, 300 in 10 minutes or less, and time
per exercise the same at both sizes (no per-learner start-up: the runners boot once each).
"""

import argparse
import json
import os
import resource
import tempfile
import time
from pathlib import Path

from agent_team.classroom import similarity
from agent_team.classroom.cli import grade
from agent_team.classroom.collect import collect
from agent_team.classroom.exercises import cell_tag
from agent_team.runners.node import Limits
from agent_team.classroom.results import summary

ROOT = Path(__file__).resolve().parents[1]
PARTS = range(1, 6)
LOOP = "def run_team(task, planner, coder, reviewer, tester, max_rounds):\n    while True:\n        pass\n"


def make_class(folder, notebooks):
    """``notebooks`` notebooks (a multiple of 5) under ``folder``, one folder per learner."""
    for i in range(notebooks // len(PARTS)):
        learner = f"learner{i:03d}"
        kind = ("solution", "stub", "loops")[i % 3]
        for part in PARTS:
            form = "" if kind == "stub" else "solutions"
            nb = json.loads(next((ROOT / "notebooks" / form).glob(f"{part:02d}_*.ipynb")).read_text())
            for cell in nb["cells"]:
                tags = cell["metadata"].get("tags", [])
                if not any(t.startswith("exercise-") and t != "exercise" for t in tags):
                    continue
                source = "".join(cell["source"])
                if kind == "loops" and cell_tag("3.1") in tags:
                    source = LOOP
                cell["source"] = f"# {learner}'s work\n{source}"
            path = Path(folder) / learner / f"{part:02d}.ipynb"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(nb))


def cpu():
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def measure(notebooks, workers, timeout):
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        make_class(folder, notebooks)
        cpu0, start = cpu(), time.perf_counter()
        rows = grade([folder], Limits(seconds=timeout), workers=workers)
        wall, used = time.perf_counter() - start, cpu() - cpu0
        start = time.perf_counter()
        jobs, _ = collect([folder])
        cells = [similarity.Cell(j.learner, j.exercise.id, j.notebook, j.source) for j in jobs]
        report = similarity.compare(cells, similarity.known_sources(ROOT / "notebooks"))
        alike = time.perf_counter() - start
    graded = [r for r in rows if r.exercise]
    times = sorted(r.seconds for r in graded)
    print(f"{notebooks} notebooks, {len(graded)} exercises, {workers} workers, {os.cpu_count()} CPUs; "
          f"load average {load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after")
    print(f"  grading: wall {wall:.1f} s, CPU {used:.1f} s; {wall / len(graded):.2f} s wall and "
          f"{used / len(graded):.2f} s CPU per exercise; one exercise: median {times[len(times) // 2]:.2f} s, "
          f"max {times[-1]:.2f} s")
    print(f"  similarity: {alike:.1f} s, {sum(f.kind == 'pair' for f in report.findings)} pairs")
    print(f"  {summary(rows)}")
    return wall, used, len(graded)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[30, 300], help="notebooks per class (multiples of 5)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=30.0)
    args = ap.parse_args()
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    figures = [measure(n, args.workers, args.timeout) for n in args.sizes]
    if len(figures) > 1:
        (w0, c0, e0), (w1, c1, e1) = figures[0], figures[-1]
        print(f"per exercise, largest class / smallest: wall x{(w1 / e1) / (w0 / e0):.2f}, "
              f"CPU x{(c1 / e1) / (c0 / e0):.2f} (1.00 = linear)")


if __name__ == "__main__":
    main()
