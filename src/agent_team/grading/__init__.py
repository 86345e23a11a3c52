"""Graders: each takes the learner's code and returns a :class:`Report`, never raising or hanging.

:func:`try_it` calls a learner's function from a course cell under the same limits.

The graders exported here are the ones the course's table names (``course.EXERCISES``, the
``grader`` of each row), each found in the module of this package that defines it: a new
exercise's grader module needs no line here (CONTRIBUTING.md, "Add an exercise").
"""

import importlib
import pkgutil

from .. import course
from .core import Check, Divergence, Report, try_it


def _graders():
    """``{name: function}`` for every grader of ``course.EXERCISES``, from the modules of this package."""
    found = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for row in course.EXERCISES:
            fn = getattr(module, row.grader, None)
            if callable(fn) and getattr(fn, "__module__", None) == module.__name__:
                found[row.grader] = fn
    for row in course.EXERCISES:
        if row.grader not in found:
            raise ImportError(f"course.EXERCISES names {row.grader} as the grader of exercise {row.id}, "
                              "but no module of agent_team.grading defines it: write it in its own "
                              "module there (CONTRIBUTING.md, 'Add an exercise').")
    return found


globals().update(_graders())
__all__ = ["Check", "Divergence", "Report", "try_it", *sorted(row.grader for row in course.EXERCISES)]


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
