"""The worked solutions in the notebook sources match the package's references and pass their graders.

The grader of 1.1 and the protocol of 3.1 hold the same code the notebooks show as the worked
solution: they must stay the same statements (comments and docstrings aside). The worked
solutions of 3.1, 6.1 and 6.2 must pass their graders; those of 1.1, 2.1, 4.1, 4.2 and 5.1 are
graded, with all their mutants, in test_reference_mutation_a.py and test_reference_mutation_b.py.
"""

import ast
import inspect
import textwrap

from grader_helpers import assert_accepted, solution

from agent_team import protocol
from agent_team.grading import check_my_fault, check_run_outcomes, check_run_team
from agent_team.grading.ex_run_tests import reference_run_tests
from agent_team.policies import FULL_SOURCE, fake_reviewer
from agent_team.repo import PLAN_PATH, SRC_PATH


def statements(source, name):
    """The statements of function ``name`` in ``source``, as AST dumps: comments and a docstring left out."""
    tree = ast.parse(textwrap.dedent(source))
    fn = next(node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == name)
    body = fn.body[1:] if ast.get_docstring(fn) is not None else fn.body
    return [ast.dump(node) for node in body]


def loaded(source, name, **scope):
    exec(compile(source, f"<worked solution: {name}>", "exec"), scope)
    return scope[name]


def test_the_1_1_grader_compares_with_the_notebooks_worked_solution():
    shown = solution("01_architecture.py", "def run_tests(repo):")
    assert statements(shown, "run_tests") == statements(inspect.getsource(reference_run_tests),
                                                        "reference_run_tests")


def test_the_3_1_reference_is_the_notebooks_worked_solution_and_passes():
    shown = solution("03_supervisor.py", "def run_team(task, planner, coder, reviewer, tester, max_rounds):")
    assert statements(shown, "run_team") == statements(inspect.getsource(protocol.run_team), "run_team")
    assert_accepted(check_run_team(loaded(shown, "run_team")))


def test_the_6_1_worked_fault_passes():
    shown = solution("06_your_team.py", "def reviewer_fixes_code(goal, view):")
    fault = loaded(shown, "MY_FAULT", fake_reviewer=fake_reviewer, SRC_PATH=SRC_PATH, FULL_SOURCE=FULL_SOURCE)
    assert_accepted(check_my_fault(fault))


def test_the_6_2_worked_solution_passes():
    shown = solution("06_your_team.py", "def run_outcomes(run):")
    assert_accepted(check_run_outcomes(loaded(shown, "run_outcomes", PLAN_PATH=PLAN_PATH)))
