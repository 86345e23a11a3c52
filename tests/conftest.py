"""Shared by every test: a test run leaves no course progress file where a learner's would be.

Grading records nothing (a report counts toward progress when a notebook shows it), so tests need
no switch for it. A test that records progress names its own file (``file=`` or
``AGENT_TEAM_PROGRESS=<path>``); one that executes whole notebooks turns recording off for their
kernel, as the notebook builds do. Each test module is checked for that here.

Also the ``short_caps`` fixture, for tests of what a runaway learner function costs.
"""

from pathlib import Path
from types import SimpleNamespace

import pytest

from agent_team import progress

# The working directory of the run, and the notebooks' folder (where an executed notebook's kernel works).
PLACES = [Path.cwd(), Path(__file__).resolve().parents[1] / "notebooks"]


@pytest.fixture(scope="module", autouse=True)
def no_progress_file_is_left_behind(request):
    before = [place for place in PLACES if (place / progress.FILENAME).exists()]
    yield
    left = [place / progress.FILENAME for place in PLACES
            if place not in before and (place / progress.FILENAME).exists()]
    for file in left:
        file.unlink()
    assert not left, (f"{request.module.__name__} wrote course progress into {', '.join(map(str, left))}: give "
                      "its test a file of its own (file=..., or AGENT_TEAM_PROGRESS set to a path)")


@pytest.fixture
def short_caps(monkeypatch):
    """The graders' time caps cut to tenths of a second (they are read at call time).

    A test of a hang then waits a fraction of a second instead of a learner's 2 s. That the short
    cap was the one applied is read in the report, which names it ("within 0.2 s"); the test's own
    clock only guards a hang, generously, so a slow or busy machine does not fail it.
    """
    from agent_team.grading import core, ex_fault_eval

    caps = SimpleNamespace(call=0.2, total=0.5, eval_turn=0.1, eval_total=0.4,
                           REAL=min(core.CALL_SECONDS, core.TOTAL_SECONDS, ex_fault_eval.MAX_SECONDS))
    monkeypatch.setattr(core, "CALL_SECONDS", caps.call)
    monkeypatch.setattr(core, "TOTAL_SECONDS", caps.total)
    monkeypatch.setattr(ex_fault_eval, "MAX_SECONDS", caps.eval_turn)
    monkeypatch.setattr(ex_fault_eval, "TOTAL_SECONDS", caps.eval_total)
    return caps
