"""Widgets, driven through their Python side: set values, click buttons, read what is displayed."""

import pytest

from agent_team import course
from agent_team import widgets as W
from agent_team.render import step_html
from agent_team.render.diagram import SUPERVISOR
from test_render import EVIL, SEED_LOG, Watched, make_trace

ipywidgets = pytest.importorskip("ipywidgets")

NO_FAULT = SUPERVISOR.without("FAULT")  # the stepper draws FAULT only for runs that have one


@pytest.fixture
def no_widgets(monkeypatch):
    """As if ipywidgets were missing: the classes must still work, as text and HTML."""
    monkeypatch.setattr(W, "ipw", None)


class Result:
    """Just what a RunResult offers the stepper."""

    def __init__(self, trace):
        self.trace = trace


# --- round stepper -------------------------------------------------------------------------------

def test_stepper_starts_at_the_first_step_and_shows_it():
    trace = make_trace(2)
    s = W.RoundStepper(Result(trace))
    assert s.index == 0 and s.steps == len(trace) == len(s)
    assert s.html == step_html(trace, 0, NO_FAULT) == s._view.value
    assert s._list.value == 1 and s._list.description == "step"
    assert s._prev_button.disabled and not s._next_button.disabled
    assert s._counter.value == f"1 / {len(trace)}"


def test_next_previous_and_go_move_like_the_controls():
    trace = make_trace(2)
    s = W.RoundStepper(trace)
    assert s.next() == 2 and s.index == 1 and s.step == 2
    assert s._list.value == 2 and "[m1]" in s._view.value
    assert s.previous() == 1 and s.previous() == 1  # stays on the first step
    assert s.go(-1) == len(trace) and s._next_button.disabled
    assert s.next() == len(trace)  # stays on the last step
    assert s.go(4) == 4 and s.html == step_html(trace, 3, NO_FAULT)
    for missing in (0, len(trace) + 1, -len(trace) - 1):
        with pytest.raises(IndexError, match=f"numbered from 1 to {len(trace)}"):
            s.go(missing)
    with pytest.raises(TypeError):
        s.go(1.5)
    assert s.index == 3 and s.step == 4


def test_go_shows_the_step_number_it_is_given():
    # The header, the step list and the counter number steps from 1, and so does go(): a learner
    # who reads "Step 5" and types go(5) sees step 5 again (it used to show step 6).
    trace = make_trace(2)
    s = W.RoundStepper(trace)
    for step in range(1, len(trace) + 1):
        s.go(step)
        assert s.text.startswith(f"Step {step} of {len(trace)} ")
        assert s.step == step == s._list.value and s._counter.value == f"{step} / {len(trace)}"
        assert s.html == step_html(trace, step - 1, NO_FAULT)
    log = W.RoundStepper.from_log(SEED_LOG)
    log.go(5)
    assert log.step == 5 and "5 of 9" in log.text and "step 5 of 9" in log.html


def test_buttons_and_the_step_list_drive_the_same_state():
    trace = make_trace(2)
    s = W.RoundStepper(trace)
    s._next_button.click()
    s._next_button.click()
    assert s.index == 2 and "[m2]" in s._view.value
    s._prev_button.click()
    assert s.index == 1
    s._list.value = 6
    assert s.index == 5 and s._counter.value == f"6 / {len(trace)}" and s.html == step_html(trace, 5, NO_FAULT)
    s._list.value = 8  # what the front end sends when a step is picked from the list
    assert s.index == 7 and s._counter.value == f"8 / {len(trace)}"
    assert s.html == s._view.value


def test_stepper_start_option_and_text_fallback():
    trace = make_trace(1)
    s = W.RoundStepper(trace, start=3)
    assert s.index == 2
    assert repr(s) == str(s) == s.text
    assert s.text.startswith(f"Step 3 of {len(trace)} · round 1 · CODE")
    bundle = s._repr_mimebundle_()
    assert bundle["text/plain"] == s.text and bundle["text/html"] == s.html
    assert bundle[W.WIDGET_MIME]["model_id"] == s.widget.model_id


