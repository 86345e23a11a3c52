"""Points, the gradebook, feedback files, Gradescope's results.json, similarity and which notebooks are
the course's: the pure parts of grading a class, tested without Node.js or Pyodide."""

import csv
import io
import json
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from agent_team import course
from agent_team.classroom import gradebook, points, similarity, similarity_page
from agent_team.classroom.collect import collect
from course_notebooks import without_exercises
from agent_team.classroom.results import Row, from_result, grid_table, markdown, summary, to_json, to_junit, totals

ROOT = Path(__file__).resolve().parents[2]


def check(name, passed, detail=""):
    return {"name": name, "requirement": f"{name} works", "passed": passed, "detail": detail}


def class_rows(partial=True, table=None):
    rows = [
        from_result("ada", "ada/03.ipynb", "3.1", {"status": "passed", "checks": [check("a", True), check("b", True)]}),
        from_result("ada", "ada/05.ipynb", "5.1", {"status": "passed", "checks": [check("g", True)]}),
        # three of four checks: 7.5 of 10; one never tried (None) counts as not passed
        from_result("ben", "ben/03.ipynb", "3.1", {"status": "not yet", "checks": [
            check("a", True), check("b", True), check("c", True), check("feedback", False, "the coder got ''\nmore")]}),
        from_result("ben", "ben/05.ipynb", "5.1", {"status": "not yet", "checks": [
            check("g", False, "wrong action"), check("h", None)]}),
        from_result("cy", "cy/03.ipynb", "3.1", {"status": "timed out", "message": ""}),
        Row("cy", "cy/x.ipynb", "", "unreadable", "not a notebook: broken JSON at line 1"),
    ]
    return points.apply(rows, points.weights(table), partial)


def test_points_follow_the_share_of_checks_passed_and_pass_means_all():
    rows = {(r.learner, r.exercise): r for r in class_rows()}
    assert [(rows[k].score, rows[k].points) for k in [("ada", "3.1"), ("ben", "3.1"), ("ben", "5.1"), ("cy", "3.1")]] \
        == [(10, 10), (7.5, 10), (0, 10), (0, 10)]
    assert not rows[("ben", "3.1")].passed                 # 7.5 points, still not a pass
    assert totals(class_rows()) == {"ada": (20, 20), "ben": (7.5, 20), "cy": (0, 20)}   # cy: 5.1 not handed in
    assert totals(class_rows(partial=False))["ben"] == (0, 20)
    assert totals(class_rows(table={"3.1": 20}))["ben"] == (15, 30)
    assert points.credit("not implemented", [check("a", True)], 10) == 0
    assert points.credit("error", [], 10) == 0
    assert points.weights()["1.1"] == course.exercise("1.1").points


def test_points_given_on_the_command_line_are_checked():
    assert points.parse_weight("3.1=20") == ("3.1", 20.0)
    for bad, said in [("3.1", "EXERCISE=POINTS"), ("3.1=-1", "0 or more"), ("3.1=ten", "EXERCISE=POINTS"),
                      ("9.9=5", "has no exercise '9.9'")]:
        with pytest.raises(ValueError, match=said):
            points.parse_weight(bad)


def test_the_table_json_junit_and_markdown_show_points_and_a_total():
    rows = class_rows()
    lines = grid_table(rows).splitlines()
    assert lines[0].split() == ["learner", "3.1", "5.1", "total"]
    assert lines[2].split() == ["ada", "pass", "10/10", "pass", "10/10", "20/20"]
    assert lines[3].split() == ["ben", "not", "yet", "feedback", "7.5/10", "not", "yet", "g", "0/10", "7.5/20"]
    assert lines[4].split() == ["cy", "timed", "out", "0/10", "-", "0/20"]
    assert summary(rows).startswith("2 of 5 exercises passed; 27.5 of 60 points")
    assert "| ben | not yet feedback 7.5/10 | not yet g 0/10 | 7.5/20 |" in markdown(rows)
    data = json.loads(to_json(rows))
    assert data["learners"]["ben"] == {"score": 7.5, "possible": 20}
    assert {(r["learner"], r["exercise"]): r["score"] for r in data["results"]}[("ben", "3.1")] == 7.5
    suites = ET.fromstring(to_junit(rows))
    ben = suites.find("testsuite[@name='ben']")
    assert {p.get("name"): p.get("value") for p in ben.find("properties")} == {"score": "7.5", "points": "20"}
    case = ben.find("testcase[@classname='ben']")
    assert {p.get("name"): p.get("value") for p in case.find("properties")} == {"score": "7.5", "points": "10"}


