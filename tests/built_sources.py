"""A notebook source as its notebooks are built from it: what it leaves to the package filled in.

tools/from_tables.py does the filling (the tables' counts and cells, a grader's reference written
out as a worked solution). It is loaded by its path, so the tests that read sources through this
module import nothing from tools/ (the Pyodide run, which does not copy tools/, reads imports).
"""

import importlib.util
from pathlib import Path

TOOL = Path(__file__).resolve().parents[1] / "tools" / "from_tables.py"


def filled(path):
    """The text of the notebook source at ``path``, filled in as ``make notebooks`` fills it."""
    spec = importlib.util.spec_from_file_location("from_tables", TOOL)
    tables = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tables)
    return tables.fill(Path(path).read_text(encoding="utf-8"))
