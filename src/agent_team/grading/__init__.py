"""Graders: each takes the learner's code and returns a :class:`Report`, never raising."""

from .core import Check, Divergence, Report
from .run_team import check_run_team

__all__ = ["Check", "Divergence", "Report", "check_run_team"]
