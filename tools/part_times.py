"""How long a careful first pass through each part takes, measured from its notebook.

A part's time is what a learner reads, runs and writes, counted in its worked-solutions notebook
(it holds every output a learner sees once each cell has run):

* **prose**: the words of its markdown cells, at WORDS_PER_MINUTE; a folded box (``<details>``)
  counts too, since the course asks for the reasons in them;
* **code to read**: the non-blank lines of its code cells, comments included (they explain the
  line below), at CODE_LINES_PER_MINUTE; an exercise cell is not read but written, so it is left
  to the exercise's own time;
* **outputs to read**: the words the cells print or show (the text twin of each output), at
  OUTPUT_WORDS_PER_MINUTE (traces and tables are skimmed more than read);
* **running**: opening the notebook until the kernel is idle and run-all (docs/browsers.md
  measured at most 12.3 s and 3.3 s in Firefox: OPEN_MINUTES), plus RUN_SECONDS for the learner to
  run each code cell and see it finish;
* **answering**: ANSWER_MINUTES for each prediction form and each quiz;
* **exercises**: each exercise's minutes as a careful learner took them (EXERCISE_MINUTES).

The rates and costs are calibrated on the two learner walks of wave 3
(../shared/reviews/learner-walk-wave3-parts1-3.md and -parts4-7.md): their readers went at about
200 words of prose, 20 lines of code (part 1: 211 lines in 10 minutes) and 280 words of output
(parts 1-3: 1,300 in 5, 1,700 in 6) a minute, ran each part in about
3 minutes (part 1: 32 code cells), took 4 minutes for part 1's prediction and two quizzes, 10 for
part 4's 13 predictions, and EXERCISE_MINUTES are the middles of the times they observed per
exercise (15 for one no one has walked yet).

A part states its time as ``About {{minutes}} minutes`` in its source; ``tools/notebooks.py``
writes the measured number there when it builds the part, so the stated time follows the part.

    python tools/part_times.py          # a table: each part, what it is made of, measured and stated
"""

import json
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEARNER = ROOT / "notebooks"
SOLUTIONS = LEARNER / "solutions"

WORDS_PER_MINUTE = 200
OUTPUT_WORDS_PER_MINUTE = 280
CODE_LINES_PER_MINUTE = 20
OPEN_MINUTES = 0.5
RUN_SECONDS = 5
ANSWER_MINUTES = 1
EXERCISE_MINUTES = {"1.1": 17.5, "2.1": 15, "3.1": 17.5, "4.1": 10, "4.2": 10, "5.1": 12.5, "6.1": 25,
                    "6.2": 17.5}
NEW_EXERCISE_MINUTES = 15
# Where a source leaves its time to the measurement, and how a notebook states it: "About 60 minutes".
MINUTES = "{{minutes}}"
STATED = re.compile(r"\bAbout (\d+) minutes\b")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’_-]*")


def _join(text):
    return "".join(text) if isinstance(text, list) else str(text)


def _words(text):
    text = re.sub(r"<style>.*?</style>|<[^>]+>", " ", text, flags=re.S)
    return len(WORD.findall(text))


def _shown(out):
    """The text of one output as the learner reads it (its text twin; a widget's own text is counted
    by its cell as an answer, not as reading)."""
    if out["output_type"] == "stream":
        return _join(out["text"])
    data = out.get("data", {})
    if WIDGET_VIEW in data:
        return ""
    return _join(data.get("text/plain", "")) if "text/plain" in data else _join(data.get("text/html", ""))


def parts(nb):
    """What one part is made of, read from its worked-solutions notebook (a dict): ``{"prose": words,
    "code": lines, "outputs": words, "cells": n, "answers": n, "exercises": [ids]}``."""
    made = {"prose": 0, "code": 0, "outputs": 0, "cells": 0, "answers": 0, "exercises": []}
    for cell in nb["cells"]:
        source = _join(cell["source"])
        if cell["cell_type"] == "markdown":
            made["prose"] += _words(source)
            continue
        made["cells"] += 1
        tags = cell.get("metadata", {}).get("tags", [])
        exercise = next((t.removeprefix("exercise-") for t in tags if t.startswith("exercise-")), None)
        if exercise:
            made["exercises"].append(exercise)
        else:
            made["code"] += sum(1 for line in source.splitlines() if line.strip())
        made["outputs"] += sum(_words(_shown(out)) for out in cell.get("outputs", []))
        made["answers"] += bool(re.search(r"\bQuiz\(|\bPredict(?:\.fault)?\(", source))
    return made


def minutes(made):
    """``{what: minutes}`` for a part's make-up (see the module's doc), and its total."""
    cost = {
        "prose": made["prose"] / WORDS_PER_MINUTE,
        "code": made["code"] / CODE_LINES_PER_MINUTE,
        "outputs": made["outputs"] / OUTPUT_WORDS_PER_MINUTE,
        "running": OPEN_MINUTES + made["cells"] * RUN_SECONDS / 60,
        "answering": made["answers"] * ANSWER_MINUTES,
        "exercises": sum(EXERCISE_MINUTES.get(e, NEW_EXERCISE_MINUTES) for e in made["exercises"]),
    }
    cost["total"] = sum(cost.values())
    return cost


def rounded(total):
    """A measured time as a part states it: to the next 5 minutes."""
    return 5 * math.ceil(total / 5)


def measured(nb):
    """The minutes a part states, from its worked-solutions notebook (a dict)."""
    return rounded(minutes(parts(nb))["total"])


def stated(nb):
    """The minutes a notebook (a dict) states in its opening cell, or None."""
    first = next((c for c in nb["cells"] if c["cell_type"] == "markdown"), None)
    found = STATED.search(_join(first["source"])) if first else None
    return int(found[1]) if found else None


def _load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def table():
    """``(part, what it is made of, minutes, stated in the learner notebook)`` for every part."""
    rows = []
    for path in sorted(SOLUTIONS.glob("[0-9][0-9]_*.ipynb")):
        made = parts(_load(path))
        learner = LEARNER / path.name
        rows.append((path.stem, made, minutes(made), stated(_load(learner)) if learner.exists() else None))
    return rows


if __name__ == "__main__":
    print("part | prose words | code lines | output words | cells | answers | exercises | minutes: "
          "prose + code + outputs + running + answering + exercises = total | stated")
    for name, made, cost, said in table():
        parts_of = " + ".join(f"{cost[k]:.0f}" for k in ("prose", "code", "outputs", "running", "answering",
                                                          "exercises"))
        print(f"{name} | {made['prose']} | {made['code']} | {made['outputs']} | {made['cells']} | "
              f"{made['answers']} | {', '.join(made['exercises']) or '-'} | {parts_of} = {cost['total']:.0f} "
              f"(about {rounded(cost['total'])}) | {said}")
    sys.exit(0)
