"""Benchmark (not a test): grade a made-up class of 30 notebooks with agent-team-grade.

Six learners hand in parts 1 to 5 (30 notebooks, 36 exercises; part 6 is left out, so the
figures stay comparable with those bench/README.md quotes): two with the worked solutions, two with the
untouched learner forms, two with a mix in which one exercise loops forever (so one job runs
into the time limit). Prints the wall time and the time per exercise.

    python -m bench.grade_class [--workers 2] [--timeout 30]   # agent_team importable: make's .venv

The target is under a minute on 2 cores; say how busy the machine was when you quote a figure.
"""

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from agent_team.classroom.cli import grade
from agent_team.classroom.exercises import tag
from agent_team.classroom.node import Limits
from agent_team.classroom.results import summary

ROOT = Path(__file__).resolve().parents[1]

LOOP = "def run_team(task, planner, coder, reviewer, tester, max_rounds):\n    while True:\n        pass\n"


def make_class(folder):
    for i, learner in enumerate(["ada", "ben", "cy", "dee", "eli", "fay"]):
        for part in range(1, 6):
            form = "solutions" if i < 2 or (i >= 4 and part % 2) else ""
            nb = json.loads(next((ROOT / "notebooks" / form).glob(f"{part:02d}_*.ipynb")).read_text())
            if i >= 4 and part == 3:
                cell = next(c for c in nb["cells"] if tag("3.1") in c["metadata"].get("tags", []))
                cell["source"] = LOOP
            path = Path(folder) / learner / f"{part:02d}.ipynb"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(nb))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=30.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        make_class(folder)
        start = time.perf_counter()
        rows = grade([folder], Limits(seconds=args.timeout), workers=args.workers)
        wall = time.perf_counter() - start
    graded = [r for r in rows if r.exercise]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"30 notebooks, {len(graded)} exercises, {args.workers} workers, {os.cpu_count()} CPUs, "
          f"load average {load:.1f}")
    print(f"wall time {wall:.1f} s; grading time per exercise: median "
          f"{sorted(r.seconds for r in graded)[len(graded) // 2]:.2f} s, max {max(r.seconds for r in graded):.2f} s")
    print(summary(rows))


if __name__ == "__main__":
    main()
