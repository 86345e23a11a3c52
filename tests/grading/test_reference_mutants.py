"""Mutation testing of the worked solutions of exercises 1.1, 2.1, 4.1 and 4.2.

Every single-change mutant (tests/grading/mutation.py: conditions, comparisons, constants, slices, loop
bounds, dropped statements, returns) of each notebook solution is graded; each one must be
rejected, unless it is listed in ``EQUIVALENT`` with the reason it behaves like the solution on
every input the exercise text allows.

Measured (the last test keeps it true): 1.1: 84 mutants, 59 rejected, 25 equivalent survivors;
2.1: 69 mutants, 54 rejected, 15 equivalent survivors; 4.1: 87 mutants, 59 rejected, 28
equivalent survivors; 4.2: 27 mutants, 23 rejected, 4 equivalent survivors.
"""


import pytest

from grader_helpers import solution
from mutation import mutants

from agent_team import faults, policies
from agent_team.grading import grade_fault_eval, grade_hardening, grade_nits_reviewer, grade_run_tests
from agent_team.oracle import CASES
from agent_team.repo import SRC_PATH



def as_function(source, name):
    """Module-level data (EVAL) as a function body, so that statements can be mutated too."""
    body = "\n".join("    " + line for line in source.splitlines())
    return f"def {name}():\n{body}\n    return EVAL\n"


def _evaluated(make):
    """The EVAL a mutated cell defines, or None when the cell raises (it then defines nothing)."""
    try:
        return make()
    except Exception:  # noqa: BLE001 -- a mutated cell may raise anything; it then defines nothing
        return None


EXERCISES = {
    "1.1": (lambda: solution("01_architecture.py", "def run_tests(repo):"), "run_tests",
            {"CASES": CASES, "SRC_PATH": SRC_PATH}, grade_run_tests),
    "2.1": (lambda: solution("02_policies.py", "def nits_reviewer(goal, view):"), "nits_reviewer",
            {"output": policies.output, "review_patch": policies.review_patch, "NITS_LIMIT": 3},
            grade_nits_reviewer),
    "4.1": (lambda: as_function(solution("04_failure_injection.py", "from agent_team.faults import fizz_only_coder"),
                                "make_eval"),
            "make_eval", vars(faults), lambda make: grade_fault_eval(_evaluated(make))),
    "4.2": (lambda: solution("04_failure_injection.py", "def no_exec(role, patch):"), "no_exec", {},
            grade_hardening),
}

WORDING = "only the words of a message, a thought or a reason change; the text grades none of them"
NAME = "only a row's name changes; names are free"
VALID_ROW = "the changed row is still right (same status, and at least two other rows are faults)"
SCOPE = "the names it imports are already in the scope the test loads the solution in"
DEFAULT = "the default is never used: every repo the grader passes holds src/fizzbuzz.py"
IMPLICIT = "a function that ends without return returns None anyway"


def _same(exercise, line, text, *changes):
    return {(exercise, f"line {line}: `{text!r}` -> `{new!r}`") for new in changes}


def _words(exercise, line, *texts):
    """The mutator's three changes of each string constant: emptied, one character shorter, prefixed."""
    return set().union(*(_same(exercise, line, t, "", t[:-1], "X" + t) for t in texts))


# (exercise, mutant description) -> why it behaves like the solution on every input the text allows
EQUIVALENT = {
    ("1.1", "line 5: `''` -> `'X'`"): DEFAULT,
    **dict.fromkeys(_words("1.1", 8, "could not load fizzbuzz: ", ": ")
                    | _words("1.1", 14, "fizzbuzz(", ") raised ", ": ")
                    | _words("1.1", 19, "fizzbuzz(", ") returned ", "; expected "), WORDING),
    **dict.fromkeys(_words("2.1", 4, "the tests are green: approve", "tests green") | _words("2.1", 5, "tests green")
                    | _words("2.1", 9, "red tests; I have asked ", " times before"), WORDING),
    ("4.1", "line 2: drop `from agent_team.faults import fizz_on...`"): SCOPE,
    **dict.fromkeys(_words("4.1", 5, "healthy, 1 round") | _words("4.1", 6, "healthy, 4 rounds")
                    | _words("4.1", 7, "fizz-only coder") | _words("4.1", 8, "reviewer never approves")
                    | _words("4.1", 9, "plan wiped") | _words("4.1", 10, "planner writes code"), NAME),
    **dict.fromkeys(_same("4.1", 7, 4, 5, 3, 0) | _same("4.1", 8, 4, 5, 3) | _same("4.1", 9, 4, 5, 3)
                    | _same("4.1", 10, 4, 5, 3), VALID_ROW),
    **dict.fromkeys(_words("4.2", 6, "coder patches may not use "), WORDING),
    ("4.2", "line 7: drop `return None`"): IMPLICIT,
}


def _mutants(exercise):
    make, name, namespace, grade = EXERCISES[exercise]
    return [(exercise, m) for m in mutants(make())]


ALL = [pair for exercise in EXERCISES for pair in _mutants(exercise)]


def test_the_solutions_themselves_pass():
    for exercise, (make, name, namespace, grade) in EXERCISES.items():
        scope = dict(namespace)
        exec(compile(make(), f"<solution {exercise}>", "exec"), scope)
        assert grade(scope[name]).passed, exercise


@pytest.mark.parametrize("exercise, mutant", ALL, ids=[f"{e} {m.description}" for e, m in ALL])
def test_every_mutant_of_a_solution_is_rejected_or_listed_as_equivalent(exercise, mutant):
    make, name, namespace, grade = EXERCISES[exercise]
    try:
        fn = mutant.load(name, namespace)
    except Exception:  # noqa: BLE001 -- a mutant that cannot even load is rejected by definition
        return
    report = grade(fn)
    key = (exercise, mutant.description)
    if key in EQUIVALENT:
        assert report.passed, f"listed as equivalent but rejected: {key}\n{report}"
    else:
        assert not report.passed, f"survivor: {key}\n{mutant.source}"


def test_every_listed_equivalent_is_a_real_mutant():
    assert set(EQUIVALENT) <= {(e, m.description) for e, m in ALL}


@pytest.mark.parametrize("exercise", ["1.1", "2.1", "4.1", "4.2"])
def test_the_mutation_counts_above_are_the_measured_ones(exercise):
    doc = " ".join(__doc__.split())
    total = sum(1 for e, _ in ALL if e == exercise)
    same = sum(1 for e, _ in EQUIVALENT if e == exercise)
    assert f"{exercise}: {total} mutants, {total - same} rejected, {same} equivalent survivors" in doc
