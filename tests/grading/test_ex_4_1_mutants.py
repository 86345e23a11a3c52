"""Exercise 4.1, an eval of faults: wrong evals written from the exercise text (each breaks one
sentence of it) are rejected by the check naming that sentence; correct ones are accepted.

Measured (the test below keeps it true): 42 of 42 wrong evals rejected with the right first check, 9 of 9
correct ones accepted."""

import re
import time

import pytest
from grader_helpers import FIZZ, GOOD, GREEDY, H1, H4, STUBBORN, WIPE, assert_accepted, assert_rejected_by

from agent_team.faults import FAULTS, fizz_only_coder, garbage_reviewer, greedy_planner, stubborn_reviewer, wipe_plan
from agent_team.faults import test_editing_coder as edits_tests_coder
from agent_team.grading import grade_fault_eval
from agent_team.policies import FULL_SOURCE, fake_coder, fake_planner, fake_reviewer, output
from agent_team.repo import SRC_PATH, initial_repo



def looping_coder(goal, view):
    while True:
        pass


def thoughtful_coder(goal, view):
    out = fake_coder(goal, view)
    return {**out, "thought": "I am thinking very differently today"}


def chatty_reviewer(goal, view):
    out = fake_reviewer(goal, view)
    return {**out, "message": out["message"] + " (said politely)"}


def syntax_error_coder(goal, view):
    return output("coder", "oops", [{"path": SRC_PATH, "content": "def fizzbuzz(n)\n    return n\n"}], "oops")


def refuse_every_coder_patch(role, patch):
    return "no coding today" if role == "coder" else None


def same_repo(repo, round_):
    return repo


SOLVED = {**initial_repo(), SRC_PATH: FULL_SOURCE}


class Uncopyable:
    def __deepcopy__(self, memo):
        raise RuntimeError("no copies")

    def __call__(self, goal, view):
        return fake_coder(goal, view)


MUTANTS = {
    # rows
    "a dict of rows": ({r[0]: r[1:] for r in GOOD}, "rows"),
    "a tuple of rows": (tuple(GOOD), "rows"),
    "rows of two": ([r[:2] for r in GOOD], "rows"),
    "status in capitals": ([(n, k, e.upper()) for n, k, e in GOOD], "rows"),
    "status as a bool": ([(n, k, e == "pass") for n, k, e in GOOD], "rows"),
    "status 'fail'": ([(n, k, "fail" if e == "budget" else e) for n, k, e in GOOD], "rows"),
    "kwargs as pairs": ([(n, list(k.items()), e) for n, k, e in GOOD], "rows"),
    "name as a number": ([(i, k, e) for i, (n, k, e) in enumerate(GOOD)], "rows"),
    "rows as dicts": ([{"name": n, "kwargs": k, "expected": e} for n, k, e in GOOD], "rows"),
    "an unknown keyword": (GOOD + [("short", {"rounds": 2}, "budget")], "rows"),
    "max_rounds as text": ([H1, ("healthy, 4", {"max_rounds": "4"}, "pass")] + GOOD[2:], "rows"),
    "max_rounds as True": (GOOD + [("one round?", {"max_rounds": True}, "budget")], "rows"),
    "negative rounds": (GOOD + [("none", {"max_rounds": -1}, "budget")], "rows"),
    "a policy that is not a function": (GOOD + [("text coder", {"coder": "fizz_only_coder"}, "budget")], "rows"),
    "kwargs that cannot be copied": (GOOD + [("odd", {"coder": Uncopyable()}, "budget")], "rows"),
    # row limits
    "a thousand rounds": (GOOD + [("long", {"coder": fizz_only_coder, "max_rounds": 1000}, "budget")],
                          "row limits"),
    "thirteen rounds": (GOOD + [("long", {"coder": fizz_only_coder, "max_rounds": 13}, "budget")], "row limits"),
    "ten seconds a turn": (GOOD + [("patient", {"seconds": 10}, "pass")], "row limits"),
    "too many rows": (GOOD + [FIZZ] * 11, "row limits"),
    "a looping coder at the default seconds": (GOOD + [("loops", {"coder": looping_coder}, "budget")],
                                               "row limits"),
    # healthy rows
    "no 1-round row": ([H4, FIZZ, STUBBORN, WIPE], "healthy rows"),
    "no 4-round row": ([H1, FIZZ, STUBBORN, WIPE], "healthy rows"),
    "2 rounds instead of 1": ([("healthy, 2", {"max_rounds": 2}, "pass"), H4, FIZZ, WIPE], "healthy rows"),
    "the 4-round row expects budget": ([H1, ("healthy, 4", {"max_rounds": 4}, "budget"), FIZZ, WIPE],
                                       "healthy rows"),
    "healthy rows only under a fault key": ([("h1", {"max_rounds": 1, "coder": fizz_only_coder}, "budget"),
                                             ("h4", {"max_rounds": 4, "planner": greedy_planner}, "pass"),
                                             FIZZ, WIPE], "healthy rows"),
    # two faults
    "one fault": ([H1, H4, FIZZ], "two faults"),
    "coder None is no fault": ([H1, H4, FIZZ, ("no coder", {"coder": None, "max_rounds": 4}, "pass")],
                               "two faults"),
    "the healthy coder under a fault key": ([H1, H4, FIZZ, ("coder", {"coder": fake_coder}, "pass")],
                                            "two faults"),
    "a lambda around the healthy planner": ([H1, H4, FIZZ, ("planner", {"planner": lambda g, v: fake_planner(g, v)},
                                                                     "pass")], "two faults"),
    "an empty rules list": ([H1, H4, WIPE, ("no rules", {"rules": []}, "pass")], "two faults"),
    "a tamper that changes nothing": ([H1, H4, FIZZ, ("tamper", {"tamper": same_repo}, "pass")], "two faults"),
    "require_plan off": ([H1, H4, FIZZ, ("no plan rule", {"require_plan": False}, "pass")], "two faults"),
    "only the coder's thought differs": ([H1, H4, WIPE, ("thinks", {"coder": thoughtful_coder}, "pass")],
                                         "two faults"),
    "only the reviewer's wording differs": ([H1, H4, FIZZ, ("polite", {"reviewer": chatty_reviewer}, "pass")],
                                            "two faults"),
    "a solved repo, same trace": ([H1, H4, FIZZ, ("solved", {"repo": SOLVED}, "pass")], "two faults"),
    # expectations
    "fizz-only expects pass": ([H1, H4, ("fizz", {"coder": fizz_only_coder}, "pass"), WIPE], "expectations"),
    "stubborn reviewer expects budget": ([H1, H4, FIZZ, ("stubborn", {"reviewer": stubborn_reviewer}, "budget")],
                                         "expectations"),
    "plan wiped expects budget": ([H1, H4, FIZZ, ("wiped", {"tamper": wipe_plan}, "budget")], "expectations"),
    "greedy planner expects budget": ([H1, H4, FIZZ, ("greedy", {"planner": greedy_planner}, "budget")],
                                      "expectations"),
    "test editing expects pass": ([H1, H4, FIZZ, ("edits tests", {"coder": edits_tests_coder}, "pass")],
                                  "expectations"),
    "garbage reviewer expects budget": ([H1, H4, FIZZ, ("garbage", {"reviewer": garbage_reviewer}, "budget")],
                                        "expectations"),
    # budget means red
    "a budget row that ends green": (GOOD + [("no rounds, solved", {"max_rounds": 0, "repo": SOLVED}, "budget")],
                                     "budget means red"),
}


