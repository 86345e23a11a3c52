"""grade_run_team: the reference passes; each classic bug fails the check that names it."""

import time

import pytest

from agent_team.grading import grade_run_team
from agent_team.clip import safe_repr
from agent_team.grading.core import Check, Report, call_learner, line_divergence
from agent_team.grading.run_team import NAMED, REQUIREMENTS
from agent_team.protocol import SEED_EXAMPLE, run_team
from grader_helpers import first_failing

CHECK_NAMES = [name for name, _ in REQUIREMENTS]


_REPORTS = {}


def grade(fn, bound=15.0):
    """Grade ``fn`` once per session (grading a hang takes seconds; keep the suite fast)."""
    key = id(fn), bound
    if key in _REPORTS and _REPORTS[key][0] is fn:
        return _REPORTS[key][1]
    start = time.perf_counter()
    report = grade_run_team(fn)
    elapsed = time.perf_counter() - start
    assert elapsed < bound, f"grading took {elapsed:.1f} s"
    _REPORTS[key] = fn, report
    return report


def by_name(report):
    return {c.name: c for c in report.checks}


# --- the protocol, written once: the reference, or one of its classic bugs ----------------------

def protocol(task, planner, coder, reviewer, tester, max_rounds, *, feedback="prefixed",
             approve_if_contains=False, extra_rounds=0, stop_on_pass=True,
             reviewer_logged_first=False, log_only=False, last_code_on_failure=False,
             swap_task_and_plan=False, review_first_code=False, plan_every_round=False,
             keywords=False):
    """Plan once, then up to ``max_rounds`` rounds of coder -> reviewer -> (tester), like
    ``run_team``. With the defaults this *is* the reference; each keyword switches on one bug.
    ``feedback`` is "prefixed" ('review: '/'test: '), "bare" (no prefix) or "stale" (always '')."""
    def call(agent, **args):
        return agent(**args) if keywords else agent(*args.values())

    def tell(prefix, text):  # the feedback the coder gets next round
        return {"prefixed": lambda: prefix + text, "bare": lambda: text, "stale": str}[feedback]()

    def finish(code):
        return log if log_only else (code, log)

    def make_plan():
        plan = planner(task)
        log.append(("planner", plan))
        return plan

    log, said, code, passed, first = [], "", None, None, None
    plan = None if plan_every_round else make_plan()
    for _ in range(max_rounds + extra_rounds):
        if plan_every_round:
            plan = make_plan()
        if swap_task_and_plan:
            code = call(coder, task=plan, plan=task, feedback=said)
        else:
            code = call(coder, task=task, plan=plan, feedback=said)
        first = first or code
        review = call(reviewer, code=first if review_first_code else code)
        spoken = [("coder", code), ("reviewer", review)]
        log.extend(reversed(spoken) if reviewer_logged_first else spoken)
        if not ("APPROVE" in review if approve_if_contains else review.startswith("APPROVE")):
            said = tell("review: ", review)
            continue
        result = call(tester, code=code)
        log.append(("tester", result))
        if result.startswith("PASS"):
            if stop_on_pass:
                return finish(code)
            passed = code
        said = tell("test: ", result)
    return finish(code if last_code_on_failure else passed)


def mutant(name, **bugs):
    """A learner's ``run_team`` called ``name``: ``protocol`` with ``bugs`` switched on."""
    unknown = set(bugs) - set(protocol.__kwdefaults__)
    assert not unknown, f"protocol has no such bug: {sorted(unknown)}"

    def run_team_version(task, planner, coder, reviewer, tester, max_rounds):
        return protocol(task, planner, coder, reviewer, tester, max_rounds, **bugs)
    run_team_version.__name__ = run_team_version.__qualname__ = name
    return run_team_version


# --- the reference and the stub ---------------------------------------------------------------

@pytest.fixture(scope="module")
def reference_report():
    return grade(run_team, bound=5.0)


