"""Points: what each exercise is worth (the course's table), and what a graded exercise earns.

The rule, the same for the table, JSON, JUnit, Markdown, the gradebook and the feedback:

- ``passed`` (every named check passed) earns the exercise's points, all of them;
- ``not yet`` (the cell ran and the grader's report has failing checks) earns partial credit: the
  points times the share of the report's named checks that passed, rounded to 0.01. A check the
  grader never got to (its ``passed`` is None: the run stopped before it) counts as not passed;
- anything else (not implemented, timed out, too much output, out of memory, error, crashed,
  missing, unreadable) earns 0: no report, or none that can be trusted.

``partial=False`` (``--all-or-nothing``) makes a not-yet exercise earn 0 too. Pure functions: no
files, no processes.
"""

from .. import course

__all__ = ["weights", "parse_weight", "credit", "apply", "fmt"]


def weights(overrides=None):
    """``{exercise id: points}`` from course.py, with ``overrides`` (``{"3.1": 20}``) on top."""
    table = {e.id: float(e.points) for e in course.EXERCISES}
    for exercise_id, points in (overrides or {}).items():
        course.exercise(exercise_id)   # a clear error naming the course's exercises
        table[exercise_id] = float(points)
    return table


def parse_weight(text):
    """``"3.1=20"`` (from ``--points``) as ``("3.1", 20.0)``; a ValueError that says what to write."""
    exercise_id, sep, value = text.partition("=")
    try:
        points = float(value)
        if not sep or points < 0:
            raise ValueError
    except ValueError:
        raise ValueError(f"--points {text!r}: write EXERCISE=POINTS, e.g. --points 3.1=20 "
                         "(a number of 0 or more)") from None
    try:
        course.exercise(exercise_id.strip())
    except KeyError as err:
        raise ValueError(f"--points {text!r}: {err.args[0]}") from None
    return exercise_id.strip(), points


def credit(status, checks, possible, partial=True):
    """What one graded exercise earns out of ``possible`` (the rule in this module's docstring)."""
    if status == "passed":
        return possible
    if not partial or status != "not yet" or not checks:
        return 0.0
    share = sum(c.get("passed") is True for c in checks) / len(checks)
    return round(possible * share, 2)


def apply(rows, table=None, partial=True):
    """Give every row of an exercise its ``points`` (possible) and ``score`` (earned); returns the rows."""
    table = table if table is not None else weights()
    for row in rows:
        if row.exercise in table:
            row.points = table[row.exercise]
            row.score = credit(row.status, row.checks, row.points, partial)
    return rows


def fmt(number):
    """``10`` not ``10.0``, ``6.67`` not ``6.666666``: points as a person writes them."""
    return f"{round(number, 2):g}"
