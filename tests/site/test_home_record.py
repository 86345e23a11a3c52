"""The home page reads the learner's progress (website/extension/src/page/record.ts) as
agent_team.progress reads it, from the contents model JupyterLite stores in whichever format
(JSON, text, base64), and counts it per part and picks the part to continue with (tally.ts) as
agent_team.tally does for the progress widget, in Node.js. The browser test
(tests/browser/test_home.py) reads a real one."""

import base64
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import walk_record

from agent_team import course, progress, tally
from website import home

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "site" / "node" / "record.mjs"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (ROOT / "node_modules" / "esbuild").exists(),
    reason="needs Node.js and `npm ci` (make test does both)")

# What a learner's file may hold, well-formed or not: progress.py keeps only the well-formed.
DATA = {
    "version": 1,
    "exercises": {"1.1": {"passed": True, "passed_once": True, "attempts": 2},
                  "2.1": {"passed": False, "passed_once": True, "attempts": 3},
                  "3.1": {"passed": False, "attempts": -1}, "4.1": "broken"},
    "hints": {"1.1": 2, "2.1": 0, "3.1": True, "4.1": "x"},
    "predictions": {"part 1: patch shapes": {"predicted": "a / b", "actual": "a / b"}, "bad": 3,
                    "fault: plan wiped": {"predicted": "a", "actual": "b", "part": 9},
                    "mine": {"predicted": "a", "actual": "a", "part": 2, "right": False}},
    "quizzes": {"1.2": {"answer": "c", "right": True, "tries": 2}, "4.1": {"answer": "a", "right": "yes"},
                "x": {"answer": "b", "right": True, "tries": 0, "part": 3}, "y": [1]},
}
PARTS = [p.number for p in course.PARTS]
# What the page's script is given (website/home.py's settings for it).
HOME = json.loads(re.search(r'id="agent-team-home">(.*?)</script>',
                            home.render(home.course_data(ROOT / "notebooks"))).group(1))


def node(payload):
    run = subprocess.run(["node", str(SCRIPT)], input=json.dumps(payload), capture_output=True,
                         text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_the_home_page_reads_what_the_progress_widget_reads(tmp_path):
    file = tmp_path / progress.FILENAME
    file.write_text(json.dumps(DATA))
    text = json.dumps(DATA)
    models = [{"format": "json", "content": DATA}, {"format": "text", "content": text},
              {"format": "base64", "content": base64.b64encode(text.encode()).decode()},
              {"format": "json", "content": text}]
    expected = {"exercises": progress.load(file), "hints": progress.hints(file),
                "predictions": progress.predictions(file), "quizzes": progress.quizzes(file)}
    assert expected["exercises"] and expected["hints"] == {"1.1": 2} and len(expected["quizzes"]) == 3
    assert node({"models": models, "parts": PARTS})["tables"] == [expected] * len(models)


def test_no_file_or_a_broken_one_is_no_progress():
    empty = {"exercises": {}, "hints": {}, "predictions": {}, "quizzes": {}}
    models = [None, {"format": "text", "content": "{not json"}, {"format": "base64", "content": "!!"},
              {"format": "json", "content": [1, 2]}]
    assert node({"models": models, "parts": PARTS})["tables"] == [empty] * len(models)


def test_the_database_is_jupyterlites_for_the_sites_path():
    # JupyterLite's default drive: `JupyterLite Storage - ${baseUrl}` (@jupyterlite/services-extension)
    got = node({"models": [], "roots": ["http://127.0.0.1:8000/", "https://e.org/course/"]})["databases"]
    assert got == ["JupyterLite Storage - /", "JupyterLite Storage - /course/"]


def widget_view(file):
    """What agent_team.tally makes of a progress file: its rows, the next part, each part's line."""
    rows = [{k: v for k, v in r.items() if k != "title"} for r in tally.by_part(file)]  # the cards have titles
    return {"rows": rows, "next": tally.next_part(rows), "lines": [tally.line(r) for r in rows]}


def test_the_home_page_counts_each_part_and_continues_as_the_progress_widget_does(tmp_path):
    walk = walk_record.write_walk(tmp_path / "walk.json")
    half = tmp_path / "half.json"  # part 3 begun, part 2 skipped
    progress.record("1.1", True, half), progress.record_prediction("part 3: one round", "a", "b", half)
    files = [walk, half, data_file(tmp_path), tmp_path / "none.json"]
    records = [json.loads(f.read_text()) if f.exists() else {} for f in files]
    got = node({"parts": PARTS, "home": HOME, "records": records})["tallies"]
    assert got == [widget_view(f) for f in files]
    walked = got[0]
    assert walked["next"] == walk_record.NEXT
    assert [r["predictions"] for r in walked["rows"][:4]] == [1, 1, 1, walk_record.FAULT_PREDICTIONS]
    assert walked["lines"][3] == (f"2 of 2 passed · 2 graded · 3 hints seen · {walk_record.PART4_PREDICTIONS} · "
                                  "3 quizzes answered")
    assert got[1]["next"] == "part3" and got[3]["next"] == "part1" and got[3]["lines"] == [""] * len(PARTS)


def data_file(tmp_path):
    file = tmp_path / "data.json"
    file.write_text(json.dumps(DATA))
    return file
