"""A made-up class graded end to end (Pyodide under Node.js), then its points, gradebook, feedback and
similarity read back; and the CI workflow template's commands run as the workflow runs them.

The class: correct work, a wrong answer, a cell that hangs, a copy of another learner's cell
(renamed and reformatted), an untouched stub, a corrupt file and the course's appendix. One
grading run (one boot per runner) for all of it. Needs Node.js and Pyodide (`npm ci`): skipped,
saying so, without them.
"""

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import agent_team

from course_notebooks import WRONG_RUN_TEAM, without_exercises
from agent_team.classroom import cli
from agent_team.classroom.exercises import cell_tag
from agent_team.runners import node
from agent_team.runners.node import RunnerError, find_pyodide

ROOT = Path(__file__).resolve().parents[2]
try:
    PYODIDE = find_pyodide()
    MISSING = "" if shutil.which("node") else "Node.js is not installed"
except RunnerError as err:
    PYODIDE, MISSING = None, str(err)
pytestmark = [pytest.mark.skipif(bool(MISSING), reason=f"needs Node.js and Pyodide: {MISSING}"), pytest.mark.slow]

HANGS = "def run_team(task, planner, coder, reviewer, tester, max_rounds):\n    while True:\n        pass\n"
OWN_GATE = '''
def gate(outcomes):
    worst = None
    for o in outcomes:
        if o["status"] != "success" and worst is None:
            worst = o
    if worst is None:
        return {"passed": bool(outcomes), "action": None if outcomes else "user_decision", "step": None}
    return {"passed": False, "action": "retry_step", "step": worst["step"]}
'''
COPIED_GATE = '''
def gate(results):
    # I wrote this myself
    first_bad = None
    for r in results:
        if r['status'] != 'success' and first_bad is None: first_bad = r
    if first_bad is None:
        return {'passed': bool(results), 'action': None if results else 'ask', 'step': None}
    return {'passed': False, 'action': 'again', 'step': first_bad['step']}
'''


def notebook(part, solution=True, replace=None):
    nb = json.loads(next((ROOT / "notebooks" / ("solutions" if solution else "")).glob(f"{part:02d}_*.ipynb"))
                    .read_text(encoding="utf-8"))
    for exercise_id, source in (replace or {}).items():
        cell = next(c for c in nb["cells"] if cell_tag(exercise_id) in c["metadata"].get("tags", []))
        cell["source"] = source
    return nb


def put(folder, name, nb):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(nb if isinstance(nb, str) else json.dumps(nb), encoding="utf-8")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("class")
    out = tmp_path_factory.mktemp("out")
    put(root, "ada/03_supervisor.ipynb", notebook(3))
    put(root, "ada/05_real_team.ipynb", notebook(5))
    put(root, "ben/03_supervisor.ipynb", notebook(3, replace={"3.1": WRONG_RUN_TEAM}))
    put(root, "ben/05_real_team.ipynb", notebook(5, solution=False))
    put(root, "cy/03_supervisor.ipynb", notebook(3, replace={"3.1": HANGS}))
    put(root, "cy/05_real_team.ipynb", notebook(5, replace={"5.1": COPIED_GATE}))
    put(root, "dee/03_supervisor.ipynb", notebook(3))
    put(root, "dee/05_real_team.ipynb", notebook(5, replace={"5.1": OWN_GATE}))
    put(root, "eve/03_supervisor.ipynb", json.dumps(notebook(3))[:5000])       # cut short
    appendix = without_exercises()
    put(root, f"eve/{appendix[0].name}", json.loads(appendix[0].read_text()))
    mp = pytest.MonkeyPatch()
    mp.setattr(node, "network_off", lambda: [])
    try:
        code = cli.main([str(root), "--workers", "2", "--timeout", "20", "--json", str(out / "grades.json"),
                         "--csv", str(out / "grades.csv"), "--feedback", str(out / "feedback"),
                         "--similarity", str(out / "similar.json"), "--course-notebooks", str(ROOT / "notebooks")])
    finally:
        mp.undo()
    data = json.loads((out / "grades.json").read_text())
    rows = {(r["learner"], r["exercise"]): r for r in data["results"]}
    return {"code": code, "out": out, "data": data, "rows": rows}


def test_points_are_full_partial_or_none_as_the_checks_say(graded):
    rows, learners = graded["rows"], graded["data"]["learners"]
    assert graded["code"] == 1
    assert learners["ada"] == {"score": 20, "possible": 20}
    wrong = rows[("ben", "3.1")]
    share = sum(c["passed"] is True for c in wrong["checks"]) / len(wrong["checks"])
    assert wrong["status"] == "not yet" and 0 < share < 1
    assert wrong["score"] == round(10 * share, 2)
    assert (rows[("ben", "5.1")]["status"], rows[("ben", "5.1")]["score"]) == ("not implemented", 0)
    assert rows[("cy", "3.1")]["status"] == "not yet" and rows[("cy", "3.1")]["score"] < 10   # the hang is capped
    eve = sorted((r["status"], Path(r["notebook"]).name) for r in graded["data"]["results"] if r["learner"] == "eve")
    assert eve == [("no exercises", without_exercises()[0].name), ("unreadable", "03_supervisor.ipynb")]
    assert learners["eve"] == {"score": 0, "possible": 20}


