"""Course progress: best-effort records in a small JSON file, never an error."""

import json

import pytest
import walk_record

from agent_team import course, grading, progress, tally


@pytest.fixture
def clean_env(monkeypatch):
    monkeypatch.delenv("AGENT_TEAM_PROGRESS", raising=False)
    monkeypatch.setattr(progress, "ENABLED", True)
    return monkeypatch


def test_exercises_per_part_are_data():
    assert course.exercise_ids()[:8] == ["1.1", "2.1", "3.1", "4.1", "4.2", "5.1", "6.1", "6.2"]
    names = {ex_id: name for _, _, exercises in progress.BY_PART for ex_id, name in exercises}
    assert names["1.1"] == "write the oracle" and names["2.1"] == "the nits counter"
    assert names["3.1"] == "run_team"
    assert names["4.1"] == "an eval of faults" and names["4.2"] == "a hardening rule"
    assert names["5.1"] == "the reviewer gate"
    assert [part for part, _, _ in progress.BY_PART] == ["part1", "part2", "part3", "part4", "part5", "part6", "part7"]


def test_record_and_load_round_trip(tmp_path):
    file = tmp_path / "p.json"
    assert progress.load(file) == {}
    assert progress.record("3.1", False, file=file) is True
    assert progress.record("3.1", True, file=file) is True
    assert progress.record("3.1", False, file=file) is True
    assert progress.load(file) == {"3.1": {"passed": False, "passed_once": True, "attempts": 3}}
    data = json.loads(file.read_text())
    assert data["version"] == 1 and set(data["exercises"]) == {"3.1"}
    assert not (tmp_path / "p.json.tmp").exists()


def test_status_lists_every_part_with_done_and_not_yet(tmp_path):
    file = tmp_path / "p.json"
    progress.record("1.1", True, file=file)
    progress.record("4.2", False, file=file)
    parts = progress.status(file)
    assert [p["part"] for p in parts] == ["part1", "part2", "part3", "part4", "part5", "part6", "part7"]
    by_id = {ex["id"]: ex for p in parts for ex in p["exercises"]}
    assert by_id["1.1"]["done"] is True and by_id["1.1"]["attempts"] == 1
    assert by_id["4.2"]["done"] is False and by_id["4.2"]["attempts"] == 1
    assert by_id["5.1"] == {"id": "5.1", "title": "the reviewer gate", "done": False, "passed": False, "attempts": 0}
    assert parts[0]["done"] == 1 and parts[3]["total"] == 2 and parts[3]["done"] == 0


def test_the_default_file_sits_in_the_working_directory(tmp_path, clean_env):
    clean_env.chdir(tmp_path)
    assert progress.path() == progress.FILENAME
    assert progress.record("2.1", True) is True
    assert (tmp_path / progress.FILENAME).exists()
    assert progress.load()["2.1"]["passed"] is True
    assert progress.reset() is True and not (tmp_path / progress.FILENAME).exists()


def test_an_environment_variable_names_another_file(tmp_path, clean_env):
    file = tmp_path / "elsewhere.json"
    clean_env.setenv("AGENT_TEAM_PROGRESS", str(file))
    assert progress.path() == str(file)
    assert progress.record("1.1", True) is True and file.exists()


@pytest.mark.parametrize("value", ["off", "0", "false", "OFF"])
def test_recording_can_be_turned_off_by_environment(tmp_path, clean_env, value):
    clean_env.chdir(tmp_path)
    clean_env.setenv("AGENT_TEAM_PROGRESS", value)
    assert progress.path() is None
    assert progress.record("1.1", True) is False
    assert progress.load() == {} and progress.reset() is False
    assert list(tmp_path.iterdir()) == []


def test_recording_can_be_turned_off_by_flag(tmp_path, clean_env):
    clean_env.chdir(tmp_path)
    clean_env.setattr(progress, "ENABLED", False)
    assert progress.record("1.1", True) is False
    assert list(tmp_path.iterdir()) == []


def test_an_id_the_course_does_not_have_is_not_recorded(tmp_path):
    file = tmp_path / "p.json"
    assert progress.record("3.2", True, file=file) is False and not file.exists()
    progress.record("3.1", True, file=file)
    assert progress.record("shape", True, file=file) is False
    assert set(progress.load(file)) == {"3.1"}


def test_an_unwritable_place_is_not_an_error(tmp_path):
    missing = tmp_path / "no such dir" / "p.json"
    assert progress.record("1.1", True, file=missing) is False
    assert progress.load(missing) == {}
    a_directory = tmp_path / "adir"
    a_directory.mkdir()
    assert progress.record("1.1", True, file=a_directory) is False
    assert progress.load(a_directory) == {}


def test_a_corrupt_file_reads_as_no_progress_and_is_replaced(tmp_path):
    file = tmp_path / "p.json"
    for junk in ("{not json", "[1, 2]", '{"exercises": 3}', '{"exercises": {"1.1": "yes", "2": {"attempts": -4}}}'):
        file.write_text(junk)
        loaded = progress.load(file)
        assert all(entry["attempts"] >= 0 for entry in loaded.values())
        assert "1.1" not in loaded
    file.write_bytes(b"\xff\xfe garbage")
    assert progress.load(file) == {}
    assert progress.record("1.1", True, file=file) is True
    assert progress.load(file)["1.1"]["attempts"] == 1


