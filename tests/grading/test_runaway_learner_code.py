"""No grader and no course cell hangs on learner code: every grader, and try_it, on runaway code.

Each runaway form below is one the trace guard used to miss somewhere (a caught timeout that
loops again, a one-line loop on CPython 3.11, a sleep) or the plain loop. A grader must come
back with a failing report, and well within its cap. The caps are cut to tenths of a second here
(``short_caps``, read at call time), so a hang costs a test a fraction of a second. That the short
cap was the one applied is read in the report, which names it ("did not return within 0.2 s"), not
in the clock: the wall-clock bound only guards a hang, generous for a slow or busy machine.
"""

import sys
import time

import pytest

from agent_team.faults import fizz_only_coder
from agent_team.grading import (Report, grade_fault_eval, grade_gate, grade_hardening, grade_nits_reviewer,
                                grade_retry_or_stop, grade_run_team, grade_run_tests, try_it)
from agent_team.grading import core
from agent_team.grading.core import call_learner, grading_run

BOUND = 30.0  # seconds, read at call time: a hang guard, not a speed check


def plain_loop(*args):
    n = 0
    while True:
        n += 1


def caught_and_looping_again(*args):
    try:
        while True:
            pass
    except BaseException:
        while True:
            pass


def one_line_loop(*args):
    while True: pass  # noqa: E701 -- the single line is the point (no line event on CPython 3.11)


def long_sleep(*args):
    time.sleep(10)


RUNAWAY = [plain_loop, caught_and_looping_again, one_line_loop, long_sleep]


def eval_rows(policy):
    """Exercise 4.1's input: the seed's rows plus two faults whose policy is the runaway code."""
    return [("healthy, 1 round", {"max_rounds": 1}, "budget"), ("healthy, 4 rounds", {"max_rounds": 4}, "pass"),
            ("runaway coder", {"coder": policy, "max_rounds": 4}, "pass"),
            ("runaway reviewer", {"reviewer": policy, "max_rounds": 4}, "pass")]


GRADERS = {
    "1.1 run_tests": grade_run_tests,
    "2.1 nits_reviewer": grade_nits_reviewer,
    "3.1 run_team": grade_run_team,
    "4.1 fault_eval": lambda fn: grade_fault_eval(eval_rows(fn)),
    "4.2 hardening": grade_hardening,
    "5.1 gate": grade_gate,
    "7.1 retry_or_stop": grade_retry_or_stop,
}


@pytest.fixture(autouse=True)
def caps(short_caps):
    return short_caps


def names_the_short_cap(report, caps, grader="any"):
    """The report names the cap it applied: the short one, so no real cap was waited for."""
    said = f"the {caps.eval_total:g} s the whole eval" if grader == "4.1 fault_eval" else f"within {caps.call:g} s"
    return said in str(report)


@pytest.fixture(autouse=True)
def nothing_is_left_behind():
    """Tracing, time.sleep and the unraisable hook are as they were after every test."""
    before = sys.gettrace(), time.sleep, sys.unraisablehook
    yield
    assert (sys.gettrace(), time.sleep, sys.unraisablehook) == before


def timed(fn, *args):
    start = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - start


@pytest.mark.parametrize("runaway", RUNAWAY, ids=lambda f: f.__name__)
@pytest.mark.parametrize("grader", list(GRADERS), ids=str)
def test_every_grader_returns_a_failing_report_within_its_cap(grader, runaway, caps):
    report, seconds = timed(GRADERS[grader], runaway)
    assert isinstance(report, Report)
    assert not report.passed and report.outcome == "not yet"
    assert seconds < BOUND, f"{grader} took {seconds:.1f} s on {runaway.__name__}"
    if grader == "7.1 retry_or_stop" and runaway is long_sleep:  # its sleeps are recorded, not waited (row 1)
        assert "the slot does the waiting" in str(report), str(report)
        return
    assert names_the_short_cap(report, caps, grader), str(report)
    if grader != "4.1 fault_eval":  # there the supervisor runs the code: the row's outcome is the news
        assert "did not return" in str(report)


