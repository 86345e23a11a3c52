"""The home page reads the learner's progress (website/extension/src/page/record.ts) as
agent_team.progress reads it, from the contents model JupyterLite stores in whichever format
(JSON, text, base64), in Node.js. The browser test (tests/browser/test_home.py) reads a real one."""

import base64
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from agent_team import progress

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
    "predictions": {"part 1: patch shapes": {"predicted": "a / b", "actual": "a / b"}, "bad": 3},
}


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
                "predictions": {k: {"predicted": v["predicted"], "actual": v["actual"]}
                                for k, v in progress.predictions(file).items()}}
    assert expected["exercises"] and expected["hints"] == {"1.1": 2}
    assert node({"models": models, "roots": []})["tables"] == [expected] * len(models)


def test_no_file_or_a_broken_one_is_no_progress():
    empty = {"exercises": {}, "hints": {}, "predictions": {}}
    models = [None, {"format": "text", "content": "{not json"}, {"format": "base64", "content": "!!"},
              {"format": "json", "content": [1, 2]}]
    assert node({"models": models, "roots": []})["tables"] == [empty] * len(models)


def test_the_database_is_jupyterlites_for_the_sites_path():
    # JupyterLite's default drive: `JupyterLite Storage - ${baseUrl}` (@jupyterlite/services-extension)
    got = node({"models": [], "roots": ["http://127.0.0.1:8000/", "https://e.org/course/"]})["databases"]
    assert got == ["JupyterLite Storage - /", "JupyterLite Storage - /course/"]