def test_the_reference_passes_every_check(reference_report):
    report = reference_report
    assert report.passed and report.outcome == "passed"
    assert [c.name for c in report.checks] == CHECK_NAMES
    assert all(c.passed is True for c in report.checks)
    assert str(report).splitlines()[0].endswith("PASSED")
    assert "FAIL" not in str(report)


def test_a_copy_of_the_reference_passes_too():
    assert grade(mutant("mine")).passed  # the protocol with no bug switched on


def test_keyword_arguments_to_the_agents_are_fine():
    assert grade(mutant("kw", keywords=True)).passed  # coder(task=..., plan=..., feedback=...)


def test_a_stub_raising_not_implemented_gets_a_friendly_report():
    def stub(task, planner, coder, reviewer, tester, max_rounds):
        raise NotImplementedError
    report = grade(stub, bound=3.0)
    assert not report.passed
    assert report.outcome == "not implemented"
    text = str(report)
    assert "NOT IMPLEMENTED" in text and "NotImplementedError" in text
    assert "Traceback" not in text
    # nothing was tried, so no check claims a pass
    assert not any(c.passed for c in report.checks)


@pytest.mark.parametrize("not_a_function", [None, "run_team", 42])
def test_something_not_callable_fails_returns(not_a_function):
    report = grade(not_a_function, bound=2.0)
    assert not report.passed and by_name(report)["returns"].passed is False
    assert "not a function" in by_name(report)["returns"].detail


# --- buggy versions: each fails the check named after its bug -----------------------------------

# BUG: never passes the feedback on
stale_feedback = mutant("stale_feedback", feedback="stale")
# BUG: no "review: " / "test: " prefix on the feedback
no_prefix = mutant("no_prefix", feedback="bare")
# BUG: "NOT APPROVE" counts as approval ("APPROVE" in review)
runs_tester_on_unapproved = mutant("runs_tester_on_unapproved", approve_if_contains=True)
# BUG: off by one, max_rounds + 1 rounds
one_round_too_many = mutant("one_round_too_many", extra_rounds=1)
# BUG: remembers the pass but keeps going
does_not_stop_on_pass = mutant("does_not_stop_on_pass", stop_on_pass=False)
# BUG: reviewer logged before the coder
wrong_log_order = mutant("wrong_log_order", reviewer_logged_first=True)
# BUG: forgets the code, returns only the log
log_only = mutant("log_only", log_only=True)
# BUG: returns the last code, passed or not
code_even_on_failure = mutant("code_even_on_failure", last_code_on_failure=True)
# BUG: task and plan swapped in the coder's arguments
swapped_arguments = mutant("swapped_arguments", swap_task_and_plan=True)
# BUG: always reviews the first version
reviews_stale_code = mutant("reviews_stale_code", review_first_code=True)
# BUG: plans every round (and not at all for 0)
plans_every_round = mutant("plans_every_round", plan_every_round=True)


# Bugs of a different shape, written out.

