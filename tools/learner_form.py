"""What the learner form of a notebook shows on first open, cell kind by cell kind.

The learner form ships with stored outputs, so that a page opened before anything runs already
shows the course's tables, drawings and widgets. It must not show an answer before the learner
commits to one. So, read from the cells' sources (no tag to forget):

* a **prediction** is a code cell that makes a ``Predict(...)`` form; its stored output is the
  form itself, unanswered;
* its **run** cells are the code cells after it, up to its reveal: they run the thing predicted,
  so their outputs are not stored (the learner makes them by running the cell, after choosing);
* its **reveal** is the first code cell after it that calls ``.reveal(``: it is not run when the
  learner form is built, so the stored form is still open (radios enabled, no verdict) and no
  "the run shows ..." is stored under it;
* a code cell tagged ``spoiler`` (it prints what a later question asks) keeps no output either;
* a **grader** cell (it calls ``grade_...(``) keeps no output: run on the stub, its report says
  "not implemented, 0 of N checks", a verdict on code the learner has not written yet.

And no cell of the learner form keeps its execution count: ``[ ]`` beside every cell says what is
true on first open, that nothing has run in this browser yet; the outputs shown are the ones stored
with the notebook (part 1's opening says so).

The solutions form stores every output. nbval compares those, and runs the learner form's
unstored cells without comparing their outputs (``nbval-ignore-output``): they must still run
without an error.
"""

import re

PREDICTION = re.compile(r"\bPredict(?:\.fault)?\(")
REVEAL = re.compile(r"\.reveal\(")
GRADER = re.compile(r"\bgrade_\w+\(")
SPOILER = "spoiler"
# The tags the learner form gives a cell whose output it does not store (tools/notebooks.py adds
# them, its build reads them, tests/course/test_spoilers.py and nbval follow them).
UNSTORED = "output-after-run"
NOT_RUN = "reveal"
NBVAL_IGNORE = "nbval-ignore-output"


def kinds(cells):
    """``{index: kind}`` for the cells of a parsed source (``tools.notebooks.parse``) whose output the
    learner form does not store: ``"run"``, ``"reveal"``, ``"spoiler"`` or ``"grader"``; raises on a
    prediction without its reveal."""
    found, open_at = {}, None
    for i, (kind, tags, lines) in enumerate(cells):
        if kind != "code":
            continue
        text = "\n".join(lines)
        if open_at is not None:
            if PREDICTION.search(text):
                raise ValueError(f"cell {open_at + 1} makes a prediction, but a new one (cell {i + 1}) starts "
                                 "before it is revealed: call `.reveal(...)` on the first one in between")
            found[i] = "reveal" if REVEAL.search(text) else "run"
            open_at = None if found[i] == "reveal" else open_at
        elif PREDICTION.search(text) and not REVEAL.search(text):
            open_at = i
        elif SPOILER in tags:
            found[i] = "spoiler"
        elif GRADER.search(text):
            found[i] = "grader"
    if open_at is not None:
        raise ValueError(f"cell {open_at + 1} makes a prediction that no later cell reveals: add a cell "
                         "that calls `.reveal(...)` after the run it predicts")
    return found


def unnumbered(cells):
    """The learner form's executed cells without execution counts (see the module's doc), in place."""
    for cell in cells:
        if "execution_count" in cell:
            cell["execution_count"] = None
        for out in cell.get("outputs", []):
            if "execution_count" in out:
                out["execution_count"] = None
    return cells


def tags(kind):
    """The tags the learner form adds to a cell of this kind (see :func:`kinds`)."""
    return [UNSTORED, NBVAL_IGNORE] + ([NOT_RUN] if kind == "reveal" else [])