def test_after_the_first_hang_the_learner_code_is_not_called_again(caps):
    calls = []

    def counted_loop(*args):
        calls.append(args)
        while True:
            pass

    report, seconds = timed(grade_gate, counted_loop)
    assert len(calls) == 1 and names_the_short_cap(report, caps)
    assert seconds < BOUND

    @grading_run
    def calls_twice(fn):  # a grader that does not stop by itself: the run stops it
        report = Report("two calls")
        check = report.declare("second call", "the learner's code is called a second time")
        call_learner(fn, what="your function")
        check.fail(call_learner(fn, what="your function").problem)
        return report.finish()

    report, seconds = timed(calls_twice, counted_loop)
    assert len(calls) == 2 and seconds < BOUND
    assert "already did not return once" in str(report)


def test_after_a_hang_a_check_the_run_never_tried_does_not_pass():
    @grading_run
    def hangs_on_its_last_call(fn):
        report = Report("one call")
        report.declare("untried", "nothing in this run tries it")
        check = report.declare("returns", "the learner's code returns")
        call = call_learner(fn, what="your function")
        if not call.ok:
            check.fail(call.problem)
        return report.finish()  # ran=True, but the learner's code hung

    report = hangs_on_its_last_call(plain_loop)
    assert report.check("returns").passed is False and report.check("untried").passed is None


def test_code_the_supervisor_calls_for_a_grader_is_not_called_again_after_a_hang(caps):
    calls = []

    def counted_rule(role, patch):
        calls.append(role)
        while True:
            pass

    report, seconds = timed(grade_hardening, counted_rule)
    assert len(calls) == 1 and seconds < BOUND
    assert not report.passed and names_the_short_cap(report, caps)


def test_a_row_asking_for_a_million_rounds_fails_within_the_cap():
    rows = [("healthy, 1 round", {"max_rounds": 1}, "budget"), ("healthy, 4 rounds", {"max_rounds": 4}, "pass"),
            ("endless", {"coder": fizz_only_coder, "max_rounds": 1_000_000}, "budget"),
            ("endless again", {"coder": fizz_only_coder, "max_rounds": 1_000_000}, "budget")]
    report, seconds = timed(grade_fault_eval, rows)
    assert not report.passed and seconds < BOUND


def test_code_that_always_returns_but_slowly_is_stopped_by_the_total_cap(monkeypatch):
    # One call's cap far above a call's time, so that only the total can stop the run: with the
    # short cap (0.2 s) a 0.05 s sleep stretched past it on a busy machine and ended the run as a hang.
    monkeypatch.setattr(core, "CALL_SECONDS", 30.0)

    def slow_gate(outcomes):
        time.sleep(0.05)  # well inside one call's limit, far too slow for 200 cases
        return {"passed": True, "action": None, "step": None}

    report, seconds = timed(grade_gate, slow_gate)
    assert core.TOTAL_SECONDS * 0.9 < seconds < BOUND
    time_check = next(c for c in report.checks if c.name == "time")
    assert time_check.passed is False and f"after {core.TOTAL_SECONDS:g} s" in time_check.detail


# --- grading_run: the one mechanism every grader enters ------------------------------------------

@grading_run
def grade_twice(fn):
    """A small grader of our own: two checks, one call each."""
    report = Report("a test grader")
    for name in ("first", "second"):
        check = report.declare(name, "returns 1")
        call = call_learner(fn, what="your function")
        if not call.ok:
            check.fail(call.problem)
        elif call.value != 1:
            check.fail(f"it returned {call.value!r}")
    return report.finish()


def test_a_grader_whose_own_code_breaks_still_returns_its_report():
    class Hostile:
        def __eq__(self, other):
            raise RuntimeError("no comparing me")
        __hash__ = None

    report = grade_twice(lambda: Hostile())
    assert isinstance(report, Report) and not report.passed
    broken = next(c for c in report.checks if c.name == "grading")
    assert broken.passed is False and "RuntimeError: no comparing me" in broken.detail


def test_a_grader_that_returns_no_report_gets_one():
    @grading_run
    def sloppy(fn):
        return "done"

    report = sloppy(None)
    assert isinstance(report, Report) and not report.passed
    assert "it returned 'done'" in str(report)


def test_graders_called_inside_a_grader_share_its_run(caps):
    @grading_run
    def outer(fn):
        first = grade_twice(fn)
        second = grade_twice(fn)
        return second if first.passed else first

    calls = []

    def counted_loop(*args):
        calls.append(args)
        plain_loop()

    report, seconds = timed(outer, counted_loop)
    assert len(calls) == 1 and seconds < BOUND  # one hang in the whole run, not one per inner grader
    assert not report.passed and names_the_short_cap(report, caps)