def _rows(*rows):
    return list(rows)


CORRECT = {
    "the reference": GOOD,
    "rows as lists": [list(r) for r in GOOD],
    "defaults spelled out": [("h1", {"max_rounds": 1, "seconds": 2.0, "require_plan": True, "rules": [],
                                     "planner": None, "coder": None, "reviewer": None, "tamper": None}, "budget"),
                             ("h4", {"max_rounds": 4, "seconds": 2, "repo": None}, "pass"), FIZZ, WIPE],
    "healthy 4 by its default": [H1, ("default", {}, "pass"), FIZZ, GREEDY],
    "from the FAULTS table": [H1, H4] + [(f.name, {**f.kwargs, "max_rounds": 4}, f.expect)
                                         for f in list(FAULTS.values())[:8]],
    "own faults": [H1, H4, ("syntax error", {"coder": syntax_error_coder, "max_rounds": 3}, "budget"),
                   ("rule refuses the coder", {"rules": [refuse_every_coder_patch]}, "budget")],
    "a looping coder with a short limit": [H1, H4, FIZZ, ("loops", {"coder": looping_coder, "max_rounds": 2,
                                                                   "seconds": 0.05}, "budget")],
    "zero and twelve rounds": [("nothing", {"max_rounds": 0}, "budget"), H1, H4,
                               ("fizz for long", {"coder": fizz_only_coder, "max_rounds": 12}, "budget"),
                               ("stubborn, 1 round", {"reviewer": stubborn_reviewer, "max_rounds": 1}, "budget"),
                               ("greedy, 2 rounds", {"planner": greedy_planner, "max_rounds": 2}, "pass")],
    "a custom goal": [H1, H4, ("fizz, other goal", {"goal": "do fizzbuzz", "coder": fizz_only_coder}, "budget"),
                      ("wiped", {"tamper": wipe_plan, "max_rounds": 3}, "pass")],
}


@pytest.mark.parametrize("name", list(MUTANTS))
def test_every_wrong_eval_is_rejected_by_the_rule_it_breaks(name, request):
    if name == "a looping coder at the default seconds":
        request.getfixturevalue("short_caps")  # the loop costs tenths of a second, not 4 s
    rows, check = MUTANTS[name]
    assert_rejected_by(grade_fault_eval(rows), check)


@pytest.mark.parametrize("name", list(CORRECT))
def test_every_correct_eval_is_accepted(name):
    assert_accepted(grade_fault_eval(CORRECT[name]))


def test_a_looping_policy_costs_at_most_the_eval_budget(short_caps):
    start = time.perf_counter()
    report = grade_fault_eval(GOOD + [("loops", {"coder": looping_coder, "max_rounds": 12}, "budget")])
    # the eval's cap is cut to 0.4 s, and the report names the cap it applied; the clock only guards a hang
    assert time.perf_counter() - start < 30
    detail = report.check("row limits").detail
    assert "seconds" in detail and f"the {short_caps.eval_total:g} s the whole eval" in detail, detail


def test_the_suites_are_big_enough():
    assert len(MUTANTS) >= 30 and len(CORRECT) >= 8
    assert re.search(rf"{len(MUTANTS)} of {len(MUTANTS)} wrong .* {len(CORRECT)} of {len(CORRECT)}\s+correct",
                     __doc__, re.S)
