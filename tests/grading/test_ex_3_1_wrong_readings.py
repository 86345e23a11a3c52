"""Exercise 3.1: the wrong readings a learner walk and an unseen corpus found accepted, or
reported as nearly passing, and what the grader says about them now.

| the text says | wrong reading | mutant |
|---|---|---|
| for at most `max_rounds` rounds | a round cap of my own, past 40 | ``caps_rounds_at_50``, ``_120`` |
| the log lists every `(role, output)` pair | one log for every call, made once | ``log_kept_between_calls`` |
| (same) | one list, emptied at each call and returned again | ``log_list_reused`` |
| `feedback = ""` at first | the feedback of the last call carried into the next | ``feedback_kept_between_calls`` |
| run_team returns (it does not raise) | a crash is one failed check among passes | ``crashes_on_rejection`` |
| Return `(code, log)` | a log far longer than any run (the grader's own work must stay bounded) | ``huge_log`` |

Measured: before, ``caps_rounds_at_50``, ``caps_rounds_at_120`` and ``log_list_reused`` were
accepted (3 of 6 wrong readings), the shared log and feedback were rejected with messages that
did not name the cause, a crash read "11 of 12 checks pass", and a 5,000,000-entry log kept the
grader busy until its 15 s cap; now every one is rejected with a message that names it, a crash
leaves the checks it stopped unjudged, and a huge log is refused at once.
"""

import re
import time

import pytest

from grader_helpers import first_failing

from agent_team.grading import core, grade_run_team


def team(cap=None, log_store=None, feedback_store=None, crash=False, huge=0):
    big = [("tester", "PASS")] * (huge or 0)  # built once, before grading: its cost is the grader's, not the learner's

    def run_team(task, planner, coder, reviewer, tester, max_rounds):
        plan = planner(task)
        if log_store is not None:
            if huge is None:
                log_store.clear()
            log = log_store
        else:
            log = []
        log.append(("planner", plan))
        feedback = feedback_store[0] if feedback_store else ""
        rounds = max_rounds if cap is None else min(max_rounds, cap)
        for _ in range(rounds):
            code = coder(task, plan, feedback)
            review = reviewer(code)
            log += [("coder", code), ("reviewer", review)]
            if not review.startswith("APPROVE"):
                if crash:
                    feedback = "review: " + reveiw  # noqa: F821 -- the typo is the mistake
                feedback = "review: " + review
                if feedback_store:
                    feedback_store[0] = feedback
                continue
            result = tester(code)
            log.append(("tester", result))
            if result.startswith("PASS"):
                return code, (big if huge else log)
            feedback = "test: " + result
            if feedback_store:
                feedback_store[0] = feedback
        return None, log
    return run_team


def failed(report):
    return [c.name for c in report.checks if c.passed is False]


def test_a_hidden_round_cap_is_rejected_by_keep_going():
    for cap in (50, 120):
        first = first_failing(grade_run_team(team(cap=cap)))
        assert first and first.name == "keep going", cap
        assert f"stopped after {cap} of max_rounds=" in first.detail


def test_a_log_kept_between_calls_is_named():
    report = grade_run_team(team(log_store=[], huge=0))
    first = first_failing(report)
    assert first.name == "log", str(report)
    assert "earlier call" in first.detail and "inside run_team" in first.detail


def test_a_log_list_reused_is_caught_by_aliasing():
    report = grade_run_team(team(log_store=[], huge=None))
    first = first_failing(report)
    assert first is not None and first.name == "log", str(report)
    assert "same list" in first.detail


def test_feedback_kept_between_calls_is_named():
    report = grade_run_team(team(feedback_store=[""]))
    first = first_failing(report)
    assert first.name == "feedback", str(report)
    assert "earlier call" in first.detail


def test_a_crash_leaves_the_checks_it_stopped_unjudged_not_passed():
    report = grade_run_team(team(crash=True))
    assert failed(report) == ["returns"], str(report)
    assert "NameError" in report.check("returns").detail
    assert not any(c.passed for c in report.checks), str(report)  # nothing shows as a pass
    assert "0 of 12 checks pass; 1 fails; 11 not run" in str(report)


def test_a_huge_log_is_refused_at_once_with_a_clear_message():
    start = time.perf_counter()
    report = grade_run_team(team(huge=5_000_000))
    spent = time.perf_counter() - start
    first = first_failing(report)
    assert first is not None and first.name == "shape", str(report)
    assert "5,000,00" in first.detail and "entries" in first.detail
    assert spent < core.WALL_SECONDS / 2, spent  # generous: it was the whole 15 s cap before


@pytest.mark.parametrize("kind", ["cap", "log", "feedback", "crash"])
def test_a_message_names_its_scenario_as_a_scenario_so_it_reads_as_a_sentence(kind):
    # "In the rounds run out (the reviewer always rejects), round 4: ..." reads as broken English:
    # a scenario's name is a noun phrase, so a message quotes it after "the scenario".
    fn = {"cap": lambda: team(cap=50), "log": lambda: team(log_store=[], huge=0),
          "feedback": lambda: team(feedback_store=[""]), "crash": lambda: team(crash=True)}[kind]()
    report = grade_run_team(fn)
    detail = first_failing(report).detail
    assert "the scenario '" in detail, detail
    assert not re.search(r"\b[Ii]n (?!the scenario ')", detail.split(":")[0]), detail
