"""Exercise 3.1: wrong run_teams a learner might write, each rejected by the check for the rule it breaks.

Written from the exercise text (notebooks/source/03_supervisor.py, "The protocol" and the
requirements table), not from the reference: each function is wrong by some sentence of
the text. The test checks the *first* failing line of the report: the rule, in its words.

Measured (a test below keeps it true): 58 wrong run_teams, each rejected with the right first
failing check (and 14 more in test_ex_3_1_grader.py).
"""

import pytest
from grader_helpers import first_failing

from agent_team.grading import grade_run_team


# --- the keywords ---------------------------------------------------------------------------

def approve_before_colon(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback = [("planner", plan)], ""
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        review = reviewer(code)
        log += [("coder", code), ("reviewer", review)]
        if review.split(":")[0] != "APPROVE":           # "APPROVED" is an approval too
            feedback = "review: " + review
            continue
        result = tester(code)
        log.append(("tester", result))
        if result.startswith("PASS"):
            return code, log
        feedback = "test: " + result
    return None, log


def make(approves=lambda r: r.startswith("APPROVE"), passes=lambda r: r.startswith("PASS"),
         rounds=lambda n: range(n), rejected=lambda old, r: "review: " + r,
         failed=lambda old, r: "test: " + r, success=lambda code, log: (code, log),
         out_of_rounds=lambda code, log: (None, log)):
    """A learner's run_team whose only mistake is in one of the lambdas (the others are right)."""
    def run_team(task, planner, coder, reviewer, tester, max_rounds):
        plan = planner(task)
        log, feedback, code = [("planner", plan)], "", None
        for _ in rounds(max_rounds):
            code = coder(task, plan, feedback)
            review = reviewer(code)
            log += [("coder", code), ("reviewer", review)]
            if not approves(review):
                feedback = rejected(feedback, review)
                continue
            result = tester(code)
            log.append(("tester", result))
            if passes(result):
                return success(code, log)
            feedback = failed(feedback, result)
        return out_of_rounds(code, log)
    return run_team


pass_before_colon = make(passes=lambda r: r.split(":")[0] == "PASS")          # not "PASSED"
accepts_lgtm = make(approves=lambda r: r.startswith("APPROVE") or r == "LGTM")
approve_anywhere = make(approves=lambda r: "APPROVE" in r)
approve_any_case = make(approves=lambda r: r.lower().startswith("approve"))
approve_stripped = make(approves=lambda r: r.strip().startswith("APPROVE"))
approve_exactly = make(approves=lambda r: r == "APPROVE")
approve_prefix_short = make(approves=lambda r: r[:6] == "APPROV")
pass_exactly = make(passes=lambda r: r == "PASS")
pass_anywhere = make(passes=lambda r: "PASS" in r)
pass_any_case = make(passes=lambda r: r.lower().startswith("pass"))
pass_not_fail = make(passes=lambda r: not r.startswith("FAIL"))
pass_stripped = make(passes=lambda r: r.strip().startswith("PASS"))
caps_rounds_at_6 = make(rounds=lambda n: range(min(n, 6)))
caps_rounds_at_10 = make(rounds=lambda n: range(min(n, 10)))
one_round_short = make(rounds=lambda n: range(n - 1))
one_round_extra = make(rounds=lambda n: range(n + 1))
at_least_one_round = make(rounds=lambda n: range(max(n, 1)))
caps_rounds_at_20 = make(rounds=lambda n: range(min(n, 20)))
approve_unless_reject = make(approves=lambda r: r.startswith("APPROVE") and "REJECT" not in r)
pass_unless_fail = make(passes=lambda r: r.startswith("PASS") and "FAIL" not in r)
no_review_prefix = make(rejected=lambda old, r: r)
no_test_prefix = make(failed=lambda old, r: r)
review_prefix_without_space = make(rejected=lambda old, r: "review:" + r)
prefix_tester_word = make(failed=lambda old, r: "tester: " + r)
feedback_piles_up = make(rejected=lambda old, r: old + "review: " + r, failed=lambda old, r: old + "test: " + r)
keeps_first_review = make(rejected=lambda old, r: old or "review: " + r)
drops_test_failures = make(failed=lambda old, r: old)
returns_last_code_when_out_of_rounds = make(out_of_rounds=lambda code, log: (code, log))
returns_empty_string_when_out_of_rounds = make(out_of_rounds=lambda code, log: ("", log))
returns_none_for_empty_code = make(success=lambda code, log: (code or None, log))
returns_only_the_log = make(success=lambda code, log: log, out_of_rounds=lambda code, log: log)
returns_log_first = make(success=lambda code, log: (log, code), out_of_rounds=lambda code, log: (log, None))
returns_three_things = make(success=lambda code, log: (code, log, True))
returns_a_tuple_log = make(success=lambda code, log: (code, tuple(log)))
log_without_planner = make(success=lambda code, log: (code, log[1:]), out_of_rounds=lambda code, log: (None, log[1:]))
log_as_dicts = make(success=lambda code, log: (code, [{"role": r, "output": o} for r, o in log]))
log_of_roles_only = make(success=lambda code, log: (code, [r for r, _ in log]))


# --- the rounds -----------------------------------------------------------------------------

def caches_reviews(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback, seen = [("planner", plan)], "", {}
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        if code not in seen:                             # the reviewer reads every round
            seen[code] = reviewer(code)
        review = seen[code]
        log += [("coder", code), ("reviewer", review)]
        if not review.startswith("APPROVE"):
            feedback = "review: " + review
            continue
        result = tester(code)
        log.append(("tester", result))
        if result.startswith("PASS"):
            return code, log
        feedback = "test: " + result
    return None, log


def stops_when_code_repeats(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback, seen = [("planner", plan)], "", set()
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        if code in seen:                                 # a repeat is still a round
            break
        seen.add(code)
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
    return None, log


def skips_empty_code(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback = [("planner", plan)], ""
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        log.append(("coder", code))
        if not code:                                     # empty code is reviewed too
            continue
        review = reviewer(code)
        log.append(("reviewer", review))
        if not review.startswith("APPROVE"):
            feedback = "review: " + review
            continue
        result = tester(code)
        log.append(("tester", result))
        if result.startswith("PASS"):
            return code, log
        feedback = "test: " + result
    return None, log


def gives_up_on_the_same_review(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback = [("planner", plan)], ""
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        review = reviewer(code)
        log += [("coder", code), ("reviewer", review)]
        if not review.startswith("APPROVE"):
            if feedback == "review: " + review:          # the same objection twice: give up
                break
            feedback = "review: " + review
            continue
        result = tester(code)
        log.append(("tester", result))
        if result.startswith("PASS"):
            return code, log
        feedback = "test: " + result
    return None, log


def break_on_rejection(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback = [("planner", plan)], ""
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        review = reviewer(code)
        log += [("coder", code), ("reviewer", review)]
        if not review.startswith("APPROVE"):
            feedback = "review: " + review
            break                                        # a rejection ends the round, not the run
        result = tester(code)
        log.append(("tester", result))
        if result.startswith("PASS"):
            return code, log
        feedback = "test: " + result
    return None, log


def returns_on_first_failure(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback = [("planner", plan)], ""
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        review = reviewer(code)
        log += [("coder", code), ("reviewer", review)]
        if not review.startswith("APPROVE"):
            feedback = "review: " + review
            continue
        result = tester(code)
        log.append(("tester", result))
        return (code if result.startswith("PASS") else None), log   # a failed test is feedback
    return None, log


def while_rounds_at_most(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback, rounds = [("planner", plan)], "", 0
    while rounds <= max_rounds:                          # one round too many
        rounds += 1
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
    return None, log


def counts_tests_not_rounds(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback, tests = [("planner", plan)], "", 0
    while tests < max_rounds:                            # rounds are coder calls
        code = coder(task, plan, feedback)
        review = reviewer(code)
        log += [("coder", code), ("reviewer", review)]
        if not review.startswith("APPROVE"):
            feedback = "review: " + review
            continue
        tests += 1
        result = tester(code)
        log.append(("tester", result))
        if result.startswith("PASS"):
            return code, log
        feedback = "test: " + result
    return None, log


def keeps_going_after_pass(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback, passed = [("planner", plan)], "", None
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        review = reviewer(code)
        log += [("coder", code), ("reviewer", review)]
        if not review.startswith("APPROVE"):
            feedback = "review: " + review
            continue
        result = tester(code)
        log.append(("tester", result))
        if result.startswith("PASS"):
            passed = code                                # should return here
        feedback = "test: " + result
    return passed, log


# --- the plan, the arguments, the order -----------------------------------------------------

def strips_the_plan(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    tidy = plan.strip()                                  # the coder gets the plan as it was written
    log, feedback = [("planner", plan)], ""
    for _ in range(max_rounds):
        code = coder(task, tidy, feedback)
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
    return None, log


def reviews_stripped_code(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback = [("planner", plan)], ""
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        review = reviewer(code.strip())                  # the reviewer reads the code as written
        log += [("coder", code), ("reviewer", review)]
        if not review.startswith("APPROVE"):
            feedback = "review: " + review
            continue
        result = tester(code)
        log.append(("tester", result))
        if result.startswith("PASS"):
            return code, log
        feedback = "test: " + result
    return None, log


def no_plan_without_rounds(task, planner, coder, reviewer, tester, max_rounds):
    if max_rounds == 0:                                  # "Plan once" comes before the loop
        return None, []
    return make()(task, planner, coder, reviewer, tester, max_rounds)


def plans_again_after_a_failed_test(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback = [("planner", plan)], ""
    for _ in range(max_rounds):
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
        plan = planner(task)                             # plan once
        log.append(("planner", plan))
    return None, log


def coder_gets_feedback_first(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback = [("planner", plan)], ""
    for _ in range(max_rounds):
        code = coder(feedback, task, plan)               # coder(task, plan, feedback)
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
    return None, log


def review_after_test(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback = [("planner", plan)], ""
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        result = tester(code)                            # the reviewer is the gate before the tester
        review = reviewer(code)
        log += [("coder", code), ("tester", result), ("reviewer", review)]
        if not review.startswith("APPROVE"):
            feedback = "review: " + review
            continue
        if result.startswith("PASS"):
            return code, log
        feedback = "test: " + result
    return None, log


def first_approved_code_tested(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback, approved = [("planner", plan)], "", None
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        review = reviewer(code)
        log += [("coder", code), ("reviewer", review)]
        if not review.startswith("APPROVE"):
            feedback = "review: " + review
            continue
        if approved is None:
            approved = code                              # test the code just approved
        result = tester(approved)
        log.append(("tester", result))
        if result.startswith("PASS"):
            return approved, log
        feedback = "test: " + result
    return None, log


def every_code_tested(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback = [("planner", plan)], ""
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        review = reviewer(code)
        result = tester(code)                            # only approved code is tested
        log += [("coder", code), ("reviewer", review), ("tester", result)]
        if review.startswith("APPROVE") and result.startswith("PASS"):
            return code, log
        feedback = "test: " + result if review.startswith("APPROVE") else "review: " + review
    return None, log


def reviews_twice(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log, feedback = [("planner", plan)], ""
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        review = reviewer(code)
        log += [("coder", code), ("reviewer", review)]
        if not review.startswith("APPROVE"):
            review = reviewer(code)                      # a second opinion: not in the protocol
            log.append(("reviewer", review))
        if not review.startswith("APPROVE"):
            feedback = "review: " + review
            continue
        result = tester(code)
        log.append(("tester", result))
        if result.startswith("PASS"):
            return code, log
        feedback = "test: " + result
    return None, log


def raises_on_empty_plan(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    if not plan:
        raise ValueError("the planner returned nothing")  # "" is a plan like any other
    return make()(task, lambda t: plan, coder, reviewer, tester, max_rounds)


def loops_forever_on_zero(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    rounds = 0
    while rounds != max_rounds or max_rounds == 0:       # never stops for 0
        rounds += 1
        if rounds > max_rounds > 0:
            break
    return make()(task, lambda t: plan, coder, reviewer, tester, max_rounds)


WRONG = [
    (approve_before_colon, "test approved code", "'APPROVED'"),
    (pass_before_colon, "stop on PASS", "'PASSED'"),
    (accepts_lgtm, "tester only on approved", "'LGTM'"),
    (approve_anywhere, "tester only on approved", "does not start with 'APPROVE'"),
    (approve_any_case, "tester only on approved", "'approve'"),
    (approve_stripped, "tester only on approved", "' APPROVE'"),
    (approve_exactly, "test approved code", "starts with 'APPROVE'"),
    (approve_prefix_short, "tester only on approved", "does not start with 'APPROVE'"),
    (pass_exactly, "stop on PASS", "starts with 'PASS'"),
    (pass_anywhere, "keep going", "does not start with"),
    (pass_any_case, "keep going", "'pass'"),
    (pass_not_fail, "keep going", "'NO PASS yet'"),
    (pass_stripped, "keep going", "' PASS'"),
    (caps_rounds_at_6, "keep going", "stopped after 6 of max_rounds="),
    (caps_rounds_at_10, "keep going", "stopped after 10 of max_rounds=12"),
    (one_round_short, "keep going", "rounds"),
    (one_round_extra, "rounds", "at most max_rounds times"),
    (at_least_one_round, "rounds", "max_rounds=0"),
    (caps_rounds_at_20, "keep going", "stopped after 20 of max_rounds=40"),
    (approve_unless_reject, "test approved code", "'APPROVE, not a REJECT\\n'"),
    (pass_unless_fail, "stop on PASS", "'PASS (0 FAIL)\\n'"),
    (strips_the_plan, "feedback", "coder(task, plan, feedback)"),
    (reviews_stripped_code, "review every round", "the code the coder just wrote"),
    (no_review_prefix, "feedback", "'review: '"),
    (no_test_prefix, "feedback", "'test: '"),
    (review_prefix_without_space, "feedback", "'review: REJECT: no error handling'"),
    (prefix_tester_word, "feedback", "'test: FAIL: test_empty'"),
    (feedback_piles_up, "feedback", "the last"),
    (keeps_first_review, "feedback", "the last review"),
    (drops_test_failures, "feedback", "the last test result"),
    (returns_last_code_when_out_of_rounds, "result", "the rounds ran out"),
    (returns_empty_string_when_out_of_rounds, "result", "the rounds ran out"),
    (returns_none_for_empty_code, "result", "the tester passed it"),
    (returns_only_the_log, "shape", "return a pair (code, log)"),
    (returns_log_first, "shape", "the code returned is"),
    (returns_three_things, "shape", "return a pair (code, log)"),
    (returns_a_tuple_log, "shape", "a list of (role, output) pairs"),
    (log_without_planner, "log", "speaking order"),
    (log_as_dicts, "shape", "a list of (role, output) pairs"),
    (log_of_roles_only, "shape", "a list of (role, output) pairs"),
    (caches_reviews, "review every round", "the same as before"),
    (stops_when_code_repeats, "keep going", "every new code is reviewed"),
    (skips_empty_code, "review every round", "even when it is empty"),
    (gives_up_on_the_same_review, "keep going", "ends the round, not the run"),
    (break_on_rejection, "keep going", "ends the round, not the run"),
    (returns_on_first_failure, "keep going", "anything else is feedback"),
    (while_rounds_at_most, "rounds", "at most max_rounds times"),
    (counts_tests_not_rounds, "rounds", "at most max_rounds times"),
    (keeps_going_after_pass, "stop on PASS", "return (code, log) at once"),
    (no_plan_without_rounds, "plan once", "even when max_rounds is 0"),
    (plans_again_after_a_failed_test, "plan once", "called once, first"),
    (coder_gets_feedback_first, "feedback", "coder(task, plan, feedback)"),
    (review_after_test, "review every round", "reads every new code first"),
    (first_approved_code_tested, "test approved code", "the tester runs next on"),
    (every_code_tested, "tester only on approved", "does not start with 'APPROVE'"),
    (reviews_twice, "review every round", "once every round"),
    (raises_on_empty_plan, "returns", "ValueError"),
    (loops_forever_on_zero, "returns", "did not return"),
]


@pytest.mark.parametrize("fn, check, words", WRONG, ids=[w[1] + ": " + w[2] for w in WRONG])
def test_each_wrong_run_team_fails_first_the_rule_it_breaks(fn, check, words, request):
    if fn is loops_forever_on_zero:
        request.getfixturevalue("short_caps")  # a hang costs a fifth of a second, not 2 s
    report = grade_run_team(fn)
    first = first_failing(report)
    assert not report.passed and first is not None, str(report)
    assert first.name == check, str(report)
    first_line = next(line for line in str(report).splitlines() if line.startswith("[FAIL]"))
    assert first_line.startswith(f"[FAIL] {check}:")
    assert words in first.detail, first.detail


def test_the_wrong_ones_are_all_different_functions_and_the_grader_says_how_many():
    assert len({id(fn) for fn, _, _ in WRONG}) == len(WRONG) >= 30
    assert f"{len(WRONG)} wrong run_teams" in " ".join(__doc__.split())


def test_no_advice_that_moves_away_from_the_protocol():
    """A tester run on unapproved code is told to skip the test, never to pass 'test: ' feedback."""
    for fn in (accepts_lgtm, approve_anywhere, every_code_tested):
        detail = first_failing(grade_run_team(fn)).detail
        assert "test:" not in detail and "ends without a test" in detail