def test_stepper_on_a_200_round_run_renders_one_step_per_move():
    trace = Watched(make_trace(200))
    s = W.RoundStepper(trace)
    trace.read.clear()
    s.go(401)
    assert trace.read == {399, 400}
    trace.read.clear()
    s._next_button.click()
    assert trace.read == {400, 401} and "[m401]" in s.html


def test_stepper_over_a_protocol_log():
    for stepper in (W.RoundStepper.from_log(SEED_LOG), W.RoundStepper(SEED_LOG), W.RoundStepper(("v3", SEED_LOG))):
        assert stepper.steps == 9
        stepper.go(4)
        assert "review: REJECT: no error handling" in stepper.html
        assert "round 2" in stepper.text
        stepper._next_button.click()
        assert stepper.index == 4 and "APPROVE" in stepper._view.value


def test_an_empty_run_has_nothing_to_step_through():
    s = W.RoundStepper([])
    assert s.steps == 0 and "nothing to step through" in s.html and "nothing" in s.text
    assert s.next() == 0 and s.previous() == 0
    assert s._list.disabled and s._next_button.disabled
    with pytest.raises(IndexError):
        s.go(0)


def test_stepper_escapes_what_the_coder_wrote():
    trace = make_trace(1)
    trace[2]["changes"][0]["after"] = EVIL
    s = W.RoundStepper(trace, start=3)
    assert "<script" not in s._view.value and "&lt;script&gt;" in s._view.value


def test_stepper_without_ipywidgets(no_widgets):
    trace = make_trace(1)
    s = W.RoundStepper(trace)
    assert s.widget is None
    assert s.next() == 2 and s.html == step_html(trace, 1, NO_FAULT)
    bundle = s._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert W.RoundStepper.from_log(SEED_LOG).go(-1) == 9


def test_stepper_with_a_real_run():
    from agent_team.supervisor import supervise
    run = supervise(max_rounds=4)
    s = W.RoundStepper(run)
    states = []
    for _ in range(s.steps):
        states.append(s.text.splitlines()[0].split(" · ")[2])
        s.next()
    assert states == ["START", "PLAN", "CODE", "TEST", "REVIEW", "CODE", "TEST", "REVIEW", "STOP_OK"]


# --- comparing runs --------------------------------------------------------------------------------

def test_compare_starts_at_the_first_divergence_and_steps_by_round():
    healthy, broken = make_trace(3, green_at=2), make_trace(3)
    c = W.CompareRuns(healthy, broken, labels=("healthy", "broken"))
    assert c.divergence == {"round": 2, "a": 6, "b": 6}
    assert c.round == 2 and c._list.value == 2 and "Round 2 in full" in c.html
    assert c.html == c._view.value and "healthy, round 2" in c.html
    assert c.next() == 3 and c.next() == 3 and c._next_button.disabled
    c._prev_button.click()
    assert c.round == 2
    c._list.value = 0
    assert c.round == 0 and "Round 0 in full" in c._view.value and c._prev_button.disabled
    assert c.previous() == 0
    with pytest.raises(IndexError):
        c.go(9)
    assert " >> healthy: TEST: green" in str(c)
    assert "The runs first differ in round 2" in c.html  # the overview stays


def test_compare_runs_that_agree(no_widgets):
    c = W.CompareRuns(make_trace(2), make_trace(2))
    assert c.divergence is None and c.round == 0 and c.widget is None
    assert "did exactly the same things" in c.html and "did exactly the same things" in c.text
    with pytest.raises(ValueError):
        W.CompareRuns(make_trace(1), make_trace(1), labels=("one",))


# --- quiz ------------------------------------------------------------------------------------------

def quiz():
    return W.Quiz("Who decides when a run `stops`?", ["the reviewer", "the supervisor", "the coder"],
                  answer="the supervisor", explanation="It is code: green tests or the budget end a run.",
                  explanations={0: "Its verdict is overridden on green tests.",
                                "the coder": "It only proposes patches."})