def test_odd_exercise_ids_are_kept_as_text(tmp_path):
    file = tmp_path / "p.json"
    assert progress.record(3.1, 1, file=file) is True
    assert progress.load(file) == {"3.1": {"passed": True, "passed_once": True, "attempts": 1}}


def test_grading_records_nothing_a_report_shown_records_its_exercise_once(tmp_path, clean_env):
    from agent_team.protocol import run_team
    file = tmp_path / "p.json"
    clean_env.setenv("AGENT_TEAM_PROGRESS", str(file))
    report = grading.grade_run_team(run_team)
    assert report.passed and not file.exists()  # a test, a build, a grader inside a grader: no file
    bundle = report._repr_mimebundle_()  # what a notebook asks for when it shows the report
    assert bundle["text/html"] == report._repr_html_()
    assert progress.load(file)["3.1"] == {"passed": True, "passed_once": True, "attempts": 1}
    report._repr_mimebundle_()  # the same report shown again (a re-render) is the same attempt
    assert progress.load(file)["3.1"]["attempts"] == 1
    grading.grade_run_team(lambda *args: None)._repr_mimebundle_()  # the next graded run, shown
    assert progress.load(file)["3.1"] == {"passed": False, "passed_once": True, "attempts": 2}


def test_a_report_of_no_exercise_is_never_recorded(tmp_path, clean_env):
    file = tmp_path / "p.json"
    clean_env.setenv("AGENT_TEAM_PROGRESS", str(file))
    assert grading.Report("a grader of the tests' own").finish().record_progress() is False
    assert not file.exists()


def test_every_table_keeps_only_well_formed_entries_and_right_is_derived(tmp_path):
    file = tmp_path / "p.json"
    file.write_text(json.dumps({"hints": {"1.1": 2, "2.1": "three", "4.2": True},
                                "predictions": {"p": {"predicted": "pass", "actual": "budget", "right": True},
                                                "q": "garbage"}}))
    assert progress.predictions(file) == {"p": {"predicted": "pass", "actual": "budget", "right": False}}
    assert progress.record_hint("2.1", 1, file) is True
    saved = json.loads(file.read_text())
    assert saved["hints"] == {"1.1": 2, "2.1": 1}
    assert saved["predictions"] == {"p": {"actual": "budget", "predicted": "pass", "right": False}}
    assert progress.record_prediction("q", "pass", "pass", file) is True
    assert json.loads(file.read_text())["predictions"]["q"] == {"actual": "pass", "predicted": "pass", "right": True}


def test_a_prediction_or_quiz_belongs_to_the_part_its_record_or_its_key_names():
    assert progress.part_of("part 1: patch shapes") == 1 and progress.part_of("part 7: a model as the coder") == 7
    assert progress.part_of("fault: plan wiped") == 4  # part 4's keys name the fault, not the part
    assert progress.part_of("3.2") == 3 and progress.part_of("8.1") is None  # a quiz id; the appendix has no part
    assert progress.part_of("my own guess") is None and progress.part_of("part 9: x") is None
    assert progress.part_of("anything", {"part": 2}) == 2 and progress.part_of("fault: x", {"part": 99}) == 4


def test_quizzes_are_recorded_with_their_tries_and_a_stated_part(tmp_path):
    file = tmp_path / "p.json"
    assert progress.record_quiz("1.2", "a", False, file) is True
    assert progress.record_quiz("1.2", "c", True, file) is True
    assert progress.record_quiz("why", "b", True, file, part=5) is True
    assert progress.quizzes(file) == {"1.2": {"answer": "c", "right": True, "tries": 2},
                                      "why": {"answer": "b", "right": True, "tries": 1, "part": 5}}
    assert progress.record_prediction("guess", "a", "a", file, part=3) is True
    assert progress.predictions(file)["guess"] == {"predicted": "a", "actual": "a", "right": True, "part": 3}
    assert progress.load(file) == {} and progress.hints(file) == {}  # the other tables untouched
    assert progress.tables(file) == {"exercises": {}, "hints": {}, "predictions": progress.predictions(file),
                                     "quizzes": progress.quizzes(file)}  # one read, the same tables


def test_a_walk_of_parts_1_to_4_is_counted_per_part_and_continues_with_part_5(tmp_path):
    walk_record.write_walk(tmp_path / "p.json")
    rows = tally.by_part(tmp_path / "p.json")
    got = {r["part"]: tuple(r[k] for k in ("passed", "graded", "hints", "predictions", "right", "quizzes"))
           for r in rows if r["graded"]}
    assert got == walk_record.PER_PART
    assert [r["finished"] for r in rows] == [True] * 4 + [False] * 3
    assert tally.next_part(rows) == walk_record.NEXT


def test_continue_goes_to_the_next_unfinished_part(tmp_path):
    file = tmp_path / "p.json"

    def rows():
        return tally.by_part(file)
    assert tally.next_part(rows()) == "part1"  # nothing yet: the start
    progress.record_prediction("part 3: one round", "a", "a", file)
    assert tally.next_part(rows()) == "part3"  # working in part 3, not finished
    progress.record("3.1", True, file)
    assert tally.next_part(rows()) == "part4"  # finished: the next one, not back to part 1
    for ex_id in course.exercise_ids():
        if not ex_id.startswith(("1.", "2.")):
            progress.record(ex_id, True, file)
    assert tally.next_part(rows()) == "part1"  # the last part done: the first one left out
    progress.record("1.1", True, file), progress.record("2.1", True, file)
    assert tally.next_part(rows()) is None  # every part finished

