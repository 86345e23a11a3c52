"""The grades a learning platform takes in: a gradebook CSV, feedback files, Gradescope's results.json.

- :func:`to_csv`: one row per learner, one column per exercise graded, then the total. Two shapes
  (docs/teachers.md gives each platform's import steps): ``canvas``, the columns of a Canvas
  gradebook export (Student, ID, SIS User ID, SIS Login ID, Section, then one column per
  assignment) with its "Points Possible" row, so a new column becomes a new assignment worth
  those points; ``moodle``, a plain table whose first column (the learner) is mapped to a
  Moodle user field and each other column to a grade item. The learner is the name the class
  was collected under (a folder or zip name): name them after the platform's login.
- :func:`feedback`: one Markdown file per learner, every exercise with every check's result
  and message, to hand back.
- :func:`to_gradescope`: Gradescope's autograder ``results.json`` for one submission.

Pure functions of the rows, except :func:`write_feedback`, which writes the files.
"""

import csv
import io
import json
import re
from pathlib import Path

from .. import course
from .points import fmt
from .results import best, exercises_graded, totals

__all__ = ["SHAPES", "to_csv", "feedback", "write_feedback", "to_gradescope"]

SHAPES = ("canvas", "moodle")
CANVAS_ID_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
TOTAL = "Total points"


def _title(exercise_id):
    try:
        return f"Exercise {exercise_id}: {course.exercise(exercise_id).title}"
    except KeyError:
        return f"Exercise {exercise_id}"


def _possible(rows, exercise_id):
    return max((r.points for r in rows if r.exercise == exercise_id), default=0.0)


def to_csv(rows, shape="canvas"):
    """The class's gradebook as CSV text (``shape``: one of SHAPES)."""
    if shape not in SHAPES:
        raise ValueError(f"no gradebook shape {shape!r}: choose one of {', '.join(SHAPES)}")
    used, found, sums = exercises_graded(rows), best(rows), totals(rows)
    titles = [_title(ex) for ex in used] + [TOTAL]
    out = io.StringIO()
    table = csv.writer(out, lineterminator="\r\n")   # RFC 4180, as spreadsheets write it
    if shape == "canvas":
        table.writerow(CANVAS_ID_COLUMNS + titles)
        table.writerow(["Points Possible", "", "", "", "",
                        *[fmt(_possible(rows, ex)) for ex in used], fmt(sum(_possible(rows, ex) for ex in used))])
    else:
        table.writerow(["Learner"] + titles)
    for who in sorted(sums):
        scores = [fmt(found[(who, ex)].score) if (who, ex) in found else "0" for ex in used]
        ident = [who, "", "", who, ""] if shape == "canvas" else [who]
        table.writerow(ident + scores + [fmt(sums[who][0])])
    return out.getvalue()


_MARK = {True: "PASS", False: "FAIL", None: "not run"}


def feedback(rows, learner):
    """One learner's feedback as Markdown: each exercise's result, points, and every check."""
    mine = [r for r in rows if r.learner == learner]
    found = best(rows)
    earned, possible = totals(rows).get(learner, (0.0, 0.0))
    lines = [f"# Feedback for {learner}", ""]
    if possible:
        lines += [f"**Total: {fmt(earned)} of {fmt(possible)} points.** A passed exercise earns all its points; "
                  "one that ran but failed some checks earns the share of its checks that passed.", ""]
    for ex in exercises_graded(rows):
        row = found.get((learner, ex))
        head = f"## {_title(ex)}"
        if row is None:
            lines += [head, "", f"Not handed in (0 of {fmt(_possible(rows, ex))} points): no notebook of "
                      "yours had this exercise.", ""]
            continue
        score = f" ({fmt(row.score)} of {fmt(row.points)} points)" if row.points else ""
        lines += [head, "", f"**{row.status}**{score}, graded from `{_file(row.notebook)}`.", ""]
        if row.message:
            lines += [row.message, ""]
        if row.note:
            lines += [f"Note: {row.note}", ""]
        for check in row.checks:
            lines.append(f"- **{_MARK.get(check.get('passed'))}** `{check.get('name', '')}`: "
                         f"{check.get('requirement', '')}")
            detail = (check.get("detail") or "").strip()
            if check.get("passed") is False and detail:
                lines += ["", "  ```", *[f"  {line}" for line in detail.splitlines()], "  ```"]
        lines.append("")
    other = [r for r in mine if not r.exercise]
    if other:
        lines += ["## Other files", ""] + [f"- `{_file(r.notebook)}`: {r.message}" for r in other] + [""]
    return "\n".join(lines)


def _file(notebook):
    """``03_supervisor.ipynb`` of ``/home/me/class/ann/03_supervisor.ipynb`` or ``ann.zip:03_supervisor.ipynb``:
    the learner's file, not the instructor's folders."""
    return Path(notebook.rsplit(":", 1)[-1] if ".zip:" in notebook else notebook).name


def write_feedback(rows, folder):
    """Write ``<learner>.md`` for each learner into ``folder``; returns the paths written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written, taken = [], set()
    for who in sorted({r.learner for r in rows}):
        name = re.sub(r"[^\w.@-]+", "_", who).strip("._") or "learner"
        while name.lower() in taken:   # "a b" and "a_b" must not overwrite each other
            name += "_"
        taken.add(name.lower())
        path = folder / f"{name}.md"
        path.write_text(feedback(rows, who), encoding="utf-8")
        written.append(path)
    return written


def to_gradescope(rows):
    """Gradescope's autograder results.json (one submission): a test per exercise, with points."""
    learners = {r.learner for r in rows}
    if len(learners) > 1:
        raise ValueError(f"Gradescope's results.json is one submission's, but this run graded "
                         f"{len(learners)} learners: grade one submission (e.g. /autograder/submission) "
                         "or give --learner NAME")
    found = best(rows)
    tests = []
    for ex in exercises_graded(rows):
        row = next((r for (who, e), r in found.items() if e == ex), None)
        words = [row.status] + [f"{_MARK.get(c.get('passed'))} {c.get('name')}: {c.get('requirement', '')}"
                                + (f"\n    {c['detail']}" if c.get("passed") is False and c.get("detail") else "")
                                for c in row.checks]
        if row.detail():
            words.insert(1, row.detail())
        tests.append({"name": _title(ex), "score": row.score, "max_score": row.points,
                      "status": "passed" if row.passed else "failed", "output": "\n".join(words)})
    problems = [f"{r.notebook}: {r.message}" for r in rows if not r.exercise and r.message]
    return json.dumps({"score": round(sum(t["score"] for t in tests), 2),
                       "output": "\n".join(problems) or "Graded with the course's own graders.",
                       "tests": tests}, indent=2)
