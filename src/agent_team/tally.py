"""The learner's record part by part, and the part to continue with: what the progress widget and
the home page both show (website/extension/src/page/tally.ts does the same in the browser, on the
same file; tests/site/test_home_record.py holds the two together).

A prediction or a quiz counts in the part its record belongs to (:func:`agent_team.progress.part_of`),
whatever its key's name. A part is finished once each of its exercises has passed at least once.
"""

from . import progress

__all__ = ["by_part", "next_part", "line"]


def by_part(file=None):
    """One row per part, in course order: ``{"part": "part1", "number", "title", "exercises",
    "passed", "graded", "hints", "predictions", "right", "quizzes", "finished"}``; ``passed``
    counts exercises passed at least once, ``graded`` those graded at least once, ``right`` the
    predictions the run bore out."""
    record = progress.tables(file)  # one read of the file, not one per table
    saved, seen, predictions, quizzes = (record[name] for name in ("exercises", "hints", "predictions", "quizzes"))
    rows = []
    for number, (key, title, exercises) in enumerate(progress.BY_PART, 1):
        ids = [ex_id for ex_id, _ in exercises]
        mine = [p for k, p in predictions.items() if progress.part_of(k, p) == number]
        rows.append({
            "part": key, "number": number, "title": title, "exercises": len(ids),
            "passed": sum(saved.get(i, {}).get("passed_once", False) for i in ids),
            "graded": sum(saved.get(i, {}).get("attempts", 0) > 0 for i in ids),
            "hints": sum(seen.get(i, 0) for i in ids),
            "predictions": len(mine), "right": sum(p["right"] for p in mine),
            "quizzes": sum(progress.part_of(k, q) == number for k, q in quizzes.items()),
        })
        rows[-1]["finished"] = rows[-1]["passed"] == len(ids)
    return rows


def _touched(row):
    return bool(row["graded"] or row["hints"] or row["predictions"] or row["quizzes"])


def next_part(rows):
    """The key of the part to continue with: the furthest part the learner has worked in if it is
    not finished, else the first unfinished part after it, else the first unfinished one before it;
    the first part when nothing is recorded; None when every part is finished."""
    worked = [i for i, row in enumerate(rows) if _touched(row)]
    start = worked[-1] if worked else 0
    for row in rows[start:] + rows[:start]:
        if not row["finished"]:
            return row["part"]
    return None


def _plural(n, one, many=None):
    return f"{n} {one if n == 1 else many or one + 's'}"


def line(row):
    """A part's line, as the home page's card says it too; '' for a part not begun."""
    if not _touched(row):
        return ""
    said = f" ({row['right']} right)" if row["predictions"] else ""
    return " · ".join([f"{row['passed']} of {row['exercises']} passed", f"{row['graded']} graded",
                       f"{_plural(row['hints'], 'hint')} seen",
                       f"{_plural(row['predictions'], 'prediction')} made{said}",
                       f"{_plural(row['quizzes'], 'quiz', 'quizzes')} answered"])
