"""Exercise 3.1: correct run_teams written in other styles all pass; hostile ones never break the grader."""

import itertools
import re

import pytest

from agent_team.grading import grade_run_team
from agent_team.protocol import run_team as reference
from hostile import Exploding, ExplodingList, ExplodingStr


def with_while(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log = [("planner", plan)]
    feedback, rounds = "", 0
    while rounds < max_rounds:
        rounds += 1
        code = coder(task, plan, feedback)
        log.append(("coder", code))
        review = reviewer(code)
        log.append(("reviewer", review))
        if review.startswith("APPROVE"):
            result = tester(code)
            log.append(("tester", result))
            if result.startswith("PASS"):
                return (code, log)
            feedback = "test: " + result
        else:
            feedback = "review: " + review
    return (None, log)


def with_keywords_and_lists(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task=task)
    log = [["planner", plan]]
    feedback = ""
    for _ in range(max_rounds):
        code = coder(task=task, plan=plan, feedback=feedback)
        review = reviewer(code=code)
        log += [["coder", code], ["reviewer", review]]
        if review[:7] != "APPROVE":
            feedback = f"review: {review}"
            continue
        result = tester(code=code)
        log.append(["tester", result])
        if result[:4] == "PASS":
            return [code, log]
        feedback = f"test: {result}"
    return [None, log]


def with_a_state_machine(task, planner, coder, reviewer, tester, max_rounds):
    state, log, feedback, code, rounds, plan = "plan", [], "", None, 0, None
    while True:
        if state == "plan":
            plan = planner(task)
            log.append(("planner", plan))
            state = "code"
        elif state == "code":
            if rounds == max_rounds:
                return None, log
            rounds += 1
            code = coder(task, plan, feedback)
            log.append(("coder", code))
            state = "review"
        elif state == "review":
            verdict = reviewer(code)
            log.append(("reviewer", verdict))
            if verdict.startswith("APPROVE"):
                state = "test"
            else:
                feedback, state = "review: " + verdict, "code"
        else:
            result = tester(code)
            log.append(("tester", result))
            if result.startswith("PASS"):
                return code, log
            feedback, state = "test: " + result, "code"


def with_a_helper(task, planner, coder, reviewer, tester, max_rounds):
    def one_round(plan, feedback, log):
        code = coder(task, plan, feedback)
        review = reviewer(code)
        log.extend([("coder", code), ("reviewer", review)])
        if not review.startswith("APPROVE"):
            return None, "review: " + review
        result = tester(code)
        log.append(("tester", result))
        return (code, None) if result.startswith("PASS") else (None, "test: " + result)

    log = [("planner", planner(task))]
    feedback = ""
    for _ in range(max_rounds):
        done, feedback = one_round(log[0][1], feedback, log)
        if feedback is None:
            return done, log
    return None, log


def with_regex(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback = [("planner", plan)], ""
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        review = reviewer(code)
        log += [("coder", code), ("reviewer", review)]
        if not re.match("APPROVE", review):
            feedback = "review: " + review
            continue
        result = tester(code)
        log += [("tester", result)]
        if re.match(r"PASS", result):
            return code, log
        feedback = "test: " + result
    return None, log


def with_find_and_count(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback = [("planner", plan)], ""
    for n in itertools.count(1):
        if n > max_rounds:
            break
        code = coder(task, plan, feedback)
        review = reviewer(code)
        log.append(("coder", code))
        log.append(("reviewer", review))
        if review.find("APPROVE") != 0:
            feedback = "review: " + review
        else:
            result = tester(code)
            log.append(("tester", result))
            if result.find("PASS") == 0:
                return code, log
            feedback = "test: " + result
    return None, log


def with_for_else(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback, passed = [("planner", plan)], "", None
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        log.append(("coder", code))
        review = reviewer(code)
        log.append(("reviewer", review))
        approved = review.startswith("APPROVE")
        result = tester(code) if approved else None
        if approved:
            log.append(("tester", result))
        if approved and result.startswith("PASS"):
            passed = code
            break
        feedback = ("test: " + result) if approved else ("review: " + review)
    else:
        return None, log
    return passed, log


def with_a_generator(task, planner, coder, reviewer, tester, max_rounds):
    def speak():
        plan = planner(task)
        yield "planner", plan
        feedback = ""
        for _ in range(max_rounds):
            code = coder(task, plan, feedback)
            yield "coder", code
            review = reviewer(code)
            yield "reviewer", review
            if not review.startswith(("APPROVE",)):
                feedback = "review: " + review
                continue
            result = tester(code)
            yield "tester", result
            if result.startswith("PASS"):
                return
            feedback = "test: " + result

    log = list(speak())
    won = len(log) > 1 and log[-1][0] == "tester" and log[-1][1].startswith("PASS")
    return (log[-3][1] if won else None), log


def with_a_class(task, planner, coder, reviewer, tester, max_rounds):
    class Team:
        def __init__(self):
            self.log, self.feedback = [], ""

        def say(self, role, text):
            self.log.append((role, text))
            return text

        def run(self):
            plan = self.say("planner", planner(task))
            for _ in range(max_rounds):
                code = self.say("coder", coder(task, plan, self.feedback))
                review = self.say("reviewer", reviewer(code))
                if not review.startswith("APPROVE"):
                    self.feedback = "review: " + review
                    continue
                result = self.say("tester", tester(code))
                if result.startswith("PASS"):
                    return code
                self.feedback = "test: " + result
            return None

    team = Team()
    return team.run(), team.log


CORRECT = [reference, with_while, with_keywords_and_lists, with_a_state_machine, with_a_helper, with_regex,
           with_find_and_count, with_for_else, with_a_generator, with_a_class]


@pytest.mark.parametrize("fn", CORRECT, ids=[f.__name__ for f in CORRECT])
def test_a_correct_run_team_in_any_style_passes(fn):
    report = grade_run_team(fn)
    assert report.passed, str(report)
    assert all(c.passed is True for c in report.checks)


# --- hostile learners: a failing report, never a raise, and the reference still passes after ------

def returns(value):
    def run_team(task, planner, coder, reviewer, tester, max_rounds):
        reference(task, planner, coder, reviewer, tester, max_rounds)
        return value
    return run_team


def passes_exploding_feedback(task, planner, coder, reviewer, tester, max_rounds):
    return reference(task, planner, lambda t, p, f: coder(t, p, Exploding()), reviewer, tester, max_rounds)


def passes_exploding_str_to_the_reviewer(task, planner, coder, reviewer, tester, max_rounds):
    return reference(task, planner, coder, lambda c: reviewer(ExplodingStr(c)), tester, max_rounds)


def mutates_what_it_can_reach(task, planner, coder, reviewer, tester, max_rounds):
    script = coder.__self__
    script.codes.clear()
    script.codes.append("hacked")
    script.calls.append(("tester", ("x",), "PASS"))
    return "v1", [("planner", "x")]


HOSTILE = [returns(Exploding()), returns((Exploding(), [])), returns(("v3", ExplodingList())),
           returns(("v3", [(ExplodingStr("coder"), "v1")])), returns(ExplodingList(["v3", []])),
           returns((ExplodingStr("v3"), [])), returns(("v3", [("planner", Exploding())])),
           passes_exploding_feedback, passes_exploding_str_to_the_reviewer, mutates_what_it_can_reach]


@pytest.mark.parametrize("fn", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_run_team_fails_with_words_and_the_reference_still_passes_after(fn):
    report = grade_run_team(fn)
    assert not report.passed
    assert next(c for c in report.checks if c.passed is False).detail
    assert "Traceback" not in str(report) and report._repr_html_()
    assert grade_run_team(reference).passed