def infinite_loop(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    rounds = 0
    while rounds < max_rounds or max_rounds == 0:  # BUG: rounds never grows
        plan = plan + ""
    return None, [("planner", plan)]


def calls_agents_forever(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback = [("planner", plan)], ""
    while True:                                    # BUG: no round limit
        code = coder(task, plan, feedback)
        review = reviewer(code)
        log += [("coder", code), ("reviewer", review)]
        if not review.startswith("APPROVE"):
            feedback = "review: " + review
            continue
        result = tester(code)
        log.append(("tester", result))
        if result.startswith("PASS"):
            return code, log
        feedback = "test: " + result


def raises_value_error(task, planner, coder, reviewer, tester, max_rounds):
    planner(task)
    raise ValueError("oops, my bug")


BUGGY = [
    (stale_feedback, "feedback"),
    (no_prefix, "feedback"),
    (runs_tester_on_unapproved, "tester only on approved"),
    (one_round_too_many, "rounds"),
    (does_not_stop_on_pass, "stop on PASS"),
    (wrong_log_order, "log"),
    (log_only, "shape"),
    (code_even_on_failure, "result"),
    (infinite_loop, "returns"),
    (calls_agents_forever, "rounds"),
    (raises_value_error, "returns"),
    (swapped_arguments, "feedback"),
    (reviews_stale_code, "review every round"),
    (plans_every_round, "plan once"),
]


@pytest.mark.parametrize("fn, check", BUGGY, ids=[f.__name__ for f, _ in BUGGY])
def test_each_bug_fails_first_the_check_that_names_it(fn, check, request):
    if fn is infinite_loop:
        request.getfixturevalue("short_caps")  # a hang costs a fifth of a second, not 2 s
    report = grade(fn)
    checks = by_name(report)
    assert not report.passed and report.outcome == "not yet"
    assert first_failing(report).name == check, str(report)
    assert checks[check].detail
    # the failing check and its explanation are in the plain-text report
    text = str(report)
    assert f"[FAIL] {check}:" in text and checks[check].detail.splitlines()[0] in text


BUGS_THAT_RETURN = [(f, c) for f, c in BUGGY
                    if f not in (infinite_loop, calls_agents_forever, raises_value_error, log_only)]


@pytest.mark.parametrize("fn, check", BUGS_THAT_RETURN, ids=[f.__name__ for f, _ in BUGS_THAT_RETURN])
def test_bugs_that_return_do_not_fail_returns_or_shape(fn, check):
    checks = by_name(grade(fn))
    assert checks["returns"].passed is True and checks["shape"].passed is True


def test_stale_feedback_says_what_the_coder_should_have_got():
    detail = by_name(grade(stale_feedback))["feedback"].detail
    assert "review: REJECT: no error handling" in detail and "round 2" in detail
    assert SEED_EXAMPLE.name in detail


def test_runs_tester_on_unapproved_names_the_unapproved_code():
    detail = by_name(grade(runs_tester_on_unapproved))["tester only on approved"].detail
    assert "does not start with 'APPROVE'" in detail and "test:" not in detail


def test_one_round_too_many_says_how_many_calls():
    detail = by_name(grade(one_round_too_many))["rounds"].detail
    assert "max_rounds=" in detail and "times" in detail


def test_an_infinite_loop_is_reported_quickly_as_not_returning(short_caps):
    start = time.perf_counter()
    report = grade_run_team(infinite_loop)
    assert time.perf_counter() - start < 30  # a hang guard, read at call time, not a speed check
    detail = by_name(report)["returns"].detail
    assert f"did not return within {short_caps.call:g} s" in detail and "loop" in detail  # the short cap


def test_a_loop_calling_agents_forever_is_reported():
    checks = by_name(grade(calls_agents_forever))
    assert "never returned" in checks["returns"].detail and "max_rounds" in checks["returns"].detail
    assert checks["rounds"].passed is False and "at most max_rounds times" in checks["rounds"].detail


def test_raising_reports_the_error_in_words_and_does_not_raise():
    detail = by_name(grade(raises_value_error))["returns"].detail
    assert "ValueError: oops, my bug" in detail


@pytest.mark.parametrize("value", [None, "v3", ("v3",), ("v3", "log", "extra"), ("v3", "not a list"),
                                   ("v3", [("planner", "P", "extra")]), ("v3", ["planner"])])
def test_wrong_return_shapes_fail_shape(value):
    report = grade(lambda *args: value, bound=5.0)
    assert by_name(report)["shape"].passed is False


def test_a_keyboard_interrupt_is_not_swallowed_by_the_grader():
    def stop(*args):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        grade_run_team(stop)


def test_a_hostile_return_value_does_not_break_the_report():
    class Nasty:
        def __repr__(self):
            raise RuntimeError("no repr for you")

        def __eq__(self, other):
            raise RuntimeError("no eq either")
    report = grade(lambda *args: Nasty(), bound=5.0)
    assert not report.passed and "whose repr failed" in str(report)


# --- the text of the report -------------------------------------------------------------------

def test_report_text_shows_scenario_and_expected_vs_got():
    report = grade(stale_feedback)
    text = str(report)
    assert text.splitlines()[0] == "Exercise 3.1: run_team: NOT YET"
    assert "First difference, in" in text and "expected" in text and "got" in text
    assert "Hint:" in text


def test_the_divergence_names_the_scenario_and_the_first_differing_call():
    report = grade(stale_feedback)
    div = by_name(report)["feedback"].divergence
    assert div is not None and div.scenario == SEED_EXAMPLE.called  # "the scenario '…'"
    text = str(div)
    assert SEED_EXAMPLE.name in text and "call 4" in div.step
    marked = [line for line in text.splitlines() if line.startswith(" >>")]
    assert any("review: REJECT: no error handling" in line and "expected" in line for line in marked)
    assert any("got" in line and "coder('Write fizzbuzz', 'PLAN: 15, 3, 5, else str(n)', '')" in line
               for line in marked)


def test_the_log_divergence_names_the_log_entry():
    div = by_name(grade(wrong_log_order))["log"].divergence
    assert div is not None and div.step == "log entry 2"
    assert "expected coder: 'v1'" in str(div) and "got reviewer:" in str(div)


def test_report_repr_and_html():
    report = grade(stale_feedback)
    assert repr(report).startswith("<Report 'Exercise 3.1: run_team': not yet")
    html = report._repr_html_()
    assert isinstance(html, str) and "feedback" in html


def test_named_scenarios_include_the_ones_the_issue_asks_for():
    names = " | ".join(s.name for s in NAMED)
    assert SEED_EXAMPLE in NAMED
    assert any(s.max_rounds == 0 for s in NAMED)
    assert "contain the keyword but do not start" in names
    assert "run out" in names


# --- core helpers -----------------------------------------------------------------------------

def test_first_divergence_finds_the_first_mismatch_with_context():
    div = line_divergence("sc", list("abcdefg"), list("abcdXfg"))
    assert div.step == "step 5"
    assert div.expected[div.index] == "e" and div.actual[div.index] == "X"
    assert line_divergence("sc", ["a"], ["a"]) is None
    short = line_divergence("sc", ["a", "b"], ["a"])
    assert "(nothing)" in str(short)


def test_check_fail_keeps_the_first_failure():
    c = Check("x", "req")
    c.fail("first")
    c.fail("second")
    assert c.passed is False and c.detail == "first"


def test_report_with_no_checks_does_not_pass():
    assert not Report("empty").passed


def test_finish_without_a_run_leaves_unfailed_checks_unknown():
    report = Report("r")
    report.declare("a", "req")
    report.finish(ran=False)
    assert report.checks[0].passed is None and not report.passed
    assert "[----] a" in str(report)


def test_call_learner_never_raises():
    assert call_learner(lambda: 5).value == 5
    bad = call_learner(lambda: 1 / 0, what="f")
    assert not bad.ok and "f raised ZeroDivisionError" in bad.problem
    nie = call_learner(lambda: (_ for _ in ()).throw(NotImplementedError()))
    assert nie.not_implemented


def test_show_is_short_and_safe():
    assert safe_repr("x" * 1000, limit=20).endswith("…") and len(safe_repr("x" * 1000, limit=20)) == 20


def test_rules_after_the_first_break_show_as_not_run_not_passed():
    # Never calls an agent: the planner rule breaks first in every scenario; the rest were never judged.
    report = grade_run_team(lambda task, planner, coder, reviewer, tester, max_rounds: ("x", []))
    assert [c.name for c in report.checks if c.passed is True] == ["shape", "returns"]
    assert [c.name for c in report.checks if c.passed is False] == ["plan once"]
