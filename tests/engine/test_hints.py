"""Graduated hints: one table for every graded exercise, a pure renderer, a widget that records reveals."""

import pytest
from built_sources import filled

from agent_team import course, progress
from agent_team import widgets as W
from agent_team.hints import HINTS, LEVELS, hints_for
from agent_team.render.hints import hints_html, hints_text


def test_every_graded_exercise_has_at_least_three_hints_in_the_one_table():
    assert set(HINTS) == set(course.exercise_ids())
    for ex_id, hints in HINTS.items():
        assert len(hints) >= len(LEVELS) == 3, ex_id
        assert all(h.text.strip() for h in hints), ex_id
        assert hints[-1].code.strip(), f"{ex_id}: the last hint is near code"
        assert "..." in hints[-1].code, f"{ex_id}: near code leaves the decisive lines open"


def test_hints_target_the_mistakes_learners_make():
    # One known wrong attempt per exercise (issue 10's list) is named by a hint.
    said = {ex: " ".join(h.text + h.code for h in hints) for ex, hints in HINTS.items()}
    assert "new dict" in said["1.1"] and "second dict for locals" in said["1.1"]
    assert "in a row" in said["2.1"] and "whole" in said["2.1"]
    assert "startswith" in said["3.1"] and "split" in said["3.1"]
    assert "healthy trace" in said["4.1"]
    assert "role" in said["4.2"] and ".py" in said["4.2"]
    assert "empty list" in said["5.1"] and "min(" in said["5.1"]
    # The 5.1 hints never say that nothing to do means passed (the empty-list bug).
    assert "None: passed" not in said["5.1"]


def test_unknown_exercise_is_a_clear_error():
    with pytest.raises(KeyError, match="exercises with hints are 1.1"):
        hints_for("9.9")


def test_renderer_shows_only_the_revealed_hints_and_escapes():
    hints = hints_for("3.1")
    none = hints_html("3.1", hints, 0)
    assert "0 of 3 shown" in none and hints[0].text[:30] not in none
    one = hints_html("3.1", hints, 1)
    assert "Hint 1 of 3 (nudge)" in one and "<code>APPROVED</code>" in one and "Hint 2" not in one
    three = hints_html("3.1", hints, 3)
    assert "Hint 3 of 3 (near code)" in three and "<pre" in three and "last hint" in three
    assert "&quot;APPROVE&quot;" in three  # code is escaped
    text = hints_text("3.1", hints, 2)
    assert "Hint 2 of 3 (approach)" in text and ".reveal()" in text and "Hint 3" not in text


def test_widget_reveals_one_at_a_time_and_records_each(tmp_path):
    file = str(tmp_path / "p.json")
    h = W.Hints("4.2", file=file)
    assert h.revealed == 0 and progress.hints(file) == {}
    assert h.reveal() == 1 and progress.hints(file) == {"4.2": 1}
    h._button.click()
    assert h.revealed == 2 and "Hint 2 of 3" in h._view.value and progress.hints(file) == {"4.2": 2}
    h.reveal(), h.reveal()
    assert h.revealed == 3 and h._button.disabled and progress.hints(file) == {"4.2": 3}
    again = W.Hints("4.2", file=file)  # a learner coming back sees what they had revealed
    assert again.revealed == 3
    assert "3 hints seen" in W.Progress(file).html and "(3 hints seen)" in W.Progress(file).text


def test_text_fallback_without_ipywidgets(tmp_path, monkeypatch):
    monkeypatch.setattr(W, "ipw", None)
    h = W.Hints("5.1", file=str(tmp_path / "p.json"))
    assert h.widget is None and "0 of 3 shown" in str(h)
    h.reveal()
    assert "Hint 1 of 3 (nudge)" in str(h) and "empty list" in str(h)
    bundle = h._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}


def test_progress_keeps_hints_predictions_and_exercises_side_by_side(tmp_path):
    file = str(tmp_path / "p.json")
    progress.record_hint("1.1", 2, file)
    progress.record("1.1", True, file)
    progress.record_hint("1.1", 1, file)  # never goes down
    progress.record_prediction("fault: x", "budget / the oracle", "budget / the oracle", file)
    assert progress.hints(file) == {"1.1": 2}
    assert progress.load(file)["1.1"]["passed"] is True
    assert progress.predictions(file) == {"fault: x": {"predicted": "budget / the oracle",
                                                       "actual": "budget / the oracle", "right": True}}
    (tmp_path / "p.json").write_text('{"hints": [1], "predictions": "x", "exercises": {}}')
    assert progress.hints(file) == {} and progress.predictions(file) == {}
    assert progress.record_hint("2.1", 1, file) is True and progress.hints(file) == {"2.1": 1}


def test_near_code_is_a_near_step_never_the_whole_solution():
    """At most half of a worked solution's lines appear in its exercise's last hint."""
    import re
    from pathlib import Path

    sources = Path(__file__).resolve().parents[2] / "notebooks" / "source"
    by_notebook = {}
    for ex_id in course.exercise_ids():
        by_notebook.setdefault(ex_id.split(".")[0].zfill(2), []).append(ex_id)
    for prefix, ids in by_notebook.items():
        text = filled(next(sources.glob(f"{prefix}_*.py")))  # 7.1's solution is its grader's reference
        blocks = re.findall(r"# BEGIN SOLUTION\n(.*?)# END SOLUTION", text, re.S)
        assert len(blocks) == len(ids), prefix
        for ex_id, block in zip(ids, blocks):
            lines = [ln.split("#")[0].strip() for ln in block.splitlines()]
            lines = [ln for ln in lines if len(ln) > 8]
            hint = {ln.split("#")[0].strip() for ln in HINTS[ex_id][-1].code.splitlines()}
            shared = [ln for ln in lines if ln in hint]
            assert len(shared) <= len(lines) / 2, (ex_id, shared)