def test_quiz_right_answer_with_why_the_others_are_wrong():
    q = quiz()
    assert q.answer == 1 and q.selected is None and q._feedback.value == ""
    q._radio.value = 1  # the learner picks b)
    assert q.selected == 1
    q._check_button.click()
    assert q.correct is True
    shown = q._feedback.value
    assert "Right" in shown and "green tests or the budget" in shown
    assert "Why not the others" in shown and "overridden on green tests" in shown and "only proposes" in shown
    assert "✓" in q.html and "Your answer: b)" in q.text


def test_quiz_wrong_answer_explains_that_choice_and_invites_another_try():
    q = quiz()
    q._radio.value = 2
    q._check_button.click()
    assert q.correct is False
    assert "Not quite" in q._feedback.value and "It only proposes patches." in q._feedback.value
    assert "green tests or the budget" not in q._feedback.value  # the answer is not given away
    q._radio.value = 0  # picking again clears the old feedback
    assert q.feedback == "" and q._feedback.value == "" and q.correct is None
    assert q.check() is False


def test_quiz_checks_need_a_choice_and_python_api_matches_controls():
    q = quiz()
    assert q.check() is False and q.feedback == "Pick an answer first."
    assert q.choose("b") == 1 and q._radio.value == 1
    assert q.check() is True
    assert q.choose("the reviewer") == 0 and q._radio.value == 0
    with pytest.raises(ValueError):
        q.choose("nobody")


def test_quiz_without_a_front_end_prints_the_question_but_not_the_answer():
    q = quiz()
    text = str(q)
    assert text == repr(q) == q._repr_mimebundle_()["text/plain"]
    assert text.splitlines() == ["Who decides when a run `stops`?", "  a) the reviewer", "  b) the supervisor",
                                 "  c) the coder",
                                 "(Run this cell in Jupyter to answer; the answer and why are shown after you check.)"]
    assert "green tests or the budget" not in text
    assert str(quiz()) == text  # deterministic
    html = q.html
    assert "<code>stops</code>" in html
    assert "green tests or the budget" not in html and "Show the answer" not in html  # no answer stored with the page


def test_a_quiz_of_the_course_comes_from_its_table_by_id(tmp_path, monkeypatch):
    from agent_team.quizzes import QUIZZES, quiz as row
    monkeypatch.setenv("AGENT_TEAM_PROGRESS", str(tmp_path / "p.json"))  # a course quiz checked is recorded
    q = W.Quiz("1.2")
    want = row("1.2")
    assert (q.id, q.question, q.choices, q.answer) == ("1.2", want.question, list(want.choices), want.answer)
    assert want.explanation not in q.html + q.text
    q.choose(want.answer)
    assert q.check() and want.explanation in q.feedback
    with pytest.raises(KeyError, match="its quizzes are 1.1, 1.2, 2.1"):
        W.Quiz("9.9")
    with pytest.raises(TypeError, match="Quiz"):
        W.Quiz("a question", ["a", "b"])  # the long form needs its answer and explanation
    assert len({r.id for r in QUIZZES}) == len(QUIZZES)


def test_quiz_is_keyboard_usable():
    q = quiz()
    assert isinstance(q._radio, ipywidgets.RadioButtons)  # arrow keys move between choices
    assert isinstance(q._check_button, ipywidgets.Button)  # Enter or Space presses it
    assert q._check_button.tooltip


def test_quiz_rejects_bad_definitions():
    with pytest.raises(ValueError):
        W.Quiz("q", ["only one"], 0, "e")
    with pytest.raises(IndexError):
        W.Quiz("q", ["a", "b"], 5, "e")
    with pytest.raises(ValueError):
        W.Quiz("q", ["a", "b"], "c", "e")
    with pytest.raises(ValueError):
        W.Quiz("q", ["a", "b"], 0, "e", explanations=["just one"])
    with pytest.raises(TypeError):
        W.Quiz("q", ["a", "b"], True, "e")
    q = W.Quiz("q", ["x", "y"], 0, "e", explanations=[None, "y is wrong"])
    q.choose(1)
    q.check()
    assert "y is wrong" in q.feedback


def test_quiz_escapes_its_text_and_works_without_ipywidgets(no_widgets):
    q = W.Quiz(EVIL, [EVIL, "b"], 1, EVIL, explanations={0: EVIL})
    assert q.widget is None
    q.choose(0)
    q.check()
    assert "<script" not in q.html and EVIL in q.text


