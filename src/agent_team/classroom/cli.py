"""``agent-team-grade`` / ``python -m agent_team.grade``: grade a class's notebooks from the command line."""

import argparse
import os
import sys
from pathlib import Path

from .collect import collect
from .exercises import SETUP
from .node import Limits, RunnerError, run_jobs
from .results import Row, all_passed, from_result, markdown, grid_table, to_json, to_junit

__all__ = ["main", "grade"]

USAGE = """Grade learners' notebooks of "A Team of Agents" with the course's own graders.

Each exercise cell (found by its tag, exercise-N.M) runs with the course's setup and nothing
else from the notebook, inside Pyodide under Node.js: no host files, no network, no processes,
with a time, memory and output limit. Exit code: 0 when every exercise found passed, 1 when
one did not (or a file could not be read), 2 when nothing could be graded."""


def parse(argv):
    p = argparse.ArgumentParser(prog="agent-team-grade", description=USAGE,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="notebooks (.ipynb), folders of them, or 'download my work' zips")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON ('-' for stdout)")
    p.add_argument("--junit", metavar="FILE", help="also write the results as JUnit XML")
    p.add_argument("--markdown", metavar="FILE", help="also append the table as Markdown (e.g. $GITHUB_STEP_SUMMARY)")
    p.add_argument("--learner", metavar="NAME", help="one learner's name for every notebook given")
    p.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                   help="time limit per exercise (default 30)")
    p.add_argument("--memory-mb", type=int, default=1024, help="memory limit per exercise (default 1024)")
    p.add_argument("--output-chars", type=int, default=1_000_000,
                   help="printed-output limit per exercise (default 1,000,000 characters)")
    p.add_argument("--workers", type=int, default=0, help="Pyodide runners in parallel (default: by CPU count)")
    p.add_argument("--pyodide", metavar="DIR", help="Pyodide's npm folder (default: ./node_modules/pyodide)")
    return p.parse_args(argv)


def grade(paths, limits=None, workers=0, pyodide=None, learner=None):
    """Every exercise in ``paths`` as :class:`Row`s (problems included); raises RunnerError if nothing could run."""
    jobs, problems = collect(paths, learner=learner)
    rows = [Row(p.learner, p.notebook, p.exercise, p.status, p.message) for p in problems]
    if not jobs:
        return rows
    workers = workers or max(1, min(os.cpu_count() or 1, 4, (len(jobs) + 5) // 6))
    specs = [{"exercise": j.exercise.id, "setup": SETUP[j.exercise.part], "source": j.source,
              "name": j.exercise.defines, "grader": j.exercise.grader} for j in jobs]
    results = run_jobs(specs, limits, workers=workers, pyodide=pyodide)
    rows += [from_result(j.learner, j.notebook, j.exercise.id, r, j.note) for j, r in zip(jobs, results)]
    return rows


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    limits = Limits(args.timeout, args.memory_mb, args.output_chars)
    try:
        rows = grade(args.paths, limits, args.workers, args.pyodide, args.learner)
    except RunnerError as err:
        print(f"agent-team-grade: {err}", file=sys.stderr)
        return 2
    if not rows:
        print("agent-team-grade: no notebooks found in " + ", ".join(args.paths), file=sys.stderr)
        return 2
    print(grid_table(rows))
    if args.json == "-":
        print(to_json(rows))
    elif args.json:
        Path(args.json).write_text(to_json(rows) + "\n", encoding="utf-8")
    if args.junit:
        Path(args.junit).write_text(to_junit(rows) + "\n", encoding="utf-8")
    if args.markdown:
        with open(args.markdown, "a", encoding="utf-8") as fh:
            fh.write(markdown(rows))
    if not any(r.exercise for r in rows if r.status != "skipped"):
        return 2
    return 0 if all_passed(rows) else 1
