"""The exercises a class is graded on, as data: where each lives and what grading it needs.

``setup`` is the course's own code an exercise cell may rely on (the imports and
constants the notebook defines before it). The grader runs that, then the
learner's exercise cell, and nothing else from the notebook: a learner's other
cells never run when a class is graded.
"""

from dataclasses import dataclass

__all__ = ["Exercise", "EXERCISES", "by_id", "for_part", "tag"]


@dataclass(frozen=True)
class Exercise:
    id: str          # "3.1"
    part: int        # the notebook it is in: notebooks/NN_*.ipynb
    name: str        # what the exercise cell defines, and the grader is given
    grader: str      # a function of agent_team.grading
    setup: str = ""  # the course's code the cell may use (see the module docstring)


_PART1 = ("import json\n"
          "from agent_team.oracle import CASES, check_source\n"
          "from agent_team.repo import (ALLOWLIST, GOAL, PLAN_PATH, REVIEW_PATH, SRC_PATH, TESTS_PATH,\n"
          "                             apply_turn, initial_repo)\n")
_PART2 = ("import inspect\nimport json\n"
          "from agent_team.oracle import run_tests\n"
          "from agent_team.policies import (check_output, fake_coder, fake_planner, fake_reviewer, output,\n"
          "                                 read_verdict, BadOutput, review_patch)\n"
          "from agent_team.repo import GOAL, PLAN_PATH, REVIEW_PATH, SRC_PATH, apply_turn, initial_repo\n"
          "from agent_team.views import VIEW_FIELDS, make_view\n"
          "NITS_LIMIT = 3\n")
_PART3 = ("from agent_team.repo import GOAL, initial_repo\n"
          "from agent_team.protocol import SEED_EXAMPLE\n")
_PART4 = ("from agent_team.faults import FAULTS, greedy_planner\n"
          "from agent_team.oracle import run_tests\n"
          "from agent_team.policies import output\n"
          "from agent_team.repo import PLAN_PATH, SRC_PATH, STUB_SOURCE, TEST_SPEC, TESTS_PATH, initial_repo\n"
          "from agent_team.supervisor import supervise\n")
_PART5 = ("import json\n"
          "from agent_team.gate import PRECEDENCE\n")

EXERCISES = (
    Exercise("1.1", 1, "run_tests", "check_run_tests", _PART1),
    Exercise("2.1", 2, "nits_reviewer", "check_nits_reviewer", _PART2),
    Exercise("3.1", 3, "run_team", "check_run_team", _PART3),
    Exercise("4.1", 4, "EVAL", "check_fault_eval", _PART4),
    Exercise("4.2", 4, "no_exec", "check_hardening", _PART4),
    Exercise("5.1", 5, "gate", "check_gate", _PART5),
)


def tag(exercise_id):
    """The cell tag that marks an exercise's cell in the notebooks: ``exercise-3.1``."""
    return f"exercise-{exercise_id}"


def by_id(exercise_id):
    found = next((e for e in EXERCISES if e.id == exercise_id), None)
    if found is None:
        known = ", ".join(e.id for e in EXERCISES)
        raise KeyError(f"no exercise {exercise_id!r} in this course; the exercises are {known}")
    return found


def for_part(part):
    return [e for e in EXERCISES if e.part == part]
