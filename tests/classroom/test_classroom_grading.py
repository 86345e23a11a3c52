"""agent-team-grade end to end: the course's graders run on a class's notebooks in Pyodide under Node.js.

One grading run (one Pyodide boot) grades a whole made-up class: the solution
notebooks, the learner notebooks as shipped, wrong solutions, code that hangs,
floods or eats memory, and hostile code that tries to write host files, read
the host's environment, open sockets, or rewrite the graders. Needs Node.js and
node_modules/pyodide (`npm ci`); skipped, saying so, without them.
"""

import json
import os
import shutil
import socket
import threading
from pathlib import Path

import pytest

from course_notebooks import WRONG_RUN_TEAM

from agent_team.classroom import cli
from agent_team.classroom.cli import grade, main
from agent_team.classroom.exercises import EXERCISES, cell_tag
from agent_team.runners import node
from agent_team.runners.node import Limits, RunnerError, find_pyodide

ROOT = Path(__file__).resolve().parents[2]
SECRET = "s3cr3t-host-value-7f1d"

try:
    find_pyodide()
    MISSING = "" if shutil.which("node") else "Node.js is not installed"
except RunnerError as err:
    MISSING = str(err)
pytestmark = [pytest.mark.skipif(bool(MISSING), reason=f"needs Node.js and Pyodide: {MISSING}"),
              pytest.mark.slow]  # boots Pyodide under Node.js


def notebook(part, solution, replace=None):
    folder = ROOT / "notebooks" / ("solutions" if solution else "")
    nb = json.loads(next(folder.glob(f"{part:02d}_*.ipynb")).read_text(encoding="utf-8"))
    if replace:
        exercise_id, source = replace
        cell = next(c for c in nb["cells"] if c["cell_type"] == "code" and _is(c, exercise_id))
        cell["source"] = source
    return nb


def _is(cell, exercise_id):
    tags = cell.get("metadata", {}).get("tags", [])
    name = next(e.defines for e in EXERCISES if e.id == exercise_id)
    return cell_tag(exercise_id) in tags or ("exercise" in tags and name in "".join(cell["source"]))


HOSTILE_WRITE = '''
import os
tried = []
for name, attempt in [
    ("open", lambda: open(HOST_FILE, "w").write("owned")),
    ("mount", lambda: (__import__("pyodide_js").mountNodeFS("/host", HOST_DIR),
                       open("/host/owned.txt", "w").write("owned"))),
    ("system", lambda: os.system("touch " + HOST_FILE)),
    ("require", lambda: __import__("js").require("child_process").execSync("touch " + HOST_FILE)),
    ("eval", lambda: __import__("js").eval("1")),
]:
    try:
        attempt()
        tried.append(name + ":done")
    except BaseException as err:
        tried.append(name + ":refused")

def run_team(*args):
    raise ValueError(" ".join(tried))
'''

HOSTILE_ENV = '''
import os
seen = [SECRET in repr(dict(os.environ))]
for path in ("process.env", "globalThis.process.env", "require"):
    try:
        obj = __import__("js")
        for part in path.split("."):
            obj = getattr(obj, part)
        seen.append(SECRET in str(obj) or (path == "require" and obj is not None))
    except BaseException:
        seen.append(False)
try:
    seen.append(SECRET in open("/proc/self/environ").read())
except BaseException:
    seen.append(False)

def run_team(*args):
    raise ValueError("leaked" if any(seen) else "nothing leaked")
'''

HOSTILE_NET = '''
import socket
tried = []
for name, attempt in [
    ("socket", lambda: socket.create_connection(("127.0.0.1", PORT), timeout=2).sendall(b"hello")),
    ("fetch", lambda: __import__("js").fetch(f"http://127.0.0.1:{PORT}/")),
    ("urllib", lambda: __import__("urllib.request").request.urlopen(f"http://127.0.0.1:{PORT}/", timeout=2)),
]:
    try:
        attempt()
        tried.append(name + ":done")
    except BaseException:
        tried.append(name + ":refused")

def run_team(*args):
    raise ValueError(" ".join(tried))
'''

TAMPER = '''
import agent_team.grading.core as core
core.Report.passed = property(lambda self: True)

def run_team(*args):
    return None, []
'''

