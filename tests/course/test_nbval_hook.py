"""The root conftest.py gives a learner form's stored cells a count for nbval only (see its doc).

Without it nbval fails every learner cell with stored outputs ("Unrun reference cell has outputs");
with it, nbval compares those outputs with a fresh run. It must touch nothing else: not the worked
solutions, not a cell with no stored output (nbval then runs it without comparing), not the file.
"""

import importlib.util
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
hook = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hook)


def _item(folder, outputs):
    cell = {"cell_type": "code", "execution_count": None, "outputs": outputs, "source": "x = 1"}
    return SimpleNamespace(cell=cell, path=ROOT / folder / "01_architecture.ipynb")


def test_only_a_learner_cell_with_stored_outputs_is_numbered():
    shown = [{"output_type": "stream", "name": "stdout", "text": "x\n"}]
    learner, unstored, solution = _item("notebooks", shown), _item("notebooks", []), _item("notebooks/solutions", shown)
    other = SimpleNamespace(path=ROOT / "notebooks" / "01_architecture.ipynb")  # not an nbval cell
    hook.pytest_collection_modifyitems([learner, unstored, solution, other])
    assert learner.cell["execution_count"] is not None
    assert unstored.cell["execution_count"] is None and solution.cell["execution_count"] is None
    assert learner.cell["outputs"] == shown
