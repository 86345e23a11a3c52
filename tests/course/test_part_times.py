"""The time each part states is the time it measures (tools/part_times.py: prose, code and outputs to
read, running, answering, the exercises, calibrated on the learner walks of waves 3 and 4)."""

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "notebooks" / "source"
spec = importlib.util.spec_from_file_location("part_times", ROOT / "tools" / "part_times.py")
times = importlib.util.module_from_spec(spec)
spec.loader.exec_module(times)
ROWS = times.table()
pytestmark = pytest.mark.skipif(not ROWS, reason="the worked-solution notebooks are not here")


def test_every_part_is_measured_and_states_its_time():
    assert [name[:2] for name, *_ in ROWS] == [f"{n:02d}" for n in range(1, len(ROWS) + 1)] and len(ROWS) >= 7
    for name, made, _, said in ROWS:
        assert made["prose"] > 500 and made["cells"] > 0, name  # a real notebook, read
        assert said is not None, f"{name} states no time: write 'About {{{{minutes}}}} minutes' in its opening cell"


@pytest.mark.parametrize("row", ROWS, ids=[row[0] for row in ROWS])
def test_the_stated_time_is_the_measured_one(row):
    name, made, cost, said = row
    where = ", ".join(f"{k} {v:.0f}" for k, v in cost.items() if k != "total")
    source = SOURCES / f"{name}.py"
    if source.exists() and times.MINUTES in source.read_text(encoding="utf-8"):
        # Written by the build: the committed notebooks must be the build's (`make notebooks`).
        assert said == times.rounded(cost["total"]), f"{name} says {said} minutes and measures {cost['total']:.0f} " \
            f"({where}): rebuild it (make notebooks PARTS=\"{name[:2]}\")"
    else:  # a number typed in the source: within 5 minutes or a tenth of the measurement
        assert abs(said - cost["total"]) <= max(5, cost["total"] / 10), (
            f"{name} says about {said} minutes; it measures {cost['total']:.0f} ({where}): write "
            f"'About {{{{minutes}}}} minutes' in its source and rebuild it")


def test_a_longer_part_measures_longer():
    name, made, cost, _ = ROWS[0]
    longer = {**made, "prose": made["prose"] + 2 * times.WORDS_PER_MINUTE, "exercises": made["exercises"] + ["9.9"]}
    assert times.minutes(longer)["total"] == pytest.approx(cost["total"] + 2 + times.NEW_EXERCISE_MINUTES)


def test_the_measurement_reads_the_worked_solutions_as_the_build_does():
    """tools/notebooks.py fills {{minutes}} with `measured` of the executed worked solutions."""
    path = sorted((ROOT / "notebooks" / "solutions").glob("01_*.ipynb"))[0]
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert times.measured(nb) == times.rounded(times.minutes(times.parts(nb))["total"]) == ROWS[0][3]
