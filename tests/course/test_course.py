"""The course's table of parts and exercises: every row has a grader, a notebook and a progress entry."""

import pytest

from agent_team import course, grading, progress


def untouched(*args, **kwargs):
    raise NotImplementedError  # what every exercise stub does before the learner writes it


@pytest.mark.parametrize("row", course.EXERCISES, ids=lambda row: row.id)
def test_every_exercise_has_a_grader_that_reports_under_its_id(row):
    grader = getattr(grading, row.grader, None)
    assert callable(grader), f"{row.grader} is not exported by agent_team.grading"
    assert row.grader in grading.__all__
    report = grader(untouched)
    if report.outcome != "not implemented":  # graders of data (an eval's rows) take None as the stub
        report = grader(None)
    assert report.outcome == "not implemented" and not report.passed
    assert report.exercise == row.id and f"Exercise {row.id}" in report.title
    assert report.checks and all(c.name and c.requirement for c in report.checks)


def test_progress_lists_every_exercise_under_its_part():
    listed = [(part, ex_id, name) for part, _, exercises in progress.BY_PART for ex_id, name in exercises]
    assert listed == [(f"part{row.part}", row.id, row.title) for row in course.EXERCISES]


def test_ids_are_unique_and_in_course_order():
    ids = course.exercise_ids()
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids, key=lambda i: tuple(int(n) for n in i.split(".")))
    assert [p.number for p in course.PARTS] == list(range(1, len(course.PARTS) + 1))
    assert {row.part for row in course.EXERCISES} <= {p.number for p in course.PARTS}


def test_an_unknown_exercise_is_a_clear_error():
    assert course.exercise("4.2").title == "a hardening rule"
    with pytest.raises(KeyError, match="no exercise '4.3'; its exercises are 1.1, 2.1"):
        course.exercise("4.3")