def test_the_canvas_gradebook_has_canvas_columns_a_points_row_and_a_row_per_learner():
    table = list(csv.reader(io.StringIO(gradebook.to_csv(class_rows(), "canvas"))))
    assert table[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                        "Exercise 3.1: run_team", "Exercise 5.1: the reviewer gate", "Total points"]
    assert table[1] == ["Points Possible", "", "", "", "", "10", "10", "20"]
    assert table[2:] == [["ada", "", "", "ada", "", "10", "10", "20"], ["ben", "", "", "ben", "", "7.5", "0", "7.5"],
                         ["cy", "", "", "cy", "", "0", "0", "0"]]


def test_the_moodle_gradebook_is_a_plain_table_keyed_by_the_learner():
    text = gradebook.to_csv(class_rows(), "moodle")
    assert text.splitlines()[0] == "Learner,Exercise 3.1: run_team,Exercise 5.1: the reviewer gate,Total points"
    assert text.splitlines()[2] == "ben,7.5,0,7.5" and text.endswith("\r\n")
    with pytest.raises(ValueError, match="canvas, moodle"):
        gradebook.to_csv(class_rows(), "blackboard")


def test_feedback_is_one_file_per_learner_with_every_check_and_message(tmp_path):
    rows = class_rows() + [Row("a/b c", "x.ipynb", "", "skipped", "not a notebook of this course")]
    paths = gradebook.write_feedback(rows, tmp_path / "feedback")
    assert sorted(p.name for p in paths) == ["a_b_c.md", "ada.md", "ben.md", "cy.md"]
    ben = (tmp_path / "feedback/ben.md").read_text()
    assert "**Total: 7.5 of 20 points.**" in ben
    assert "**not yet** (7.5 of 10 points), graded from `03.ipynb`." in ben   # the learner's file, not our folders
    for name in ("a", "b", "c", "feedback", "g", "h"):
        assert f"`{name}`: {name} works" in ben
    assert "**FAIL** `feedback`" in ben and "the coder got ''" in ben and "more" in ben
    assert "**not run** `h`" in ben
    cy = (tmp_path / "feedback/cy.md").read_text()
    assert "a loop that never ends" in cy and "Not handed in (0 of 10 points)" in cy and "broken JSON" in cy


def test_gradescope_results_have_a_test_per_exercise_with_points():
    rows = [r for r in class_rows() if r.learner == "ben"]
    data = json.loads(gradebook.to_gradescope(rows))
    assert data["score"] == 7.5
    assert [(t["name"], t["score"], t["max_score"], t["status"]) for t in data["tests"]] == [
        ("Exercise 3.1: run_team", 7.5, 10, "failed"), ("Exercise 5.1: the reviewer gate", 0, 10, "failed")]
    assert "FAIL feedback" in data["tests"][0]["output"]
    with pytest.raises(ValueError, match="one submission"):
        gradebook.to_gradescope(class_rows())


GATE = '''
def gate(outcomes):
    """Which action the gate takes."""
    order = ["failed", "cancelled"]   # the worst first
    for kind in order:
        hits = [o for o in outcomes if o["status"] == kind]
        if hits:
            return {"passed": False, "action": "retry", "step": hits[0]["step"]}
    return {"passed": True, "action": None, "step": None}
'''
# the same cell, renamed, recommented, reformatted, with other literal values
GATE_RENAMED = '''
def gate(results):
    # my own work! <script>alert(1)</script>
    ORDER = ['skipped',
             'failed']
    for k in ORDER:
        found = [r for r in results if r['status'] == k]
        if found: return {'passed': False, 'action': 'again', 'step': found[0]['step']}
    return {'passed': True, 'action': None, 'step': None}
'''
GATE_OTHER = '''
def gate(outcomes):
    bad = {o["status"] for o in outcomes} - {"success"}
    if not outcomes:
        return {"passed": False, "action": "user_decision", "step": None}
    while bad:
        return {"passed": False, "action": sorted(bad)[0], "step": len(bad)}
    return {"passed": True, "action": None, "step": None}
'''


