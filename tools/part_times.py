"""How long a careful first pass through each part takes, measured from its notebook.

A part's time is what a learner reads, runs and writes, counted in its worked-solutions notebook
(it holds every output a learner sees once each cell has run):

* **prose**: the words of its markdown cells, at WORDS_PER_MINUTE; a folded box (``<details>``)
  counts too, since the course asks for the reasons in them;
* **code to read**: the words of its code cells, comments included (they explain the line below),
  and of the code blocks in its markdown (the appendix's sketches), at CODE_WORDS_PER_MINUTE; an
  exercise cell is not read but written, so it is left to the exercise's own time;
* **outputs to read**: the words the cells print or show (the text twin of each output), at
  OUTPUT_WORDS_PER_MINUTE (traces and tables are skimmed more than read);
* **running**: opening the notebook until the kernel is idle and run-all (docs/browsers.md
  measured at most 12.3 s and 3.3 s in Firefox: OPEN_MINUTES), plus RUN_SECONDS for the learner to
  run each code cell and see it finish;
* **answering**: ANSWER_MINUTES for each prediction form and each quiz (its question and choices
  are read here: they are in the widget, not in the cell's code);
* **exercises**: each exercise's minutes as careful learners took them (EXERCISE_MINUTES).

The rates and costs are calibrated on the learner walks (../shared/reviews/learner-walk-wave3-*.md
and learner-walk-wave4-*.md). Both read prose at about 200 words a minute and outputs at about 280
(wave 3, parts 1-3: 1,300 words in 5 minutes, 1,700 in 6). Code is read at about 100 words a minute
(wave 4's rate; wave 3's "211 lines in 10 minutes" was on lines of about 5 words, the same pace).
An answer took 1-1.5 minutes (wave 4: part 4's 13 predictions in about 20, once the answers were no
longer on screen to copy; wave 3 took 10 with them there). Each part ran in about 3 minutes (part 1: 32
code cells). EXERCISE_MINUTES are the middles of the times the walks observed per exercise
(EXERCISE_WALKED; 15 for one no one has walked yet). Measured this way, parts 1-7 come within 5
minutes of wave 4's estimates for a human learner (60, 52, 70, 100, 55-65, 50-70, 55-65), read
after the changes that walk asked for; the appendix measures 35 where that walker budgeted 40-50
for its density, more than its own rates give.

A part states its time as ``About {{minutes}} minutes`` in its source; ``tools/notebooks.py``
writes the measured number there when it builds the part, so the stated time follows the part.

    python tools/part_times.py          # a table: each part, what it is made of, measured and stated
"""

import json
import math
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEARNER = ROOT / "notebooks"
SOLUTIONS = LEARNER / "solutions"

WORDS_PER_MINUTE = 200
OUTPUT_WORDS_PER_MINUTE = 280
CODE_WORDS_PER_MINUTE = 100
OPEN_MINUTES = 0.5
RUN_SECONDS = 5
ANSWER_MINUTES = 1.5
# Minutes per exercise as each walk saw a careful learner take it (wave 3's middles; wave 4's figures).
EXERCISE_WALKED = {"1.1": (17.5, 15), "2.1": (15, 11), "3.1": (17.5, 14), "4.1": (10, 12), "4.2": (10, 9),
                   "5.1": (12.5,), "6.1": (25,), "6.2": (17.5,)}
EXERCISE_MINUTES = {ex: statistics.median(seen) for ex, seen in EXERCISE_WALKED.items()}
NEW_EXERCISE_MINUTES = 15
# Where a source leaves its time to the measurement, and how a notebook states it: "About 60 minutes".
MINUTES = "{{minutes}}"
STATED = re.compile(r"\bAbout (\d+) minutes\b")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’_-]*")
FENCED = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)  # a code block inside a markdown cell


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
    "code": words, "outputs": words, "cells": n, "answers": n, "exercises": [ids]}``."""
    made = {"prose": 0, "code": 0, "outputs": 0, "cells": 0, "answers": 0, "exercises": []}
    for cell in nb["cells"]:
        source = _join(cell["source"])
        if cell["cell_type"] == "markdown":
            sketches = "\n".join(FENCED.findall(source))
            made["prose"] += _words(FENCED.sub(" ", source))
            made["code"] += len(WORD.findall(sketches))
            continue
        made["cells"] += 1
        tags = cell.get("metadata", {}).get("tags", [])
        exercise = next((t.removeprefix("exercise-") for t in tags if t.startswith("exercise-")), None)
        if exercise:
            made["exercises"].append(exercise)
        else:
            made["code"] += len(WORD.findall(source))
        made["outputs"] += sum(_words(_shown(out)) for out in cell.get("outputs", []))
        made["answers"] += bool(re.search(r"\bQuiz\(|\bPredict(?:\.fault)?\(", source))
    return made


def minutes(made):
    """``{what: minutes}`` for a part's make-up (see the module's doc), and its total."""
    cost = {
        "prose": made["prose"] / WORDS_PER_MINUTE,
        "code": made["code"] / CODE_WORDS_PER_MINUTE,
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
    print("part | prose words | code words | output words | cells | answers | exercises | minutes: "
          "prose + code + outputs + running + answering + exercises = total | stated")
    for name, made, cost, said in table():
        parts_of = " + ".join(f"{cost[k]:.0f}" for k in ("prose", "code", "outputs", "running", "answering",
                                                          "exercises"))
        print(f"{name} | {made['prose']} | {made['code']} | {made['outputs']} | {made['cells']} | "
              f"{made['answers']} | {', '.join(made['exercises']) or '-'} | {parts_of} = {cost['total']:.0f} "
              f"(about {rounded(cost['total'])}) | {said}")
    sys.exit(0)
