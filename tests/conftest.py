"""Shared by every test: a test run records no course progress (tests that need it name a file),
and the ``short_caps`` fixture for tests of what a runaway learner function costs."""

import os
from types import SimpleNamespace

import pytest

os.environ["AGENT_TEAM_PROGRESS"] = "off"


@pytest.fixture
def short_caps(monkeypatch):
    """The graders' time caps cut to tenths of a second (they are read at call time).

    A test of a hang then waits a fraction of a second instead of a learner's 2 s. Such a test
    keeps a bound below the real caps (``REAL``), so it still fails if a cap were not applied.
    """
    from agent_team.grading import core, ex_fault_eval

    caps = SimpleNamespace(call=0.2, total=0.5, eval_turn=0.1, eval_total=0.4,
                           REAL=min(core.CALL_SECONDS, core.TOTAL_SECONDS, ex_fault_eval.MAX_SECONDS))
    monkeypatch.setattr(core, "CALL_SECONDS", caps.call)
    monkeypatch.setattr(core, "TOTAL_SECONDS", caps.total)
    monkeypatch.setattr(ex_fault_eval, "MAX_SECONDS", caps.eval_turn)
    monkeypatch.setattr(ex_fault_eval, "TOTAL_SECONDS", caps.eval_total)
    return caps
