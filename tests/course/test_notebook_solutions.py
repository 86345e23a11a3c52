"""Worked solutions that the package also holds, tied to the package's code.

Exercises 1.1, 2.1, 4.1, 4.2 and 5.1 are graded, with all their mutants, from the notebook
sources in tests/grading/test_*reference_mutants.py. Here: the 1.1 grader's reference and
3.1's `protocol.run_team` are the very statements the notebooks show as worked solutions
(comments and docstrings aside); the worked solutions of 4.2 and 7.1 are written from their
graders' references when the notebooks are built (tools/from_tables.py); 6.2's reads a run as
`gated.run_outcomes` does; the worked solutions of 3.1, 4.2, 6.1, 6.2 and 7.1 pass their graders.
"""

import ast
import importlib.util
import inspect
from pathlib import Path

import pytest

from agent_team import protocol
from agent_team.realteam import gated
from agent_team.classroom.exercises import SETUP
from agent_team.faults import FAULTS, run_fault
from agent_team.grading import (grade_hardening, grade_my_fault, grade_retry_or_stop, grade_run_outcomes,
                                 grade_run_team)
from agent_team.grading.ex_hardening import reference_no_exec
from agent_team.grading.ex_retry import reference_retry_or_stop
from agent_team.grading.ex_run_tests import reference_run_tests
from agent_team.supervisor import supervise

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "notebooks" / "source"
pytestmark = pytest.mark.skipif(not SOURCES.is_dir(), reason="the notebook sources are not here")

spec = importlib.util.spec_from_file_location("notebook_tool", ROOT / "tools" / "notebooks.py")
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)


def exercise_cells(part):
    """The exercise cells of one part, as the worked-solution notebook has them."""
    path = next(SOURCES.glob(f"{part}_*.py"))
    cells = tool.notebook(tool.parse(tool.filled(path)), solution=True)["cells"]
    return [c["source"] for c in cells if "exercise" in c["metadata"].get("tags", [])]


def defined(part, name):
    """Run the exercise cell of ``part`` that defines ``name`` after the course's setup code for that
    part (as a class is graded); return what it defines."""
    cell = next(c for c in exercise_cells(part) if f"def {name}(" in c or f"{name} = " in c)
    scope = {}
    exec(SETUP[int(part)], scope)
    exec(compile(cell, f"<part {part}: {name}>", "exec"), scope)
    return scope[name]


def body(source):
    """A function's statements without its docstring, as an AST dump (comments and layout ignored)."""
    fn = ast.parse(source).body[0]
    stmts = fn.body[1:] if isinstance(fn.body[0], ast.Expr) and isinstance(fn.body[0].value, ast.Constant) else fn.body
    return [ast.dump(s) for s in stmts]


def accepted(report):
    assert report.passed, f"a worked solution is refused by its grader:\n{report}"


def test_the_run_tests_grader_compares_with_the_worked_solution():
    cell = next(c for c in exercise_cells("01") if "def run_tests(" in c)
    assert body(cell) == body(inspect.getsource(reference_run_tests))


@pytest.mark.parametrize("part, name, reference, grade", [
    ("04", "no_exec", reference_no_exec, grade_hardening),
    ("07", "retry_or_stop", reference_retry_or_stop, grade_retry_or_stop),
])
def test_a_worked_solution_written_from_its_graders_reference_is_that_reference(part, name, reference, grade):
    source = next(SOURCES.glob(f"{part}_*.py")).read_text(encoding="utf-8")
    placeholder = f"    ...  # {{{{body of {reference.__module__}.{reference.__name__}}}}}\n"
    assert placeholder in source  # the source holds no copy of the solution
    cell = next(c for c in exercise_cells(part) if f"def {name}(" in c)
    assert body(cell) == body(inspect.getsource(reference))
    accepted(grade(defined(part, name)))


def test_the_run_team_solution_is_the_packages_reference():
    cell = next(c for c in exercise_cells("03") if "def run_team(" in c)
    assert body(cell) == body(inspect.getsource(protocol.run_team))
    accepted(grade_run_team(defined("03", "run_team")))


def test_the_run_outcomes_solution_reads_runs_as_the_package_does():
    mine = defined("06", "run_outcomes")
    runs = [supervise(max_rounds=n) for n in (0, 1, 4)] + [run_fault(name) for name in FAULTS]
    for run in runs:
        want = [{k: o[k] for k in ("step", "status", "risk")} for o in gated.run_outcomes(run)]
        assert mine(run) == want, run.stop_reason
    accepted(grade_run_outcomes(mine))


def test_the_fault_of_ones_own_passes_its_grader():
    fault = defined("06", "MY_FAULT")
    assert fault["name"] not in FAULTS
    accepted(grade_my_fault(fault))