def declared_checks():
    """``{exercise: check names}``, as each exercise's grader declares them (graded on ``None``)."""
    from agent_team import course, grading
    return {row.id: [c.name for c in getattr(grading, row.grader)(None).checks] for row in course.EXERCISES}


def test_a_hint_names_only_checks_its_exercises_grader_declares_and_near_code_names_none():
    checks = declared_checks()
    for ex_id, hints in HINTS.items():
        for h in hints:
            unknown = [name for name in h.checks if name not in checks[ex_id]]
            assert not unknown, f"{ex_id}: hint names checks its grader never declares: {unknown}"
        assert not hints[-1].checks, f"{ex_id}: a report never closes with the near code"
        assert hints[0].checks, f"{ex_id}: the nudge names no check, so no report could start the ladder"


def report_failing(ex_id, *names):
    from agent_team.grading import Report
    report = Report(exercise=ex_id).declare_all([(name, "r") for name in declared_checks()[ex_id]])
    for name in names:
        report.fail(name, "wrong")
    return report.finish()


def shown(report):
    """What a notebook does with a report it displays (IPython asks for its mime bundle)."""
    return report._repr_mimebundle_()["text/html"]


def test_a_reports_hint_starts_with_the_nudge_and_is_about_the_failing_check(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENT_TEAM_PROGRESS", str(tmp_path / "p.json"))
    assert report_failing("1.1").hint == ""  # passed: no hint to close with
    # The walk's first failure: a raising case fails "never raises", which the nudge is about.
    first = report_failing("1.1", "never raises")
    assert first.hint == f'(hint 1 of 3, the nudge, for the check "never raises") {HINTS["1.1"][0].text}'
    # A first failure the nudge is not about: no later hint skips it, and no hint of another check
    # (1.1's off-by-one, 4.1's misspelled keyword) sends the learner the wrong way.
    for ex_id, check in (("1.1", "one fresh dict"), ("1.1", "the four CASES"), ("4.1", "rows")):
        hint = report_failing(ex_id, check).hint
        assert all(h.text not in hint for h in HINTS[ex_id]), (ex_id, check, hint)
        assert hint == 'Stuck? Press "show hint 1 of 3" in the Hints cell under the grader (the nudge).', hint
    progress.record_hint("1.1", 1)  # the nudge seen: a fresh dict's hint is the approach, next on the ladder
    approach = report_failing("1.1", "one fresh dict").hint
    assert approach.startswith('(hint 2 of 3, the approach, for the check "one fresh dict")'), approach
    assert report_failing("1.1", "never raises").hint.startswith("(hint 1 of 3, the nudge")  # seen, shown again


def test_a_shown_reports_hint_counts_as_seen_where_the_hints_cell_reads_it(tmp_path, monkeypatch):
    file = str(tmp_path / "p.json")
    monkeypatch.setenv("AGENT_TEAM_PROGRESS", file)
    cell = W.Hints("1.1")  # the Hints cell, run before the grader's report
    report = report_failing("1.1", "never raises")
    html = shown(report)
    assert "hint 1 of 3, the nudge" in html and progress.hints(file) == {"1.1": 1}
    shown(report)
    assert progress.hints(file) == {"1.1": 1} and "hint 1 of 3" in report.hint  # shown again: the same hint, once
    assert "1 of 3 shown" in W.Hints("1.1").html
    # The cell's button offered hint 1, which the report has shown since: it shows that one, counting
    # nothing more; the next press shows hint 2.
    assert cell.reveal() == 1 and "Hint 1 of 3 (nudge)" in cell.html and progress.hints(file) == {"1.1": 1}
    assert cell.reveal() == 2 and "Hint 2 of 3 (approach)" in cell.html and progress.hints(file) == {"1.1": 2}
    after = report_failing("1.1", "errors explain")  # named by both: the next one, the near code never
    shown(after)
    assert "hint 2 of 3, the approach" in after.hint and progress.hints(file) == {"1.1": 2}
    progress.record_hint("1.1", 3)
    assert report_failing("1.1", "errors explain").hint.startswith("(hint 2 of 3")
    assert report_failing("1.1", "ok").hint == ""  # every hint seen, none about this check: its message says it


def test_a_report_of_a_loop_that_never_ends_closes_with_no_hint_of_another_rule(short_caps, tmp_path, monkeypatch):
    # The walk of parts 5-8: under 5.1's timeout the hint spoke of the empty list, under 6.1's of wrappers.
    from agent_team.grading import grade_gate

    monkeypatch.setenv("AGENT_TEAM_PROGRESS", str(tmp_path / "p.json"))

    def gate(outcomes):
        while True:
            pass

    report = grade_gate(gate)
    assert not report.passed and "did not return" in str(report)
    assert all(h.text not in report.hint for h in HINTS["5.1"]), report.hint
    assert report.hint.startswith('Stuck? Press "show hint 1 of 3"'), report.hint
