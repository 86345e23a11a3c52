"""``agent-team-grade`` / ``python -m agent_team.grade``: grade a class's notebooks from the command line."""

import argparse
import os
import sys
from pathlib import Path

from . import gradebook, points, similarity, similarity_page
from .collect import collect
from .exercises import SETUP
from ..runners.node import Limits, RunnerError, run_jobs
from ..runners.sources import PACKAGE
from .results import Row, all_passed, from_result, markdown, grid_table, to_json, to_junit

__all__ = ["main", "grade", "grade_collected"]

USAGE = """Grade learners' notebooks of "A Team of Agents" with the course's own graders.

Each exercise cell (found by its tag, exercise-N.M) runs with the course's setup and nothing
else from the notebook, inside Pyodide under Node.js: no host files, no network, no processes,
with a time, memory and output limit. Each exercise is worth its points in the course's table
(10 unless --points says otherwise); one not yet passed earns the share of its checks
that passed.
Exit code: 0 when every exercise found passed, 1 when one did not (or a file could not be read),
2 when nothing could be graded."""


def parse(argv):
    p = argparse.ArgumentParser(prog="agent-team-grade", description=USAGE,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="notebooks (.ipynb), folders of them, or 'download my work' zips")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON ('-' for stdout)")
    p.add_argument("--junit", metavar="FILE", help="also write the results as JUnit XML")
    p.add_argument("--markdown", metavar="FILE", help="also append the table as Markdown (e.g. $GITHUB_STEP_SUMMARY)")
    p.add_argument("--csv", metavar="FILE", help="also write a gradebook: one row per learner, one column per "
                   "exercise, and the total")
    p.add_argument("--csv-shape", choices=gradebook.SHAPES, default="canvas",
                   help="the gradebook's columns: canvas (default; Canvas's import) or moodle (Moodle's import)")
    p.add_argument("--feedback", metavar="DIR", help="also write one Markdown file per learner: every check, "
                   "its result and message")
    p.add_argument("--gradescope", metavar="FILE", help="also write Gradescope's results.json (one submission)")
    p.add_argument("--similarity", metavar="FILE", help="also write the pairs of learners with the same "
                   "exercise cell (HTML; JSON if FILE ends in .json)")
    p.add_argument("--similarity-threshold", type=float, default=similarity.THRESHOLD, metavar="RATIO",
                   help=f"how alike two cells must be to be reported, 0 to 1 (default {similarity.THRESHOLD})")
    p.add_argument("--course-notebooks", metavar="DIR", help="the course's notebooks folder (learner forms, "
                   "and solutions/): the known sources for --similarity (default: the course's own, when found)")
    p.add_argument("--points", action="append", default=[], metavar="EXERCISE=POINTS",
                   help="what an exercise is worth, e.g. --points 3.1=20 (repeat for more)")
    p.add_argument("--all-or-nothing", action="store_true",
                   help="no partial credit: an exercise not yet passed earns 0 points")
    p.add_argument("--learner", metavar="NAME", help="one learner's name for every notebook given")
    p.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                   help="time limit per exercise (default 30)")
    p.add_argument("--memory-mb", type=int, default=1024, help="memory limit per exercise (default 1024)")
    p.add_argument("--output-chars", type=int, default=1_000_000,
                   help="printed-output limit per exercise (default 1,000,000 characters)")
    p.add_argument("--workers", type=int, default=0, help="Pyodide runners in parallel (default: by CPU count)")
    p.add_argument("--pyodide", metavar="DIR", help="Pyodide's npm folder (default: ./node_modules/pyodide)")
    return p.parse_args(argv)


def grade(paths, limits=None, workers=0, pyodide=None, learner=None, table=None, partial=True):
    """Every exercise in ``paths`` as :class:`Row`s (problems included), with points (``table``:
    {exercise: points}, default course.py's); raises RunnerError if nothing could run."""
    return grade_collected(*collect(paths, learner=learner), limits, workers, pyodide, table, partial)


