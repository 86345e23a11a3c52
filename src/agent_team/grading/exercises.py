"""Graders for the smaller exercises of parts 1, 2 and 4.

Each follows the same pattern as ``check_run_team``: a Report with one check
per requirement, learner code called only through ``call_learner``.
"""

from ..policies import FIZZ_ONLY_SOURCE, FULL_SOURCE, BadOutput, check_output, read_verdict
from ..repo import REVIEW_PATH, SRC_PATH, initial_repo
from ..limits import describe_error
from .core import Report, call_learner, grading_run, show

# -- Exercise 1.1: a run_tests of your own -------------------------------------------------

RUN_TESTS_SOURCES = (
    # (what, source, passed, failed)
    ("the initial stub", initial_repo()[SRC_PATH], 1, 3),
    ("a correct fizzbuzz", FULL_SOURCE, 4, 0),
    ("a Fizz-only fizzbuzz", FIZZ_ONLY_SOURCE, 2, 2),
    ("a fizzbuzz that crashes on 5", "def fizzbuzz(n):\n    if n == 5:\n        raise ValueError('five')\n"
                                     "    return 'Fizz' if n == 3 else 'FizzBuzz' if n == 15 else str(n)\n", 3, 1),
    ("a fizzbuzz that returns numbers", "def fizzbuzz(n):\n    return n\n", 0, 4),
    ("source with a syntax error", "def fizzbuzz(n)\n    return str(n)\n", 0, 4),
    ("source without fizzbuzz", "def fizz(n):\n    return str(n)\n", 0, 4),
)


@grading_run
def check_run_tests(fn):
    """Grade a learner's ``run_tests(repo)`` on sources with known results."""
    report = Report("Exercise 1.1: run_tests", exercise="1.1",
                    hint="exec the source into a fresh dict, take fizzbuzz out of it, and wrap every "
                         "case in try/except so a crash counts as a failed case.")
    shape = report.check("shape", "returns a dict with ok (bool), errors (list), passed and failed (ints)")
    for what, _, passed, failed in RUN_TESTS_SOURCES:
        report.check(what, f"passed {passed}, failed {failed}, and ok is {failed == 0}")
    report.check("errors explain", "every failing run has at least one error message")
    ran = False
    for what, source, passed, failed in RUN_TESTS_SOURCES:
        repo = {**initial_repo(), SRC_PATH: source}
        call = call_learner(fn, repo, what="run_tests")
        if call.not_implemented:
            report.status_override = "not implemented"
            return report.finish()
        if not call.ok:
            report.fail(what, f"On {what}: {call.problem} The test runner itself must "
                                        "never crash: catch errors and count them as failures.")
            continue
        ran = True
        got = call.value
        if not (isinstance(got, dict) and isinstance(got.get("ok"), bool) and isinstance(got.get("errors"), list)
                and type(got.get("passed")) is int and type(got.get("failed")) is int):
            shape.fail(f"On {what}, run_tests returned {show(got)}.")
            continue
        if (got["passed"], got["failed"], got["ok"]) != (passed, failed, failed == 0):
            report.fail(what,
                f"On {what}: passed={got['passed']}, failed={got['failed']}, ok={got['ok']}; "
                f"expected passed={passed}, failed={failed}, ok={failed == 0}.")
        if failed and not got["errors"]:
            report.fail("errors explain", f"On {what}, errors is empty: say which case failed and why.")
    return report.finish(ran=ran)


# -- Exercise 2.1: the nits counter --------------------------------------------------------

RED = {"ok": False, "passed": 2, "failed": 2, "errors": ["fizzbuzz(5) returned '5'; expected 'Buzz'"]}
GREEN = {"ok": True, "passed": 4, "failed": 0, "errors": []}


def _review_view(tests, past, plan="- do it\n"):
    return {"goal": "fizzbuzz", "plan": plan, "source": FULL_SOURCE, "last_tests": tests,
            "past_verdicts": list(past)}


NITS_CASES = (
    # (what, view, verdict, escalate?)
    ("green tests, first review", _review_view(GREEN, []), "approve", False),
    ("green tests, two-line plan", _review_view(GREEN, ["request_changes"] * 2, plan="x\ny"), "approve", False),
    ("green tests after 5 requests", _review_view(GREEN, ["request_changes"] * 5), "approve", False),
    ("red tests, first review", _review_view(RED, []), "request_changes", False),
    ("red tests, 2 earlier requests", _review_view(RED, ["request_changes"] * 2), "request_changes", False),
    ("red tests, 3 earlier requests", _review_view(RED, ["request_changes"] * 3), "request_changes", True),
    ("red tests, 6 earlier requests", _review_view(RED, ["request_changes"] * 6), "request_changes", True),
    ("red tests, approvals don't count", _review_view(RED, ["approve", "request_changes", "approve"]),
     "request_changes", False),
)


