"""Shared by every test: a test run leaves no course progress file where a learner's would be.

Grading records nothing (a report counts toward progress when a notebook shows it), so tests need
no switch for it. A test that records progress names its own file (``file=`` or
``AGENT_TEAM_PROGRESS=<path>``); one that executes whole notebooks turns recording off for their
kernel, as the notebook builds do. Each test module is checked for that here.
"""

from pathlib import Path

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