def test_a_renamed_and_reformatted_copy_is_a_pair_and_other_work_is_not():
    norm, _, parsed = similarity.normalise(GATE, {"gate"})
    assert parsed and norm == similarity.normalise(GATE_RENAMED, {"gate"})[0]
    cells = [similarity.Cell("dee", "5.1", "dee.ipynb", GATE), similarity.Cell("cy", "5.1", "cy.ipynb", GATE_RENAMED),
             similarity.Cell("fay", "5.1", "fay.ipynb", GATE_OTHER), similarity.Cell("dee", "5.1", "two.ipynb", GATE)]
    report = similarity.compare(cells)
    (pair,) = report.findings
    assert (pair.kind, pair.first.learner, pair.second.learner, pair.ratio) == ("pair", "cy", "dee", 1.0)
    assert pair.as_written < 0.9                      # renamed: alike only once names and literals are normalised
    page = similarity_page.as_html(report)
    assert "my own work! &lt;script&gt;" in page and "<script>" not in page    # learner text is escaped
    assert '"failed"' in page and "<h2>Exercise 5.1</h2>" in page
    assert "were not compared" in page
    assert json.loads(similarity_page.as_json(report))["findings"][0]["second"]["learner"] == "dee"


def test_the_courses_stub_is_not_attempted_and_its_worked_solution_is_flagged():
    known = similarity.known_sources(ROOT / "notebooks")
    assert set(known) == {e.id for e in course.EXERCISES}
    assert all(set(k) == {"stub", "worked solution"} for k in known.values())
    stub, solution = known["5.1"]["stub"], known["5.1"]["worked solution"]
    cells = [similarity.Cell("ann", "5.1", "a", stub), similarity.Cell("bob", "5.1", "b", stub),
             similarity.Cell("cat", "5.1", "c", "# mine\n" + solution.replace("outcome", "o")),
             similarity.Cell("dan", "5.1", "d", solution), similarity.Cell("eve", "5.1", "e", GATE_OTHER)]
    report = similarity.compare(cells, known)
    said = {(f.kind, f.first.learner) for f in report.findings}
    assert said == {("not attempted", "ann"), ("not attempted", "bob"), ("worked solution", "cat"),
                    ("worked solution", "dan")}          # no pairs: the known sources explain them
    page = similarity_page.as_html(report)
    assert "Not attempted (the course's stub, left as it was): ann, bob." in page
    assert "matches the course's worked solution" in page


def test_a_cell_that_is_not_python_is_compared_as_text():
    cells = [similarity.Cell("a", "3.1", "a", "def run_team(:\n  oops"),
             similarity.Cell("b", "3.1", "b", "def run_team(:\n oops")]
    report = similarity.compare(cells)
    assert [f.ratio for f in report.findings] == [1.0] and len(report.unparsed) == 2


def write(path, nb):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb), encoding="utf-8")


def test_a_notebook_of_the_course_without_exercises_is_recognised_with_nothing_to_grade(tmp_path, monkeypatch):
    # the course's own appendix, whatever it is numbered: every notebook the builder made without an exercise
    empty = without_exercises()
    assert empty, "the course has an appendix without exercises"
    for path in empty:
        write(tmp_path / "ann" / path.name, json.loads(path.read_text()))
    # a part the table adds is recognised by its notebook name, with no change to the grader
    monkeypatch.setattr(course, "PARTS", course.PARTS + (course.Part(42, "Part 42: more", "42_more"),))
    write(tmp_path / "ann/42_more (1).ipynb", {"cells": [{"cell_type": "code", "source": "x = 1"}], "metadata": {}})
    jobs, problems = collect([tmp_path])
    assert jobs == [] and len(problems) == len(empty) + 1
    assert all(p.status == "no exercises" and "with no exercises" in p.message for p in problems)
    rows = [Row(p.learner, p.notebook, p.exercise, p.status, p.message) for p in problems]
    assert "with no exercises" in summary(rows) and "skipped" not in summary(rows)
    assert "nothing to grade" not in grid_table(rows)   # no line per such notebook under the table