def test_the_csv_has_one_row_per_learner_matching_the_points(graded):
    table = list(csv.DictReader((graded["out"] / "grades.csv").open(encoding="utf-8", newline="")))
    assert table[0]["Student"] == "Points Possible" and table[0]["Total points"] == "20"
    by = {r["Student"]: r for r in table[1:]}
    assert sorted(by) == ["ada", "ben", "cy", "dee", "eve"]
    for who, row in by.items():
        assert float(row["Total points"]) == graded["data"]["learners"][who]["score"]
        assert float(row["Exercise 3.1: run_team"]) == graded["rows"].get((who, "3.1"), {"score": 0})["score"]


def test_each_learner_gets_feedback_with_every_check(graded):
    folder = graded["out"] / "feedback"
    assert sorted(p.name for p in folder.iterdir()) == ["ada.md", "ben.md", "cy.md", "dee.md", "eve.md"]
    ben = (folder / "ben.md").read_text()
    for c in graded["rows"][("ben", "3.1")]["checks"]:
        assert f"`{c['name']}`" in ben
    assert "not implemented" in ben
    assert "broken JSON" in (folder / "eve.md").read_text()


def test_the_copy_is_paired_and_the_known_sources_are_named(graded):
    findings = json.loads((graded["out"] / "similar.json").read_text())["findings"]
    said = {(f["exercise"], f["kind"], f["first"]["learner"], f["second"]["learner"]) for f in findings}
    assert ("5.1", "pair", "cy", "dee") in said
    assert {("3.1", "worked solution", who, "(the course's worked solution)") for who in ("ada", "dee")} <= said
    assert ("5.1", "not attempted", "ben", "(the course's stub)") in said
    assert not [f for f in findings if f["kind"] == "pair" and f["exercise"] == "3.1"]   # ada, dee: the solution


def workflow():
    return yaml.safe_load((ROOT / "ci/agent-team-grade.yml").read_text(encoding="utf-8"))


def step(name):
    return next(s for s in workflow()["jobs"]["grade"]["steps"] if s.get("name") == name)["run"]


def test_the_workflow_installs_the_grader_and_grades_the_learners_repository(tmp_path):
    # The install step, with pip and npm replaced by stand-ins that write down what they were asked.
    shims, temp = tmp_path / "shims", tmp_path / "runner-temp"
    shims.mkdir()
    for tool in ("python", "npm"):
        (shims / tool).write_text(f'#!/bin/sh\necho "$@" >> "{tmp_path}/{tool}.args"\n')
        (shims / tool).chmod(0o755)
    env = {"PATH": f"{shims}:/usr/bin:/bin", "COURSE": "someone/the-course@v2", "RUNNER_TEMP": str(temp)}
    subprocess.run(["bash", "-e", "-c", step("Install the grader and Pyodide")], env=env, check=True, timeout=60)
    assert (tmp_path / "python.args").read_text().split("\n")[0] == \
        "-m pip install --quiet agent_team @ git+https://github.com/someone/the-course@v2"
    version = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    assert f"--prefix {temp}/grader pyodide@{version}" in (tmp_path / "npm.args").read_text()
    (temp / "grader/node_modules").mkdir(parents=True)
    (temp / "grader/node_modules/pyodide").symlink_to(PYODIDE)      # what npm install puts there

    # The grade step, run by bash in a learner's checkout as GitHub Actions runs it (the agent_team under test).
    repo = tmp_path / "learner-repo"
    put(repo, "notebooks/05_real_team.ipynb", notebook(5))
    command = step("Grade").replace("${{ github.repository }}", "someone/learner-repo")
    env = {"PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}", "RUNNER_TEMP": str(temp),
           "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"), "PYTHONPATH": str(Path(agent_team.__file__).parents[1]),
           "HOME": str(tmp_path)}
    done = subprocess.run(["bash", "-e", "-c", command], cwd=repo, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "| someone/learner-repo | pass 10/10 | 10/10 |" in (tmp_path / "summary.md").read_text()
    assert json.loads((repo / "grades.json").read_text())["learners"] == {"someone/learner-repo":
                                                                          {"score": 10, "possible": 10}}
    assert (repo / "grades.xml").is_file() and (repo / "feedback/someone_learner-repo.md").is_file()
    assert "someone/learner-repo,,,someone/learner-repo,,10,10" in (repo / "grades.csv").read_text()
    for line in (ROOT / "ci/agent-team-grade.yml").read_text().splitlines():   # the header's command parses
        if line.startswith("#   agent-team-grade "):
            args = cli.parse(line[len("#   agent-team-grade "):].replace('"$TMPDIR', '/tmp').replace('"', "").split())
            assert args.csv == "grades.csv" and args.feedback == "feedback"
