"""A hook for nbval, which `make nbval` runs on the notebooks from here.

The learner forms keep no execution counts (tools/learner_form.py: nothing has run in the learner's
browser yet, and `[ ]` says so). nbval takes a cell without a count for one never run, and fails it
when it has stored outputs. Every stored output of a learner form comes from the build's run, so
for nbval's eyes only each such cell is given a count again, and nbval compares its outputs with a
fresh run as it does in the worked solutions. The committed files are not changed.
"""

from pathlib import Path

LEARNER_FORMS = Path(__file__).resolve().parent / "notebooks"


def pytest_collection_modifyitems(items):
    for item in items:
        cell = getattr(item, "cell", None)
        if cell is None or Path(item.path).resolve().parent != LEARNER_FORMS:
            continue
        if cell.get("execution_count") is None and cell.get("outputs"):
            cell["execution_count"] = 1  # any number: nbval compares outputs, never counts
