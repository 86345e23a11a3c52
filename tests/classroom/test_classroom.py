"""Grading a class, the parts that need no Node.js: finding exercise cells, bad input, the results.

(tests/classroom/test_classroom_grading.py runs the graders in Pyodide under Node.js.)
"""

import ast
import importlib.util
import json
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from agent_team.classroom.collect import collect
from agent_team import course
from agent_team.classroom.exercises import EXERCISES, RENAMED, SETUP, cell_tag
from agent_team.classroom.results import Row, all_passed, from_result, markdown, grid_table, to_json, to_junit
from agent_team.widgets.download import DownloadWork, work_zip

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("notebook_tool", ROOT / "tools" / "notebooks.py")
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)


def built(part, solution=False):
    """A notebook of ``part`` exactly as the builder makes it (fresh from its source)."""
    src = next(p for p in tool.sources() if p.name.startswith(f"{part:02d}_"))
    forms = tool.forms(src)
    return next(nb for path, nb in forms.items() if (path.parent == tool.SOLUTIONS) == solution)


def write(folder, name, nb):
    path = Path(folder) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.id)
def test_the_builder_tags_each_exercise_cell_once_in_both_forms(exercise):
    for solution in (False, True):
        nb = built(exercise.part, solution)
        assert nb["metadata"]["agent_team"] == {"part": exercise.part}
        tagged = [c for c in nb["cells"] if cell_tag(exercise.id) in c["metadata"].get("tags", [])]
        assert len(tagged) == 1
        assert f"{exercise.defines}" in tagged[0]["source"]


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.id)
def test_the_setup_is_the_courses_own_code(exercise):
    """Every name the setup binds, the course binds too, before the exercise cell."""
    nb = built(exercise.part, solution=True)
    before = []
    for cell in nb["cells"]:
        if cell_tag(exercise.id) in cell["metadata"].get("tags", []):
            break
        if cell["cell_type"] == "code":
            before.append(cell["source"])
    course = _bound("\n".join(c for c in before if "NBVAL" not in c.splitlines()[0:1]))
    assert _bound(SETUP[exercise.part]) - set(RENAMED) <= course


def _bound(code):
    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def test_jobs_come_from_tagged_cells_only(tmp_path):
    path = write(tmp_path / "alice", "03_supervisor.ipynb", built(3, solution=True))
    jobs, problems = collect([tmp_path])
    assert problems == []
    (job,) = jobs
    assert (job.learner, job.notebook, job.exercise.id, job.note) == ("alice", str(path), "3.1", "")
    assert job.source.startswith("def run_team(") and "SEED_EXAMPLE.run" not in job.source


def test_each_learner_is_the_first_folder_under_the_class_or_a_zip(tmp_path):
    write(tmp_path / "class/gus/notebooks", "01_architecture.ipynb", built(1))
    write(tmp_path / "class/hal", "02_policies.ipynb", built(2))
    with zipfile.ZipFile(tmp_path / "class/ivy.zip", "w") as archive:
        archive.writestr("deep/folder/03_supervisor.ipynb", json.dumps(built(3)))
    jobs, problems = collect([tmp_path / "class"])
    assert problems == []
    assert sorted((j.learner, j.exercise.id) for j in jobs) == [("gus", "1.1"), ("hal", "2.1"), ("ivy", "3.1")]
    (single,) = collect([tmp_path / "class/hal/02_policies.ipynb"])[0]
    assert single.learner == "hal"


def test_an_old_notebook_without_the_new_tags_is_graded_by_definition(tmp_path):
    nb = built(4, solution=True)
    for cell in nb["cells"]:
        cell["metadata"].pop("tags", None)
    del nb["metadata"]["agent_team"]
    write(tmp_path, "04_failure_injection.ipynb", nb)
    jobs, problems = collect([tmp_path], learner="bob")
    assert problems == []
    assert [j.exercise.id for j in jobs] == ["4.1", "4.2"]
    assert all("older version" in j.note and j.learner == "bob" for j in jobs)


def test_a_renamed_or_deleted_exercise_cell_is_named_with_the_reason(tmp_path):
    nb = built(4, solution=True)
    cell = next(c for c in nb["cells"] if cell_tag("4.2") in c["metadata"].get("tags", []))
    cell["metadata"]["tags"] = []
    cell["source"] = cell["source"].replace("def no_exec(", "def no_exec_v2(")
    write(tmp_path, "renamed by the learner.ipynb", nb)
    jobs, problems = collect([tmp_path])
    assert [j.exercise.id for j in jobs] == ["4.1"]
    (problem,) = problems
    assert (problem.exercise, problem.status) == ("4.2", "missing")
    assert "exercise 4.2 not found" in problem.message and "no_exec" in problem.message
    assert "exercise-4.2" in problem.message