PLANT = """
import glob, os
for folder in glob.glob("/lib/engine-*"):
    for root, _, names in os.walk(folder):
        for name in names:
            if name.endswith(".py"):
                with open(os.path.join(root, name), "a") as fh:
                    fh.write("\\nraise SystemExit('planted by a learner')\\n")
for folder in ("/home/pyodide", "/lib/python3.14/site-packages", os.getcwd()):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "dataclasses.py"), "w") as fh:
        fh.write("raise SystemExit('planted by a learner')")

def run_team(*args):
    return None, []
"""

HANG_TOP = "while True:\n    pass\n"
HANG_STUBBORN = ("while True:\n    try:\n        while True:\n            pass\n"
                 "    except BaseException:\n        pass\n")
FLOOD = "while True:\n    print('x' * 10000)\n"
MEMORY = "hoard = []\nwhile True:\n    hoard.append(b'x' * 2**24)\n"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    # Without the optional network namespace: what is tested is the isolation every system gets.
    mp = pytest.MonkeyPatch()
    mp.setattr(node, "network_off", lambda: [])
    results = {}  # (exercise, cell) -> what the runner said: the command-line test reuses it

    def run_and_keep(specs, *args, **kwargs):
        said = node.run_jobs(specs, *args, **kwargs)
        results.update({(s["exercise"], s["source"]): r for s, r in zip(specs, said)})
        return said
    mp.setattr(cli, "run_jobs", run_and_keep)
    root = tmp_path_factory.mktemp("class")
    host_dir = tmp_path_factory.mktemp("host")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    knocks = []
    stop = threading.Event()

    def watch():
        while not stop.is_set():
            try:
                knocks.append(listener.accept())
            except OSError:
                pass
    threading.Thread(target=watch, daemon=True).start()

    def put(learner, part, solution=True, replace=None, extra_cell=None):
        path = root / learner / f"{part:02d}_part.ipynb"
        path.parent.mkdir(parents=True, exist_ok=True)
        nb = notebook(part, solution, replace)
        if extra_cell:  # a learner's own cell, before everything else
            nb["cells"].insert(0, {"cell_type": "code", "metadata": {}, "source": extra_cell, "outputs": []})
        path.write_text(json.dumps(nb), encoding="utf-8")

    for part in sorted({e.part for e in EXERCISES}):
        put("solutions", part)
        put("stubs", part, solution=False)
    put("wrong", 3, replace=("3.1", WRONG_RUN_TEAM))
    put("wrong", 5, replace=("5.1", "def gate(outcomes):\n    return {'passed': True, 'action': None, 'step': None}\n"))
    put("helper", 3, replace=("3.1", "def run_team(*args):\n    return my_helper(*args)\n"),
        extra_cell="def my_helper(*args):\n    return None, []\n")
    host_file = host_dir / "owned.txt"
    consts = f"HOST_FILE = {str(host_file)!r}\nHOST_DIR = {str(host_dir)!r}\nSECRET = {SECRET!r}\nPORT = {port}\n"
    for name, source in [("hostile-write", HOSTILE_WRITE), ("hostile-env", HOSTILE_ENV),
                         ("hostile-net", HOSTILE_NET), ("hostile-tamper", TAMPER), ("hostile-plant", PLANT),
                         # the runner replaces its interpreter after these: last, so it does not boot again
                         ("zz1-flood", FLOOD), ("zz2-hang", HANG_TOP), ("zz3-memory", MEMORY),
                         ("zz4-stubborn-hang", HANG_STUBBORN)]:
        put(name, 3, replace=("3.1", consts + source))
    os.environ["AGENT_TEAM_TEST_SECRET"] = SECRET
    try:
        rows = grade([root], Limits(seconds=10, memory_mb=400, output_chars=100_000), workers=1)
    finally:
        del os.environ["AGENT_TEAM_TEST_SECRET"]
        stop.set()
        mp.undo()
    listener.close()
    return {"rows": {(r.learner, r.exercise): r for r in rows}, "host_file": host_file, "host_dir": host_dir,
            "knocks": knocks, "results": results}


def detail(row):
    return " ".join(c["detail"] for c in row.checks if c["passed"] is False)


def test_the_solution_notebooks_pass_every_exercise(graded):
    for e in EXERCISES:
        row = graded["rows"][("solutions", e.id)]
        assert row.status == "passed", (e.id, row)