def test_the_command_line_writes_every_output_and_names_a_path_it_cannot_write(tmp_path, monkeypatch, capsys):
    from agent_team.classroom import cli
    said = {"passed": {"status": "passed", "checks": [check("g", True)]},
            "failed": {"status": "not yet", "checks": [check("g", True), check("h", False, "no")]}}
    # every learner's 5.1 "graded" without Pyodide: the worked solution passes, anything else fails one of two
    monkeypatch.setattr(cli, "run_jobs", lambda specs, *a, **k: [
        said["failed" if "NotImplementedError" in s["source"] else "passed"] for s in specs])
    solution = json.loads((ROOT / "notebooks/solutions/05_real_team.ipynb").read_text())
    write(tmp_path / "class/ann/05_real_team.ipynb", solution)
    write(tmp_path / "class/bob/05_real_team.ipynb", json.loads((ROOT / "notebooks/05_real_team.ipynb").read_text()))
    out = tmp_path / "out"
    out.mkdir()
    code = cli.main([str(tmp_path / "class"), "--points", "5.1=4", "--csv", str(out / "g.csv"), "--csv-shape",
                     "moodle", "--feedback", str(out / "fb"), "--similarity", str(out / "s.html"),
                     "--junit", str(out / "g.xml"), "--json", str(out / "g.json")])
    assert code == 1
    assert (out / "g.csv").read_text().splitlines() == [
        "Learner,Exercise 5.1: the reviewer gate,Total points", "ann,4,4", "bob,2,2"]
    assert sorted(p.name for p in (out / "fb").iterdir()) == ["ann.md", "bob.md"]
    assert "ann and (the course's worked solution)" in (out / "s.html").read_text()
    assert json.loads((out / "g.json").read_text())["learners"]["bob"] == {"score": 2, "possible": 4}
    capsys.readouterr()
    assert cli.main([str(tmp_path / "class"), "--csv", str(tmp_path / "no/such/folder/g.csv")]) == 2
    assert "could not write" in capsys.readouterr().err
    assert cli.main([str(tmp_path / "class"), "--gradescope", str(out / "r.json")]) == 2
    assert "one submission" in capsys.readouterr().err
    assert cli.main([str(tmp_path / "class/ann"), "--learner", "ann", "--gradescope", str(out / "r.json")]) == 0
    assert json.loads((out / "r.json").read_text())["score"] == 10
    for bad, words in [(["--points", "5.1"], "EXERCISE=POINTS"), (["--similarity-threshold", "2"], "0 to 1"),
                       (["--similarity", "x.html", "--course-notebooks", str(tmp_path)], "no solutions/ folder")]:
        assert cli.main([str(tmp_path / "class"), *bad]) == 2
        assert words in capsys.readouterr().err


def test_a_notebook_of_a_part_that_was_renumbered_is_not_graded_as_the_new_part(tmp_path, monkeypatch):
    # The appendix, whatever its number N, once the course gives part N exercises (as a new part 7 did to
    # 07_frameworks): a learner's old appendix is not that new part with every exercise missing.
    from agent_team.classroom import collect as collecting
    from agent_team.classroom import exercises
    old = without_exercises()[0]
    number = json.loads(old.read_text())["metadata"]["agent_team"]["part"]
    new_part = course.Part(number, f"Part {number}: new", f"{number:02d}_brand_new")
    new_exercise = course.Exercise(f"{number}.1", "new", "grade_gate", "brand_new")
    monkeypatch.setattr(course, "PARTS", course.PARTS + (new_part,))
    monkeypatch.setattr(exercises, "EXERCISES", exercises.EXERCISES + (new_exercise,))
    monkeypatch.setattr(collecting, "EXERCISES", exercises.EXERCISES)
    write(tmp_path / "ann" / old.name, json.loads(old.read_text()))
    write(tmp_path / "ann" / f"{new_part.notebook}.ipynb", {"cells": [], "metadata": {"agent_team": {"part": number}}})
    jobs, problems = collect([tmp_path])
    said = {Path(p.notebook).name: (p.status, p.exercise, p.message) for p in problems}
    assert jobs == [] and len(said) == 2
    status, _, message = said[old.name]
    assert status == "no exercises" and "older version of the course" in message
    assert said[f"{new_part.notebook}.ipynb"][:2] == ("missing", f"{number}.1")   # the new part's own notebook


def test_a_learner_is_told_one_word_for_one_result_in_the_class_table_and_in_their_report():
    """The learner's report says `not yet` for code that ran with failing checks; the class table, the
    points and the feedback file say the same word (they said `failed`: one result, two words)."""
    from agent_team.classroom.results import RANK
    from agent_team.render.report import OUTCOME_KIND
    assert set(OUTCOME_KIND) <= set(RANK), "every outcome a learner's report shows is a class status"
    assert "failed" not in RANK
    row = from_result("ben", "ben/03.ipynb", "3.1", {"status": "not yet", "checks": [
        check("a", True), check("feedback", False, "the coder got ''")]})
    assert row.cell().startswith("not yet feedback")
    assert points.credit(row.status, row.checks, 10) == 5
