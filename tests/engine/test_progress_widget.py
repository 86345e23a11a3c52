"""The progress widget (agent_team.widgets.Progress) says, part by part, what the home page says:
each part's line and the part to continue with (agent_team.tally). Its own file, since the widgets
are not in the browser's Pyodide test run (tests/pyodide/select.py) and test_progress.py is."""

import walk_record

from agent_team import widgets as W


def test_the_progress_widget_shows_each_parts_line_and_the_next_part(tmp_path):
    file = walk_record.write_walk(tmp_path / "p.json")
    shown = W.Progress(file)
    part4 = f"Part 4: failure injection: 2 of 2 passed · 2 graded · 3 hints seen · {walk_record.PART4_PREDICTIONS}"
    for view in (shown.text, shown.html):
        assert part4 in view and "3 quizzes answered" in view, view
        assert "Next: Part 5: from fakes to a real team." in view
    assert "Next:" not in W.Progress(tmp_path / "none.json").text  # nothing begun: nothing to say


def test_a_course_quiz_checked_counts_in_its_part(tmp_path, monkeypatch):
    from agent_team import progress, tally
    file = tmp_path / "p.json"
    monkeypatch.setenv("AGENT_TEAM_PROGRESS", str(file))
    quiz = W.Quiz("4.1")
    quiz.check()  # nothing picked: nothing to count
    assert progress.quizzes(file) == {}
    wrong = next(i for i in range(len(quiz.choices)) if i != quiz.answer)
    quiz.choose(wrong), quiz.check()
    quiz.choose(quiz.answer), quiz.check()
    assert progress.quizzes(file) == {"4.1": {"answer": "abcdefgh"[quiz.answer], "right": True, "tries": 2}}
    assert [row["quizzes"] for row in tally.by_part(file)][:5] == [0, 0, 0, 1, 0]
    W.Quiz("Is this counted?", ["yes", "no"], 1, "a quiz of one's own has no id").check()
    assert len(progress.quizzes(file)) == 1