@grading_run
def check_nits_reviewer(fn):
    """Grade a reviewer policy with a nits counter (escalate after 3 request_changes on red tests)."""
    report = Report("Exercise 2.1: the nits counter", exercise="2.1",
                    hint="Count 'request_changes' in view['past_verdicts']. Green tests: approve. "
                         "Red tests: request_changes, with message 'escalate' once 3 were already asked.")
    schema = report.check("schema", "returns the common output schema, writing only REVIEW.json with a JSON verdict")
    for what, _, verdict, escalate in NITS_CASES:
        report.check(what, verdict + (" and message 'escalate'" if escalate else ""))
    ran = False
    for what, view, verdict, escalate in NITS_CASES:
        call = call_learner(fn, "fizzbuzz", dict(view), what="your reviewer")
        if call.not_implemented:
            report.status_override = "not implemented"
            return report.finish()
        if not call.ok:
            report.fail(what, f"In case '{what}': {call.problem}")
            continue
        ran = True
        try:
            out = check_output("reviewer", call.value)
        except BadOutput as err:
            schema.fail(f"In case '{what}': {err}.")
            continue
        writes = [p for p in out["patches"] if isinstance(p, dict) and p.get("path") == REVIEW_PATH]
        if len(out["patches"]) != 1 or not writes or not isinstance(writes[0].get("content"), str):
            schema.fail(f"In case '{what}': patches were {show(out['patches'])}; write exactly one "
                        "patch, to REVIEW.json.")
            continue
        got, problem = read_verdict(writes[0]["content"])
        if problem:
            schema.fail(f"In case '{what}': {problem}.")
            continue
        said_escalate = out["message"] == "escalate"
        if got["verdict"] != verdict or said_escalate != escalate:
            report.fail(what,
                f"In case '{what}': verdict {got['verdict']!r} with message {show(out['message'])}; expected "
                f"{verdict!r}" + (" with message 'escalate'." if escalate else " and no escalation."))
    return report.finish(ran=ran)


# -- Exercise 4.1: an eval; 4.2: a hardening rule -------------------------------------------

def _supervised(supervise, kwargs):
    """Run the supervisor on learner-chosen arguments. It guards the policies itself, so only
    misuse (a wrong keyword, a bad max_rounds) can raise, and that becomes the problem text."""
    try:
        return supervise(**kwargs), ""
    except Exception as err:  # noqa: BLE001
        return None, describe_error(err)


@grading_run
def check_fault_eval(rows):
    """Grade an eval: a list of ``(name, supervise_kwargs, expected_status)`` rows."""
    from ..supervisor import supervise
    report = Report("Exercise 4.1: an eval of faults", exercise="4.1",
                    hint="Each row is (name, dict of supervise() keyword arguments, 'pass' or 'budget'). "
                         "Start with the seed's two rows: {'max_rounds': 1} -> 'budget', {'max_rounds': 4} -> 'pass'.")
    shape = report.check("shape", "EVAL is a list of (name, kwargs dict, 'pass' or 'budget') rows")
    seeds = report.check("the seed's rows", "includes max_rounds=1 -> budget and max_rounds=4 -> pass for the healthy team")
    cover = report.check("coverage", "at least 4 rows, at least 2 of them with a replaced policy or a tamper hook")
    right = report.check("expectations", "every row's expected status is what the team really does")
    if rows is None or rows is Ellipsis:
        report.status_override = "not implemented"
        return report.finish()
    if not isinstance(rows, (list, tuple)) or not all(
            isinstance(r, (list, tuple)) and len(r) == 3 and isinstance(r[1], dict) and r[2] in ("pass", "budget")
            for r in rows):
        shape.fail(f"EVAL is {show(rows)}.")
        return report.finish(ran=False)
    healthy = {(r[1].get("max_rounds"), r[2]) for r in rows if set(r[1]) == {"max_rounds"}}
    if not {(1, "budget"), (4, "pass")} <= healthy:
        seeds.fail("Add ('healthy, 1 round', {'max_rounds': 1}, 'budget') and "
                   "('healthy, 4 rounds', {'max_rounds': 4}, 'pass').")
    faulty = [r for r in rows if set(r[1]) & {"planner", "coder", "reviewer", "tamper"}]
    if len(rows) < 4 or len(faulty) < 2:
        cover.fail(f"{len(rows)} rows, {len(faulty)} with a fault; inject at least two faults.")
    for name, kwargs, expect in rows:
        result, problem = _supervised(supervise, kwargs)
        if problem:
            right.fail(f"Row {name!r} could not run: {problem} Check its keyword arguments.")
        elif result.status != expect:
            right.fail(f"Row {name!r} expects {expect!r}, but the team ended with {result.status!r}: "
                       f"{result.stop_reason}.")
    return report.finish()


@grading_run
def check_hardening(rule):
    """Grade a hardening rule ``rule(role, patch) -> None | reason`` that refuses exec/__import__ from the coder."""
    from ..faults import EXEC_SOURCE
    from ..supervisor import supervise
    report = Report("Exercise 4.2: a hardening rule", exercise="4.2",
                    hint="Return a reason (a non-empty string) when role == 'coder' and the patch content "
                         "contains 'exec' or '__import__'; otherwise return None.")
    cases = (
        ("refuses __import__", "coder", EXEC_SOURCE, True),
        ("refuses exec", "coder", "def fizzbuzz(n):\n    exec('x = 1')\n    return str(n)\n", True),
        ("allows a clean fizzbuzz", "coder", FULL_SOURCE, False),
        ("leaves other roles alone", "planner", "- never use exec or __import__\n", False),
    )
    for what, role, content, refuse in cases:
        check = report.check(what, f"{role} patch: " + ("refused with a reason" if refuse else "allowed (None)"))
        path = SRC_PATH if role == "coder" else "PLAN.md"
        call = call_learner(rule, role, {"path": path, "content": content}, what="your rule")
        if call.not_implemented:
            report.status_override = "not implemented"
            return report.finish()
        if not call.ok:
            check.fail(call.problem)
        elif refuse and not (isinstance(call.value, str) and call.value.strip()):
            check.fail(f"It returned {show(call.value)}; return a short reason, e.g. 'exec is not allowed'.")
        elif not refuse and call.value:
            check.fail(f"It refused with {show(call.value)}; this patch is harmless.")
    team = report.check("healthy team still passes", "with the rule on, the default team still passes")
    result, problem = _supervised(supervise, {"max_rounds": 4, "checks": [rule]})
    if problem or result.status != "pass":
        team.fail("With your rule the healthy team did not pass: " + (problem or result.stop_reason))
    return report.finish()