def test_a_correct_function_still_passes_and_the_next_run_starts_fresh():
    assert not grade_twice(plain_loop).passed
    assert grade_twice(lambda: 1).passed


def test_learner_code_that_returns_after_catching_the_timeout_still_fails():
    def swallow():
        try:
            while True:
                pass
        except BaseException:
            return 1
    report = grade_twice(swallow)
    assert not report.passed and "did not return within" in str(report)


# --- try_it: course cells call learner code through it -------------------------------------------

@pytest.mark.parametrize("runaway", RUNAWAY, ids=lambda f: f.__name__)
def test_try_it_prints_one_sentence_and_returns_none_on_runaway_code(runaway, capsys):
    value, seconds = timed(lambda: try_it(runaway, "goal", {}, what="your reviewer"))
    assert value is None and seconds < BOUND
    printed = capsys.readouterr().out.strip()
    assert printed.startswith(f"Your reviewer did not return within {core.CALL_SECONDS:g} s: look for a loop")
    assert printed.count("\n") == 0


def test_try_it_returns_the_value_and_passes_keyword_arguments(capsys):
    assert try_it(lambda a, b=0: a + b, 2, b=3, what="your adder") == 5
    assert capsys.readouterr().out == ""


def test_try_it_says_what_to_do_for_an_untouched_stub(capsys):
    def stub(repo):
        raise NotImplementedError("Exercise: replace this line with your code")
    assert try_it(stub, {}, what="your run_tests") is None
    assert "Your run_tests is not written yet: replace the `raise NotImplementedError`" in capsys.readouterr().out


def test_try_it_names_the_error_and_never_raises(capsys):
    assert try_it(lambda: 1 / 0, what="your gate") is None
    assert capsys.readouterr().out.strip() == "Your gate raised ZeroDivisionError: division by zero."


def test_try_it_on_something_that_is_not_a_function(capsys):
    assert try_it(None, what="your run_team") is None
    assert "Your run_team is None, not a function" in capsys.readouterr().out


def test_try_it_passes_the_learners_own_interrupt_on():
    def stop():
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        try_it(stop)


# --- the caps: learner time, and the whole run -----------------------------------------------------

def grader_with_slow_own_work(pause):
    """A grader whose own work between three calls of the learner's code takes ``pause`` each time."""
    @grading_run
    def grade(fn):
        report = Report("slow own work")
        check = report.declare("returns 1", "returns 1 every time")
        for _ in range(3):
            time.sleep(pause)  # the grader's own reference work, say on a loaded machine
            call = call_learner(fn, what="your function")
            if not call.ok or call.value != 1:
                check.fail(call.problem or f"it returned {call.value!r}")
        return report.finish()
    return grade


def test_the_graders_own_time_does_not_count_against_the_learners_cap(monkeypatch):
    monkeypatch.setattr(core, "TOTAL_SECONDS", 0.3)
    # One call's cap far above a call's time: only the total may stop the run (a 0.15 s sleep once
    # took over the short 0.2 s call cap on a busy machine, and the run ended as a hang instead).
    monkeypatch.setattr(core, "CALL_SECONDS", 30.0)
    report, seconds = timed(grader_with_slow_own_work(0.2), lambda: 1)
    assert seconds > 0.6 and report.passed  # twice the learner's cap, all of it the grader's own

    def slow():
        time.sleep(0.15)
        return 1
    report = grader_with_slow_own_work(0.0)(slow)
    time_check = next(c for c in report.checks if c.name == "time")
    assert not report.passed and "after 0.3 s of your code's time" in time_check.detail


def test_the_whole_run_still_has_a_wall_clock_cap(monkeypatch):
    monkeypatch.setattr(core, "WALL_SECONDS", 0.3)
    calls = []
    report, seconds = timed(grader_with_slow_own_work(0.2), lambda: calls.append(1) or 1)
    time_check = next(c for c in report.checks if c.name == "time")
    assert not report.passed and "after 0.3 s, the longest" in time_check.detail
    assert len(calls) < 3 and seconds < BOUND  # stopped at the first call started after the cap