# --- reports and progress --------------------------------------------------------------------------

def graded_report():
    """A real grader's report (show_report records it), failing at a divergence."""
    from agent_team.grading import Divergence, Report
    report = Report("Exercise 3.1: run_team", exercise="3.1")
    report.declare("plan once", "the planner is called once")
    report.declare("log", "the log lists every pair")
    report.fail("log", "In the worked example: the log differs.",
                Divergence("the worked example", "log entry 4", ["coder: 'v2'"], ["tester: 'FAIL'"], 0))
    return report.finish()


def test_show_report_displays_html_and_text_and_counts_the_attempt(monkeypatch, tmp_path):
    from agent_team import progress
    file = tmp_path / "p.json"
    monkeypatch.setenv("AGENT_TEAM_PROGRESS", str(file))
    shown = []
    monkeypatch.setattr(W, "show", shown.append)
    W.show_report(graded_report())
    (rich,) = shown
    assert "First difference" in rich._repr_html_() and "<details>" in rich._repr_html_()
    assert repr(rich).startswith("Exercise 3.1: run_team: NOT YET")
    assert progress.load(file)["3.1"] == {"passed": False, "passed_once": False, "attempts": 1}


def test_show_report_prints_text_where_there_is_no_notebook(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("AGENT_TEAM_PROGRESS", str(tmp_path / "p.json"))
    W.show_report(graded_report())
    out = capsys.readouterr().out
    assert "Exercise 3.1: run_team: NOT YET" in out


def test_a_report_a_notebook_cell_shows_counts_once_and_keeps_its_text(monkeypatch, tmp_path):
    """What IPython's display does with a report that ends a cell: HTML from the report, text from repr."""
    from IPython.core.formatters import DisplayFormatter

    from agent_team import progress
    file = tmp_path / "p.json"
    monkeypatch.setenv("AGENT_TEAM_PROGRESS", str(file))
    report = graded_report()
    data, _ = DisplayFormatter().format(report)
    assert data["text/plain"] == repr(report) and data["text/html"] == report._repr_html_()
    DisplayFormatter().format(report)
    assert progress.load(file)["3.1"]["attempts"] == 1


def test_progress_widget_reads_the_file_and_refreshes(tmp_path):
    from agent_team import progress
    file = tmp_path / "p.json"
    p = W.Progress(file)
    assert f"0 of {len(course.EXERCISES)} exercises done" in p.html and p.html == p._view.value
    progress.record("1.1", True, file=file)
    p._refresh_button.click()
    assert f"1 of {len(course.EXERCISES)} exercises done" in p._view.value
    assert "[x] 1.1 write the oracle" in str(p) and "[ ] 3.1 run_team" in str(p)


def test_progress_widget_under_pytest_shows_nothing_done(monkeypatch, tmp_path, no_widgets):
    monkeypatch.delenv("AGENT_TEAM_PROGRESS", raising=False)
    monkeypatch.chdir(tmp_path)
    p = W.Progress()
    assert f"0 of {len(course.EXERCISES)} exercises done" in p.html and p.widget is None


def test_a_prediction_of_the_course_comes_from_its_table_and_checks_its_key(tmp_path):
    from agent_team.predict import PREDICTIONS, prediction
    row = prediction("part 3: one round")
    form = W.Predict("part 3: one round", file=tmp_path / "progress.json")
    assert (form.title, form.questions) == (row.title, [(p, tuple(o)) for p, o in row.questions])
    assert row.why not in form.html + form.text
    form.choose("pass", "REVIEW")
    form.reveal(list(row.answers))
    assert form.why == row.why and form.right is False
    wrong = W.Predict("part 3: one round", file=tmp_path / "progress.json")
    with pytest.raises(AssertionError, match="the course expects"):
        wrong.reveal(["pass", "TEST"])  # a run that disagrees with the key
    with pytest.raises(KeyError, match="its predictions are 'part 1: patch shapes'"):
        W.Predict("part 9: nothing")
    assert all(len(p.answers) == len(p.questions) and all(a in o for a, (_, o) in zip(p.answers, p.questions))
               for p in PREDICTIONS)
