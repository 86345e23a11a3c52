"""Graders: each takes the learner's code and returns a :class:`Report`, never raising or hanging.

:func:`try_it` calls a learner's function from a course cell under the same limits.
"""

from .core import Check, Divergence, Report, try_it
from .ex_fault_eval import check_fault_eval
from .ex_gated_run import check_run_outcomes
from .ex_hardening import check_hardening
from .ex_nits import check_nits_reviewer
from .ex_own_fault import check_my_fault
from .ex_run_tests import check_run_tests
from .gate import check_gate
from .run_team import check_run_team

__all__ = ["Check", "Divergence", "Report", "check_fault_eval", "check_gate", "check_hardening",
           "check_my_fault", "check_nits_reviewer", "check_run_outcomes", "check_run_team", "check_run_tests",
           "try_it"]
