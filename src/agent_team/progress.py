"""Course progress: which exercises a learner has passed, kept in a small JSON file.

Graders call :func:`record` after every run; the progress widget calls
:func:`status`. The file sits beside the notebooks (the working directory),
which JupyterLite keeps in the browser's storage, so a learner coming back
sees where they stand. Everything here is best effort: if the file cannot be
read or written, nothing is recorded and nothing raises.

Set the environment variable ``AGENT_TEAM_PROGRESS`` to ``off`` (or set
``progress.ENABLED = False``) to turn recording off; set it to a file path to
keep progress there instead (the test suite and the notebook builds turn it
off, so they leave no progress file behind and a progress widget shows the
same thing on every run). Functions given an explicit ``file`` always use it.
Only the exercises of the course (:mod:`agent_team.course`) are recorded.
"""

import json
import os

from . import course

__all__ = ["PARTS", "FILENAME", "ENABLED", "path", "load", "record", "status", "reset"]

FILENAME = "agent_team_progress.json"
ENABLED = True
VERSION = 1

# The exercises of every part, read from the course's table:
# (part id, part title, ((exercise id, exercise name), ...)).
PARTS = tuple((f"part{p.number}", p.title, tuple((e.id, e.name) for e in course.EXERCISES if e.part == p.number))
              for p in course.PARTS)

_OFF = {"0", "off", "false", "no", "disabled"}


def path():
    """The progress file's path, or None when recording is off."""
    setting = os.environ.get("AGENT_TEAM_PROGRESS", "").strip()
    if not ENABLED or setting.lower() in _OFF:
        return None
    return setting or FILENAME


def load(file=None):
    """``{exercise id: {"passed": bool, "passed_once": bool, "attempts": int}}``; {} if there is none."""
    file = file or path()
    if file is None:
        return {}
    try:
        with open(file, encoding="utf-8") as fh:
            data = json.load(fh)
    except Exception:  # noqa: BLE001 -- missing, unreadable or corrupt: no progress yet
        return {}
    exercises = data.get("exercises") if isinstance(data, dict) else None
    if not isinstance(exercises, dict):
        return {}
    clean = {}
    for ex_id, entry in exercises.items():
        if not isinstance(ex_id, str) or not isinstance(entry, dict):
            continue
        attempts = entry.get("attempts", 0)
        clean[ex_id] = {"passed": entry.get("passed") is True,
                        "passed_once": entry.get("passed_once") is True or entry.get("passed") is True,
                        "attempts": attempts if isinstance(attempts, int) and attempts >= 0 else 0}
    return clean


def record(exercise_id, passed, file=None):
    """Record one graded attempt. Returns True if it was saved, False otherwise; never raises."""
    try:
        file = file or path()
        if file is None:
            return False
        key = str(exercise_id)
        if key not in course.exercise_ids():  # a typo in a grader would otherwise grow a phantom row
            return False
        exercises = load(file)
        old = exercises.get(key, {"passed": False, "passed_once": False, "attempts": 0})
        exercises[key] = {"passed": bool(passed), "passed_once": bool(passed) or old["passed_once"],
                          "attempts": old["attempts"] + 1}
        text = json.dumps({"version": VERSION, "exercises": dict(sorted(exercises.items()))}, indent=1)
        tmp = f"{file}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, file)
        return True
    except Exception:  # noqa: BLE001 -- progress is best effort
        try:
            os.remove(f"{file}.tmp")
        except Exception:  # noqa: BLE001
            pass
        return False


def reset(file=None):
    """Forget all progress (deletes the file). Returns True if nothing is left; never raises."""
    file = file or path()
    if file is None:
        return False
    try:
        os.remove(file)
    except FileNotFoundError:
        pass
    except Exception:  # noqa: BLE001
        return False
    return True


def status(file=None):
    """Every part with its exercises: ``[{"part", "title", "exercises": [{"id", "name", "done",
    "passed", "attempts"}], "done": n, "total": n}]``. ``done`` means passed at least once."""
    saved = load(file)
    parts = []
    for part_id, title, exercises in PARTS:
        rows = []
        for ex_id, name in exercises:
            entry = saved.get(ex_id, {})
            rows.append({"id": ex_id, "name": name, "done": entry.get("passed_once", False),
                         "passed": entry.get("passed", False), "attempts": entry.get("attempts", 0)})
        parts.append({"part": part_id, "title": title, "exercises": rows,
                      "done": sum(r["done"] for r in rows), "total": len(rows)})
    return parts
