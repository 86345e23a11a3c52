"""The exercises a class is graded on: agent_team.course's rows, and what grading a cell needs besides.

The course's table (id, part, grader, defines) is the one list of exercises; here is only
what grading a class adds: the course's own setup code of each part. A row's ``defines`` is
what the exercise cell defines and the grader is given (in an older notebook without the
cell tags, the cell that defines it is graded). ``SETUP[part]`` is the course's own code an
exercise cell may rely on (the imports and constants the notebook defines before it). The
grader runs that, then the learner's exercise cell, and nothing else from the notebook: a
learner's other cells never run when a class is graded.

A class hands in notebooks saved before a rename, so a name of the course's setup that was
renamed keeps its old name there too (RENAMED): the exercise cell is the learner's own code and
must grade the same. Grader cells are not run, so graders need no old names.
"""

from .. import course

__all__ = ["EXERCISES", "RENAMED", "SETUP", "for_part", "cell_tag"]


# old name -> new name, for names the setup code below defines
RENAMED = {"check_source": "source_problems"}

_PART1 = ("import json\n"
          "from agent_team.oracle import CASES, source_problems\n"
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
          "from agent_team.realteam.gate import PRECEDENCE\n")
_PART6 = ("import json\n"
          "from agent_team.faults import FAULTS, run_fault\n"
          "from agent_team.limits import call_limited\n"
          "from agent_team.policies import FULL_SOURCE, fake_reviewer\n"
          "from agent_team.repo import PLAN_PATH, SRC_PATH\n"
          "from agent_team.supervisor import supervise\n"
          "from agent_team.trace import oracle_reports, turns\n")
_PART7 = ("from agent_team.grading.ex_retry_turns import LABEL, RECORDINGS\n"
          "from agent_team.realteam.retry import STOP_REASONS\n")

# part -> the course's setup code its exercise cells may use; a test checks each part has one
SETUP = {part: code + "".join(f"{old} = {new}\n" for old, new in RENAMED.items() if f" {new}" in code)
         for part, code in {1: _PART1, 2: _PART2, 3: _PART3, 4: _PART4, 5: _PART5, 6: _PART6, 7: _PART7}.items()}

# The course's rows a class is graded on (every exercise: a test checks each part has its SETUP):
# each has id, part, grader and ``defines``, what its cell defines; its setup code is SETUP[row.part].
EXERCISES = course.EXERCISES

def cell_tag(exercise_id):
    """The cell tag that marks an exercise's cell in the notebooks: ``exercise-3.1``."""
    return f"exercise-{exercise_id}"


def for_part(part):
    return [e for e in EXERCISES if e.part == part]
