"""Course progress: which exercises a learner has passed, kept in a small JSON file.

A grader's report calls :func:`record` when a notebook shows it (the learner
sees that grade; grading alone records nothing); the hints and prediction
widgets record what the learner opens and predicts; the progress widget calls
:func:`status`. The file sits beside the notebooks (the working directory),
which JupyterLite keeps in the browser's storage, so a learner coming back
sees where they stand. Everything here is best effort: if the file cannot be
read or written, nothing is recorded and nothing raises.

Set the environment variable ``AGENT_TEAM_PROGRESS`` to ``off`` (or set
``progress.ENABLED = False``) to turn recording off; set it to a file path to
keep progress there instead (what executes whole notebooks without a learner,
the notebook builds and their tests, turns it off, so it leaves no progress
file behind and a progress widget shows the same thing on every run).
Functions given an explicit ``file`` always use it.
Only the exercises of the course (:mod:`agent_team.course`) are recorded.
"""

import json
import os

from . import course

__all__ = ["BY_PART", "KEY_PARTS", "FILENAME", "ENABLED", "path", "load", "record", "status", "reset",
           "record_hint", "hints", "record_prediction", "predictions", "record_quiz", "quizzes", "part_of",
           "tables"]

FILENAME = "agent_team_progress.json"
ENABLED = True
VERSION = 1

# The exercises of every part, read from the course's table:
# (part id, part title, ((exercise id, exercise name), ...)).
BY_PART = tuple((f"part{p.number}", p.title, tuple((e.id, e.title) for e in course.EXERCISES if e.part == p.number))
              for p in course.PARTS)

_OFF = {"0", "off", "false", "no", "disabled"}

# The part a prediction or a quiz belongs to when its record does not say: by the start of its key,
# as the notebooks name them (``Predict("part 1: ...")``; part 4's ``Predict.fault`` names its
# keys ``fault: ...``), or by a quiz id's part ("4.2" is part 4's). The home page applies the same
# table (website/home.py ships it to the page), so both count a record in the same part.
KEY_PARTS = tuple((f"part {p.number}:", p.number) for p in course.PARTS) + (("fault:", 4),)
_NUMBERS = {p.number for p in course.PARTS}


def part_of(key, entry=None):
    """The number of the part a prediction's or quiz's record belongs to, or None (the appendix's,
    or a key no part names): the part its record states, else the one its key names."""
    stated = entry.get("part") if isinstance(entry, dict) else None
    if isinstance(stated, int) and not isinstance(stated, bool) and stated in _NUMBERS:
        return stated
    key = str(key)
    for prefix, number in KEY_PARTS:
        if key.startswith(prefix):
            return number
    head, dot, tail = key.partition(".")
    number = int(head) if dot and head.isdigit() and tail.isdigit() else None
    return number if number in _NUMBERS else None


def path():
    """The progress file's path, or None when recording is off."""
    setting = os.environ.get("AGENT_TEAM_PROGRESS", "").strip()
    if not ENABLED or setting.lower() in _OFF:
        return None
    return setting or FILENAME


def _read(file):
    """The whole progress file as a dict; {} when it is missing, unreadable or not a JSON object."""
    try:
        with open(file, encoding="utf-8") as fh:
            data = json.load(fh)
    except Exception:  # noqa: BLE001 -- missing, unreadable or corrupt: no progress yet
        return {}
    return data if isinstance(data, dict) else {}


def _exercises(table):
    """The well-formed entries of the ``exercises`` table."""
    clean = {}
    for ex_id, entry in table.items():
        if isinstance(ex_id, str) and isinstance(entry, dict):
            attempts = entry.get("attempts", 0)
            clean[ex_id] = {"passed": entry.get("passed") is True,
                            "passed_once": entry.get("passed_once") is True or entry.get("passed") is True,
                            "attempts": attempts if isinstance(attempts, int) and attempts >= 0 else 0}
    return clean


def _hints(table):
    """The well-formed entries of the ``hints`` table: a positive count per exercise."""
    return {k: v for k, v in table.items()
            if isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v > 0}


def _stated_part(entry):
    """``{"part": n}`` when the entry states a part of the course, else {} (its key then decides)."""
    number = part_of("", entry)
    return {"part": number} if number is not None else {}


def _predictions(table):
    """The well-formed entries of the ``predictions`` table; ``right`` is derived, never trusted."""
    out = {}
    for key, entry in table.items():
        if isinstance(key, str) and isinstance(entry, dict):
            predicted, actual = str(entry.get("predicted", "")), str(entry.get("actual", ""))
            out[key] = {"predicted": predicted, "actual": actual, "right": predicted == actual,
                        **_stated_part(entry)}
    return out


def _quizzes(table):
    """The well-formed entries of the ``quizzes`` table: the choice last checked, whether it was
    right, and how many checks it took."""
    out = {}
    for key, entry in table.items():
        if isinstance(key, str) and isinstance(entry, dict):
            tries = entry.get("tries", 1)
            out[key] = {"answer": str(entry.get("answer", "")), "right": entry.get("right") is True,
                        "tries": tries if isinstance(tries, int) and not isinstance(tries, bool) and tries > 0 else 1,
                        **_stated_part(entry)}
    return out