def grade_collected(jobs, problems, limits=None, workers=0, pyodide=None, table=None, partial=True):
    rows = [Row(p.learner, p.notebook, p.exercise, p.status, p.message) for p in problems]
    if jobs:
        workers = workers or max(1, min(os.cpu_count() or 1, 4, (len(jobs) + 5) // 6))
        specs = [{"exercise": j.exercise.id, "setup": SETUP[j.exercise.part], "source": j.source,
                  "name": j.exercise.defines, "grader": j.exercise.grader} for j in jobs]
        results = run_jobs(specs, limits, workers=workers, pyodide=pyodide)
        rows += [from_result(j.learner, j.notebook, j.exercise.id, r, j.note) for j, r in zip(jobs, results)]
    return points.apply(rows, points.weights(table), partial)


def _course_notebooks(explicit):
    """The course's notebooks folder: --course-notebooks, or the repository's when the grader runs from one."""
    if explicit:
        if not (Path(explicit) / "solutions").is_dir():
            raise ValueError(f"--course-notebooks {explicit}: no solutions/ folder there; give the course's "
                             "notebooks folder (the one holding 01_architecture.ipynb and solutions/)")
        return Path(explicit)
    own = PACKAGE.parents[1] / "notebooks"
    return own if (own / "solutions").is_dir() else None


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    limits = Limits(args.timeout, args.memory_mb, args.output_chars)
    try:
        table = dict(points.parse_weight(text) for text in args.points)
        if not 0 <= args.similarity_threshold <= 1:
            raise ValueError(f"--similarity-threshold {args.similarity_threshold:g}: give a ratio from 0 to 1")
        course_notebooks = _course_notebooks(args.course_notebooks) if args.similarity else None
        jobs, problems = collect(args.paths, learner=args.learner)
        learners = {j.learner for j in jobs} | {p.learner for p in problems}
        if args.gradescope and len(learners) > 1:
            raise ValueError(f"--gradescope writes one submission's results.json, but {len(learners)} learners "
                             "were found: grade one submission's folder, or give --learner NAME")
        rows = grade_collected(jobs, problems, limits, args.workers, args.pyodide, table, not args.all_or_nothing)
    except (RunnerError, ValueError) as err:
        print(f"agent-team-grade: {err}", file=sys.stderr)
        return 2
    if not rows:
        print("agent-team-grade: no notebooks found in " + ", ".join(args.paths), file=sys.stderr)
        return 2
    print(grid_table(rows))
    if args.json == "-":
        print(to_json(rows))
    written = all([_write(args.json if args.json != "-" else None, lambda: to_json(rows) + "\n"),
                   _write(args.junit, lambda: to_junit(rows) + "\n"),
                   _write(args.markdown, lambda: markdown(rows), mode="a"),
                   _write(args.csv, lambda: gradebook.to_csv(rows, args.csv_shape), newline=""),
                   _write(args.gradescope, lambda: gradebook.to_gradescope(rows) + "\n"),
                   _write(args.similarity, lambda: _similarity(args, jobs, course_notebooks)),
                   _write(args.feedback, lambda: gradebook.write_feedback(rows, args.feedback), folder=True)])
    if not written:
        return 2
    if not any(r.exercise for r in rows if r.status != "skipped"):
        return 2
    return 0 if all_passed(rows) else 1


def _write(path, make, mode="w", newline=None, folder=False):
    """Write one output (``make`` gives its text, or writes the folder itself); False, said, if it cannot."""
    if not path:
        return True
    try:
        if folder:
            make()
        else:
            with open(path, mode, encoding="utf-8", newline=newline) as fh:
                fh.write(make())
        return True
    except OSError as err:
        print(f"agent-team-grade: could not write {path} ({err.strerror or err}): give a path in a folder "
              "that exists and can be written; the other outputs were written", file=sys.stderr)
        return False


def _similarity(args, jobs, course_notebooks):
    cells = [similarity.Cell(j.learner, j.exercise.id, j.notebook, j.source) for j in jobs]
    known = similarity.known_sources(course_notebooks) if course_notebooks else {}
    report = similarity.compare(cells, known, args.similarity_threshold)
    if args.similarity.endswith(".json"):
        return similarity_page.as_json(report)
    return similarity_page.as_html(report, args.similarity_threshold)