def test_corrupt_foreign_and_missing_inputs_each_get_a_message_and_nothing_else_is_lost(tmp_path):
    good = write(tmp_path, "class/carol/01_architecture.ipynb", built(1))
    text = json.dumps(built(2))
    (tmp_path / "class/carol/02_policies.ipynb").write_text(text[: len(text) // 2])
    write(tmp_path, "class/carol/holiday.ipynb", {"cells": [{"cell_type": "code", "source": "print(1)"}],
                                                  "metadata": {}})
    (tmp_path / "class/carol/binary.ipynb").write_bytes(b"\xff\xfe\x00garbage")
    (tmp_path / "class/dave.zip").write_bytes(b"PK not really a zip")
    jobs, problems = collect([tmp_path / "class", tmp_path / "nowhere.ipynb"])
    assert [(j.learner, j.exercise.id, j.notebook) for j in jobs] == [("carol", "1.1", str(good))]
    said = {Path(p.notebook).name: (p.status, p.message) for p in problems}
    assert said["02_policies.ipynb"][0] == "unreadable" and "broken JSON" in said["02_policies.ipynb"][1]
    assert said["binary.ipynb"][0] == "unreadable" and "not text" in said["binary.ipynb"][1]
    assert said["holiday.ipynb"][0] == "skipped" and "not a notebook of this course" in said["holiday.ipynb"][1]
    assert said["dave.zip"][0] == "unreadable" and "zip" in said["dave.zip"][1]
    assert said["nowhere.ipynb"] == ("unreadable", f"{tmp_path / 'nowhere.ipynb'} does not exist")


def test_hand_edited_notebooks_with_odd_values_are_read_or_named_never_raised(tmp_path):
    nb = built(3)
    nb["metadata"] = ["not", "a", "dict"]
    nb["cells"][:0] = [7, {"cell_type": "code", "metadata": [], "source": [1, None]},
                       {"cell_type": "code", "metadata": {"tags": "exercise-3.1"}, "source": {"a": 1}}]
    write(tmp_path, "03_supervisor.ipynb", nb)
    write(tmp_path, "other.ipynb", {"cells": [], "metadata": {"agent_team": {"part": "three"}}})
    jobs, problems = collect([tmp_path], learner="kim")
    assert [(j.exercise.id, j.note) for j in jobs] == [("3.1", "")]
    assert [(p.notebook.endswith("other.ipynb"), p.status) for p in problems] == [(True, "skipped")]


def test_the_download_zip_is_read_as_it_is(tmp_path):
    drive = tmp_path / "drive"
    write(drive, "03_supervisor.ipynb", built(3, solution=True))
    write(drive, "02_policies.ipynb", built(2))
    write(drive, "solutions/03_supervisor.ipynb", built(3, solution=True))
    write(drive, ".ipynb_checkpoints/03_supervisor-checkpoint.ipynb", built(3))
    (drive / "agent_team_progress.json").write_text("{}")
    data, names = work_zip(drive)
    assert names == ["02_policies.ipynb", "03_supervisor.ipynb", "agent_team_progress.json"]
    (tmp_path / "erin.zip").write_bytes(data)
    jobs, problems = collect([tmp_path / "erin.zip"])
    assert problems == []
    assert [(j.learner, j.exercise.id) for j in jobs] == [("erin", "2.1"), ("erin", "3.1")]


def test_an_old_copy_the_site_kept_is_not_graded_beside_the_notebook(tmp_path):
    drive = tmp_path / "drive"
    write(drive, "01_architecture.ipynb", built(1, solution=True))
    copy = built(1)
    copy["metadata"]["agent_team"]["copy_of"] = "01_architecture.ipynb"
    write(drive, "01_architecture (my copy 2026-12-01).ipynb", copy)
    (tmp_path / "erin.zip").write_bytes(work_zip(drive)[0])
    jobs, problems = collect([tmp_path / "erin.zip"])
    assert [(j.notebook.split(":")[-1], j.exercise.id) for j in jobs] == [("01_architecture.ipynb", "1.1")]
    (problem,) = problems
    assert problem.status == "skipped" and "an old copy of 01_architecture.ipynb" in problem.message


def test_download_my_work_offers_the_zip_as_a_link_and_says_when_it_cannot(tmp_path):
    import base64
    import io
    write(tmp_path / "drive", "01_architecture.ipynb", built(1))
    widget = DownloadWork(root=tmp_path / "drive")
    assert "press the button" in widget.html and "agent-team-work" not in widget.html  # nothing built yet
    widget.prepare()
    assert 'download="agent-team-work.zip"' in widget.html and "(1 notebook you changed;" in widget.html
    data = base64.b64decode(widget.html.split("base64,")[1].split('"')[0])
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert archive.namelist() == ["agent-team-work.json", "01_architecture.ipynb"]
    assert json.loads(archive.read("agent-team-work.json")) == {
        "course": "agent-team", "format": 1, "files": ["01_architecture.ipynb"]}
    assert "cannot read the browser's files" in DownloadWork(root=tmp_path / "missing").prepare().text
    (tmp_path / "empty").mkdir()
    assert "Nothing to download yet" in DownloadWork(root=tmp_path / "empty").prepare().text


def test_ipython_magic_lines_do_not_break_the_cell(tmp_path):
    nb = built(5, solution=True)
    cell = next(c for c in nb["cells"] if cell_tag("5.1") in c["metadata"].get("tags", []))
    cell["source"] = "%load_ext autoreload\n" + cell["source"] + "\n    !ls"
    write(tmp_path, "05_real_team.ipynb", nb)
    (job,) = collect([tmp_path])[0]
    compile(job.source, "cell", "exec")
    assert job.source.startswith("pass  # load_ext")


def rows():
    return [
        from_result("alice", "a/03.ipynb", "3.1", {"status": "passed", "checks": [
            {"name": "returns", "requirement": "r", "passed": True, "detail": ""}], "seconds": 1.5}),
        from_result("bob", "b/03.ipynb", "3.1", {"status": "not yet", "checks": [
            {"name": "returns", "requirement": "r", "passed": True, "detail": ""},
            {"name": "feedback", "requirement": "r", "passed": False,
             "detail": "In the seed example: the coder got ''\nmore"}]}),
        from_result("bob", "b/04.ipynb", "4.2", {"status": "timed out", "message": ""}),
        Row("carol", "c/01.ipynb", "1.1", "missing", "exercise 1.1 not found: ..."),
        Row("carol", "c/x.ipynb", "", "skipped", "not a notebook of this course"),
    ]


def test_the_table_is_learner_by_exercise_with_the_first_failing_check():
    text = grid_table(rows())
    lines = text.splitlines()
    assert lines[0].split() == ["learner", "1.1", "3.1", "4.2"]
    assert lines[2].split() == ["alice", "-", "pass", "-"]
    assert lines[3].split() == ["bob", "-", "not", "yet", "feedback", "timed", "out"]
    assert lines[4].split() == ["carol", "missing", "-", "-"]
    assert "bob 3.1 [b/03.ipynb]: feedback: In the seed example: the coder got ''" in text
    assert "a loop that never ends" in text
    assert lines[-1] == "1 of 4 exercises passed; 1 notebook(s) skipped (not from this course)."
    assert "| bob | - | not yet feedback | timed out |" in markdown(rows())


def test_json_and_junit_say_the_same():
    data = json.loads(to_json(rows()))
    assert data["passed"] is False and len(data["results"]) == 5
    assert data["results"][1]["first_failure"].startswith("feedback: In the seed example")
    suites = ET.fromstring(to_junit(rows()))
    bob = suites.find("testsuite[@name='bob']")
    assert (bob.get("tests"), bob.get("failures"), bob.get("errors")) == ("2", "1", "1")
    assert suites.find("testsuite[@name='carol']").get("skipped") == "1"
    assert all_passed(rows()[:1]) and not all_passed(rows()) and not all_passed([])


def test_every_exercise_of_the_course_is_graded_with_the_courses_own_row():
    # (an unknown id's error, which names the exercises there are: course.exercise, tests/course/test_course.py)
    assert set(SETUP) == {p.number for p in course.PARTS if any(e.part == p.number for e in course.EXERCISES)}, \
        "give each part with exercises its setup code in SETUP (classroom/exercises.py)"
    assert EXERCISES == course.EXERCISES


def test_exit_code_zero_only_when_everything_passed(monkeypatch, tmp_path):
    from agent_team.classroom import cli
    from agent_team.classroom.results import Row
    monkeypatch.setattr(cli, "grade_collected", lambda *a, **k: [Row("ann", "x.ipynb", "5.1", "passed")])
    assert cli.main([str(tmp_path)]) == 0
    monkeypatch.setattr(cli, "grade_collected", lambda *a, **k: [Row("ann", "x.ipynb", "5.1", "passed"),
                                                  Row("ann", "y.ipynb", "", "skipped", "not ours")])
    assert cli.main([str(tmp_path)]) == 0
    monkeypatch.setattr(cli, "grade_collected", lambda *a, **k: [Row("ann", "y.ipynb", "", "skipped", "not ours")])
    assert cli.main([str(tmp_path)]) == 2            # nothing of this course was found


def test_a_hint_from_the_grading_interpreter_becomes_a_note():
    row = from_result("ann", "a.ipynb", "3.1", {"status": "not yet", "hint": "define helpers in the cell",
                                                 "checks": [{"name": "returns", "requirement": "r",
                                                             "passed": False, "detail": "NameError: helper"}]},
                      note="older version")
    assert row.note == "older version; define helpers in the cell"
    assert row.detail() == "returns: NameError: helper (older version; define helpers in the cell)"
