"""Graders: each takes the learner's code and returns a :class:`Report`, never raising or hanging.

:func:`try_it` calls a learner's function from a course cell under the same limits.

The graders exported here are the ones the course's table names (``course.EXERCISES``, the
``grader`` of each row), one line each in ``GRADERS``, in course order: a new exercise's grader
adds its line (CONTRIBUTING.md, "Add an exercise"; tests/course/test_course.py holds the two
lists equal). A grader's module is imported when the grader is first asked for, so part 1's
grader cell does not load part 7's model client.
"""

import importlib

from .. import course
from .core import Check, Divergence, Report, try_it

# grader -> the module of this package that defines it
GRADERS = {
    "grade_run_tests": "ex_run_tests",
    "grade_nits_reviewer": "ex_nits",
    "grade_run_team": "run_team",
    "grade_fault_eval": "ex_fault_eval",
    "grade_hardening": "ex_hardening",
    "grade_gate": "gate",
    "grade_my_fault": "ex_own_fault",
    "grade_run_outcomes": "ex_gated_run",
    "grade_retry_or_stop": "ex_retry",
    # a new exercise's grader: one more line here
}

__all__ = ["Check", "Divergence", "Report", "try_it", *(row.grader for row in course.EXERCISES)]


class RenamedGrader(ImportError):
    """A grader asked for by the name it had before graders were called ``grade_*``."""


def __getattr__(name):
    if name in GRADERS:
        grader = getattr(importlib.import_module(f"{__name__}.{GRADERS[name]}"), name)
        globals()[name] = grader  # asked once
        return grader
    # A notebook saved before the rename still says ``check_run_tests``: tell its learner the new
    # name instead of a bare "cannot import". No alias: the class grader looks graders up by
    # course.py's names, and a second name for each grader is the collision this rename mends.
    if name.startswith("check_") and f"grade_{name[len('check_'):]}" in __all__:
        new = f"grade_{name[len('check_'):]}"
        raise RenamedGrader(f"{name} is now called {new}: in the grader cell, write "
                            f"`from agent_team.grading import {new}` and `report = {new}(...)`")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