# The tables of the file, each with the function that keeps only its well-formed entries
# (on every read, and on every rewrite: a broken entry never survives a save).
_TABLES = {"exercises": _exercises, "hints": _hints, "predictions": _predictions, "quizzes": _quizzes}


def _table(name, file=None, data=None):
    """One table of the progress file (``file``, or the default one), cleaned; {} if absent or off."""
    if data is None:
        file = file or path()
        data = {} if file is None else _read(file)
    table = data.get(name)
    return _TABLES[name](table) if isinstance(table, dict) else {}


def tables(file=None):
    """Every table of the progress file from one read, each cleaned as its own reader cleans it:
    ``{"exercises": load(), "hints": hints(), "predictions": predictions(), "quizzes": quizzes()}``."""
    file = file or path()
    data = {} if file is None else _read(file)
    return {name: _table(name, data=data) for name in _TABLES}


def load(file=None):
    """``{exercise id: {"passed": bool, "passed_once": bool, "attempts": int}}``; {} if there is none."""
    return _table("exercises", file)


def hints(file=None):
    """``{exercise id: how many of its hints the learner has revealed}``; {} if none."""
    return _table("hints", file)


def predictions(file=None):
    """``{prediction id: {"predicted": str, "actual": str, "right": bool}}`` (and ``"part"`` where
    the record states one); {} if none."""
    return _table("predictions", file)


def quizzes(file=None):
    """``{quiz id: {"answer": str, "right": bool, "tries": int}}`` (and ``"part"`` where the record
    states one); {} if none."""
    return _table("quizzes", file)


def _update(file, name, change):
    """Read the file once, let ``change(table)`` edit table ``name``, write it all back atomically.

    True if saved; never raises.
    """
    try:
        file = file or path()
        if file is None:
            return False
        data = _read(file)
        data.update({n: _table(n, data=data) for n in _TABLES})
        change(data[name])
        data[name] = _TABLES[name](data[name])  # so what is saved is what a read returns (``right`` too)
        data["version"] = VERSION
        text = json.dumps({k: dict(sorted(v.items())) if isinstance(v, dict) else v
                           for k, v in sorted(data.items())}, indent=1)
        tmp = f"{file}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, file)
        return True
    except Exception:  # noqa: BLE001 -- progress is best effort
        try:
            os.remove(f"{file}.tmp")
        except Exception:  # noqa: BLE001 -- progress is best effort, its clean-up too
            pass
        return False


def record(exercise_id, passed, file=None):
    """Record one graded attempt. Returns True if it was saved, False otherwise; never raises."""
    key = str(exercise_id)
    if key not in course.exercise_ids():  # a typo in a grader would otherwise grow a phantom row
        return False

    def change(exercises):
        old = exercises.get(key, {"passed_once": False, "attempts": 0})
        exercises[key] = {"passed": bool(passed), "passed_once": bool(passed) or old["passed_once"],
                          "attempts": old["attempts"] + 1}
    return _update(file, "exercises", change)


def record_hint(exercise_id, revealed, file=None):
    """Record that ``revealed`` hints of an exercise are shown (the count never goes down). Never raises."""
    def change(table):
        table[str(exercise_id)] = max(table.get(str(exercise_id), 0), int(revealed))
    return _update(file, "hints", change)


def record_prediction(key, predicted, actual, file=None, *, part=None):
    """Record a prediction and what really happened (the latest one per ``key`` is kept), in ``part``
    (a part's number; by default the part its key names, see :func:`part_of`). Never raises."""
    def change(table):
        table[str(key)] = {"predicted": str(predicted), "actual": str(actual), "part": part}
    return _update(file, "predictions", change)


def record_quiz(quiz_id, answer, right, file=None, *, part=None):
    """Record a checked quiz answer (the latest one per quiz, with how many checks it took), in
    ``part`` (by default the part its id names: quiz "1.2" is part 1's). Never raises."""
    def change(table):
        old = table.get(str(quiz_id), {"tries": 0})
        table[str(quiz_id)] = {"answer": str(answer), "right": bool(right), "tries": old["tries"] + 1,
                               "part": part if part is not None else old.get("part")}
    return _update(file, "quizzes", change)


def reset(file=None):
    """Forget all progress (deletes the file). Returns True if nothing is left; never raises."""
    file = file or path()
    if file is None:
        return False
    try:
        os.remove(file)
    except FileNotFoundError:
        pass
    except Exception:  # noqa: BLE001 -- progress is best effort: False says it was not removed
        return False
    return True


def status(file=None):
    """Every part with its exercises: ``[{"part", "title", "exercises": [{"id", "title", "done",
    "passed", "attempts"}], "done": n, "total": n}]``. ``done`` means passed at least once."""
    saved = load(file)
    parts = []
    for part_id, title, exercises in BY_PART:
        rows = []
        for ex_id, ex_title in exercises:
            entry = saved.get(ex_id, {})
            rows.append({"id": ex_id, "title": ex_title, "done": entry.get("passed_once", False),
                         "passed": entry.get("passed", False), "attempts": entry.get("attempts", 0)})
        parts.append({"part": part_id, "title": title, "exercises": rows,
                      "done": sum(r["done"] for r in rows), "total": len(rows)})
    return parts
