"""A learner's wrong attempt at an exercise never breaks a course cell of its notebook.

Each learner notebook is run whole, as Run All does, with its exercise function's body replaced by
a typical wrong attempt (the ones of the learner walk, and for part 2 every shape a reviewer's
output can take): the graders say "not yet", and the course cells that call the learner's
function report what is wrong instead of raising. Found in the walk: part 2's cell that replays
the stuck coder indexed the reviewer's output and raised KeyError: 'patches'.
"""

from pathlib import Path

import nbformat
import pytest
from exercise_cells import EXERCISE_FUNCTIONS, is_exercise, replace_bodies
from nbconvert.preprocessors import CellExecutionError, ExecutePreprocessor

ROOT = Path(__file__).resolve().parents[2]

WRONG = {
    "01_architecture.ipynb": ["return {'ok': True, 'passed': 4, 'failed': 0, 'errors': []}"],
    "02_policies.ipynb": ["return {'verdict': 'approve'}", "return None", "return 'approve'",
                          "return {'role': 'reviewer', 'patches': []}",
                          "return {'role': 'reviewer', 'patches': ['REVIEW.json']}",
                          "return {'role': 'reviewer', 'patches': [{'path': 'REVIEW.json'}]}"],
    "03_supervisor.ipynb": ["return []"],
    "04_failure_injection.ipynb": ["return None"],
    "05_real_team.ipynb": ["return {'passed': True, 'action': None, 'step': None}"],
    "06_your_team.ipynb": ["return []"],
}
CASES = [(name, body) for name, bodies in WRONG.items() for body in bodies]
pytestmark = pytest.mark.slow  # each case runs a whole notebook


@pytest.mark.parametrize("name,body", CASES, ids=[f"{n[:2]}-{i}" for i, (n, _) in enumerate(CASES)])
def test_run_all_goes_through_a_wrong_attempt(name, body, monkeypatch):
    monkeypatch.setenv("AGENT_TEAM_PROGRESS", "off")
    (function,) = EXERCISE_FUNCTIONS[name]
    nb = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    replaced = []
    for cell in nb.cells:
        if cell.cell_type == "code" and is_exercise(cell):
            cell.source, found = replace_bodies(cell.source, [function], [body])
            replaced += found
    assert replaced == [function]
    try:
        ExecutePreprocessor(timeout=120, kernel_name="python3").preprocess(
            nb, {"metadata": {"path": str(ROOT / "notebooks")}})
    except CellExecutionError as err:
        pytest.fail(f"{name} with `{body}`: a cell raised\n{str(err)[-1500:]}")
    text = "".join(str(out.get("text", "")) + str(out.get("data", {}).get("text/plain", ""))
                   for cell in nb.cells for out in cell.get("outputs", []))
    assert "not yet" in text, f"{name}: no grader said 'not yet' to `{body}`"
