"""Graders: each takes the learner's code and returns a :class:`Report`, never raising or hanging.

:func:`try_it` calls a learner's function from a course cell under the same limits.
"""

from .core import Check, Divergence, Report, try_it
from .ex_fault_eval import grade_fault_eval
from .ex_gated_run import grade_run_outcomes
from .ex_hardening import grade_hardening
from .ex_nits import grade_nits_reviewer
from .ex_own_fault import grade_my_fault
from .ex_run_tests import grade_run_tests
from .gate import grade_gate
from .run_team import grade_run_team

__all__ = ["Check", "Divergence", "Report", "grade_fault_eval", "grade_gate", "grade_hardening",
           "grade_my_fault", "grade_nits_reviewer", "grade_run_outcomes", "grade_run_team", "grade_run_tests",
           "try_it"]


class RenamedGrader(ImportError):
    """A grader asked for by the name it had before graders were called ``grade_*``."""


def __getattr__(name):
    # A notebook saved before the rename still says ``check_run_tests``: tell its learner the new
    # name instead of a bare "cannot import". No alias: the class grader looks graders up by
    # course.py's names, and a second name for each grader is the collision this rename mends.
    if name.startswith("check_") and f"grade_{name[len('check_'):]}" in __all__:
        new = f"grade_{name[len('check_'):]}"
        raise RenamedGrader(f"{name} is now called {new}: in the grader cell, write "
                            f"`from agent_team.grading import {new}` and `report = {new}(...)`")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
