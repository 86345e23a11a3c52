"""What a learner notebook shows on first open, before anything runs in the browser.

Read from the committed learner forms (tools/learner_form.py makes them so): no cell carries an
execution count, since nothing has run yet in the learner's browser, and no grader cell stores the
report it wrote of the stub ("not implemented, 0 of N checks": a verdict on code not yet written).
The worked solutions keep both, as run.
"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LEARNER = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
GRADER = re.compile(r"\bgrade_\w+\(")


def _cells(path):
    return [c for c in json.loads(path.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]


def _source(cell):
    return "".join(cell["source"])


@pytest.mark.parametrize("path", LEARNER, ids=[p.name for p in LEARNER])
def test_no_learner_cell_looks_already_run(path):
    counted = [i for i, c in enumerate(_cells(path)) if c.get("execution_count") is not None
               or any(o.get("execution_count") is not None for o in c.get("outputs", []))]
    assert not counted, f"{path.name}: code cells {counted} keep an execution count"


@pytest.mark.parametrize("path", LEARNER, ids=[p.name for p in LEARNER])
def test_no_grader_cell_stores_its_report_of_the_stub(path):
    graders = [c for c in _cells(path) if GRADER.search(_source(c))]
    stored = [_source(c).splitlines()[-1] for c in graders if c.get("outputs")]
    assert not stored, f"{path.name}: grader cells store a report: {stored}"


def test_the_learner_forms_have_grader_cells_and_the_solutions_keep_their_reports():
    graders = {p.name: [c for c in _cells(p.parent / "solutions" / p.name) if GRADER.search(_source(c))]
               for p in LEARNER}
    assert sum(len(g) for g in graders.values()) >= 8  # one an exercise
    assert all(c.get("outputs") and c.get("execution_count") for g in graders.values() for c in g)