def test_the_learner_notebooks_are_not_implemented(graded):
    for e in EXERCISES:
        assert graded["rows"][("stubs", e.id)].status == "not implemented", e.id


def test_wrong_solutions_fail_with_their_first_failing_check(graded):
    run_team = graded["rows"][("wrong", "3.1")]
    assert run_team.status == "not yet" and run_team.first_failure.startswith("feedback: ")
    assert graded["rows"][("wrong", "5.1")].status == "not yet"


def test_no_other_learner_cell_runs_and_the_report_says_so(graded):
    row = graded["rows"][("helper", "3.1")]
    assert row.status == "not yet" and "NameError" in row.first_failure
    assert "Only the exercise cell" in row.note


def test_hostile_code_cannot_touch_the_host(graded):
    row = graded["rows"][("hostile-write", "3.1")]
    assert row.status == "not yet"
    assert "open:refused mount:refused system:refused require:refused eval:refused" in detail(row)
    assert list(graded["host_dir"].iterdir()) == []


def test_hostile_code_sees_nothing_of_the_hosts_environment(graded):
    row = graded["rows"][("hostile-env", "3.1")]
    assert row.status == "not yet" and "nothing leaked" in detail(row)


def test_hostile_code_reaches_no_network(graded):
    row = graded["rows"][("hostile-net", "3.1")]
    assert "socket:refused fetch:refused urllib:refused" in detail(row)
    assert graded["knocks"] == []


def test_code_that_rewrites_the_graders_is_caught_and_the_next_learner_is_unharmed(graded):
    row = graded["rows"][("hostile-tamper", "3.1")]
    assert row.status == "error" and "changed the course's own code" in row.message
    assert "Report.passed" in row.message
    # graded after the tampering, in the same interpreter: fresh state, so still a fail
    assert graded["rows"][("wrong", "3.1")].status == "not yet"


def test_files_a_learner_plants_in_the_interpreter_reach_no_later_learner(graded):
    assert graded["rows"][("hostile-plant", "3.1")].status == "not yet"
    # graded after the planting ("hostile-" sorts first): the solutions still pass, the wrong one fails
    assert graded["rows"][("solutions", "3.1")].status == "passed"
    assert graded["rows"][("wrong", "3.1")].status == "not yet"


def test_hangs_floods_and_memory_hogs_cost_one_exercise_each(graded):
    rows = graded["rows"]
    assert rows[("zz1-flood", "3.1")].status == "too much output"
    assert rows[("zz2-hang", "3.1")].status == "timed out"
    assert rows[("zz3-memory", "3.1")].status in ("out of memory", "error")
    assert rows[("zz4-stubborn-hang", "3.1")].status == "timed out"
    assert "never ends" in rows[("zz4-stubborn-hang", "3.1")].detail()


def test_the_command_line_writes_json_junit_markdown_and_the_exit_code(graded, tmp_path, capsys, monkeypatch):
    # The same cell the class run graded (solutions, 5.1): its result is reused, not a second Pyodide boot.
    monkeypatch.setattr(cli, "run_jobs", lambda specs, *a, **k: [graded["results"][(s["exercise"], s["source"])]
                                                                  for s in specs])
    folder = tmp_path / "ann"
    folder.mkdir()
    (folder / "05_real_team.ipynb").write_text(json.dumps(notebook(5, True)), encoding="utf-8")
    (folder / "broken.ipynb").write_text("{", encoding="utf-8")
    code = main([str(folder), "--json", str(tmp_path / "r.json"), "--junit", str(tmp_path / "r.xml"),
                 "--markdown", str(tmp_path / "summary.md")])
    out = capsys.readouterr().out
    assert code == 1                                 # 5.1 passed, but a file could not be read
    assert out.splitlines()[2].split() == ["ann", "pass", "10/10", "10/10"]
    assert "broken JSON" in out
    results = json.loads((tmp_path / "r.json").read_text())["results"]
    assert [(r["exercise"], r["status"]) for r in results] == [("", "unreadable"), ("5.1", "passed")]
    assert 'errors="1"' in (tmp_path / "r.xml").read_text()
    assert "| ann | pass 10/10 | 10/10 |" in (tmp_path / "summary.md").read_text()
    assert main([str(tmp_path / "nothing-here")]) == 2

