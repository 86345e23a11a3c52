"""Exercise 2.1: grade a reviewer with a nits counter, ``nits_reviewer(goal, view)``.

Requirements (each sentence of the exercise text, and the check that grades it):

=====================================================================  =========================
the exercise says                                                      check
=====================================================================  =========================
return the common output schema: role 'reviewer', thought and          ``output schema``
message strings, exactly one patch, to REVIEW.json, a JSON verdict
green tests: approve, always (and never escalate)                      ``green: approve``
red tests: ``request_changes``, also once it escalates                 ``red: request_changes``
the first test error is the notes                                      ``notes``
... and the message                                                    ``message``
once it has already asked ``NITS_LIMIT`` (3) times, the message is     ``escalate at the limit``
exactly ``escalate``; before that, never
count every ``request_changes`` in ``past_verdicts``, wherever it      ``counts requests``
stands (not only in a row, not only the last three); approvals do
not count
no test report yet (``last_tests`` is None) counts as red, with        ``no test report``
the notes and message ``no test results yet``
=====================================================================  =========================

Scenarios: named views for each row, then 120 random ones: ``past_verdicts`` of
length 0 to 12 with approvals anywhere, real oracle reports (green, and red with
one to four errors) and red reports with long errors, ``last_tests`` None.
Every view is a fresh deep copy, so a reviewer that edits its view changes
nothing for the next case or for the reference (:func:`agent_team.policies.nits_reviewer`).

Measured by tests/grading/test_ex_2_1_mutants.py (wrong solutions written from the
exercise text, each rejected with the right first check; correct ones accepted) and
tests/grading/test_reference_mutants.py (mutants of the worked solution); the counts are there.
"""

import functools
import json
import random

from ..clip import safe_repr
from ..oracle import run_tests
from ..policies import FIZZ_ONLY_SOURCE, FULL_SOURCE, PLAN_TEXT, nits_reviewer, read_verdict
from ..repo import GOAL, REVIEW_PATH, SRC_PATH, STUB_SOURCE, initial_repo
from .core import Report, call_learner, grading_run
from .shapes import fresh, kind

NITS_LIMIT = 3
NO_REPORT = "no test results yet"
RC, OK = "request_changes", "approve"

REQUIREMENTS = (
    ("output schema", "returns the common output schema with exactly one patch, a JSON verdict in REVIEW.json"),
    ("green: approve", "green tests: approve, always, and never escalate"),
    ("red: request_changes", "red tests: the verdict is request_changes, also when it escalates"),
    ("notes", "red tests: the notes are the first test error"),
    ("message", "red tests, below the limit: the message is the first test error too"),
    ("escalate at the limit", f"once it has already asked {NITS_LIMIT} times the message is exactly "
                              "'escalate'; before that, never"),
    ("counts requests", "counts every request_changes in past_verdicts, wherever it stands; approvals do not count"),
    ("no test report", f"no test report yet counts as red, with the notes and message {NO_REPORT!r}"),
)


def _report(text):
    return run_tests({**initial_repo(), SRC_PATH: text})


# Red reports whose first error is empty or padded: the notes are errors[0] exactly (not "no test
# results yet", not stripped, not the first non-empty one); the second error says the run was red.
EMPTY_FIRST_ERROR = {"ok": False, "passed": 3, "failed": 1, "errors": ["", "fizzbuzz(5) returned '5'"]}
SPACED_FIRST_ERROR = {"ok": False, "passed": 3, "failed": 1, "errors": ["  fizzbuzz(3) returned '3' ", "x"]}


def view(tests, past, plan=PLAN_TEXT):
    return {"goal": GOAL, "plan": plan, "source": FULL_SOURCE, "last_tests": tests, "past_verdicts": list(past)}


def _named(green, reds):
    """(check the scenario is for, what, view); grouped in the order the checks are declared."""
    out = []
    for past in ([], [RC], [RC] * 5, [OK, RC, RC, RC]):
        out.append(("green: approve", f"green tests after {safe_repr(past)}", view(green, past)))
    out.append(("green: approve", "green tests with a two-line plan", view(green, [RC] * 2, plan="x\ny\n")))
    # "approve, always": the plan is not the reviewer's business, even when there is none (PLAN.md deleted)
    out.append(("green: approve", "green tests with an empty plan (PLAN.md deleted)", view(green, [], plan="")))
    out.append(("green: approve", "green tests with an empty plan, after 3 request_changes",
                view(green, [RC] * 3, plan="")))
    for red in reds:
        for past in ([], [RC], [RC] * 3, [RC] * 4):
            out.append(("red: request_changes", f"red tests ({red['errors'][0][:40]}...) after {safe_repr(past)}",
                        view(red, past)))
    for red in (EMPTY_FIRST_ERROR, SPACED_FIRST_ERROR):  # the first error exactly, even when it is empty
        for past in ([], [RC] * 3):
            out.append(("notes", f"red tests whose first error is {safe_repr(red['errors'][0])}, after "
                                 f"{safe_repr(past)}", view(red, past)))
    out.append(("red: request_changes", "red tests with an empty plan", view(reds[0], [RC], plan="")))
    for k in range(0, 13):
        out.append(("escalate at the limit", f"red tests after {k} request_changes", view(reds[k % 4], [RC] * k)))
    for past in ([OK, RC, RC], [RC, RC, OK], [RC, OK, RC, OK, RC], [RC, RC, RC, OK], [OK] * 5,
                 [RC, OK, OK, OK, RC], [RC, RC, OK, OK, OK],
                 # long lists: the requests far back still count, whatever window a reviewer might use
                 [RC, RC, RC] + [OK] * 12, [RC] + [OK] * 20 + [RC, RC], [RC, RC] + [OK] * 30):
        out.append(("counts requests", f"red tests after {safe_repr(past)}", view(reds[0], past)))
    for past in ([], [RC] * 2, [OK, OK], [RC] * 3, [RC, OK, RC, RC]):
        out.append(("no test report", f"no test report yet, after {safe_repr(past)}", view(None, past)))
    return out


def _random(green, reds, count, seed=21):
    rng = random.Random(seed)
    out = []
    for i in range(count):
        past = [rng.choice((RC, RC, OK)) for _ in range(rng.randint(0, 12))]
        tests = rng.choice((green, None) + reds + reds)
        out.append(("counts requests", f"random view {i + 1} (past_verdicts {safe_repr(past, 200)})",
                    view(tests, past)))
    return out


@functools.cache  # at the first grading, not at import: every notebook imports the graders
def scenarios():
    """Every case, named ones first, then 120 random ones; their test reports are real oracle runs."""
    green = _report(FULL_SOURCE)
    reds = (
        _report(FIZZ_ONLY_SOURCE),
        _report(STUB_SOURCE),
        _report("def fizzbuzz(n):\n    return n\n"),
        _report("def fizzbuzz(n):\n    if n == 15:\n        return 'FizzBuzz'\n    return str(n)\n"),
        {"ok": False, "passed": 0, "failed": 4, "errors": ["fizzbuzz raised " + "a very long error " * 12,
                                                            "a second error"]},
    )
    return tuple(_named(green, reds) + _random(green, reds, 120))


def _read(out):
    """The learner output's (verdict, notes, message), or a problem in words. Exact types first."""
    if type(out) is not dict or not all(type(key) is str for key in out):  # str keys: lookups run no code
        return None, f"it returned {kind(out)}, not a dict (with str keys) in the output schema"
    for key, want in (("role", str), ("thought", str), ("patches", list), ("message", str)):
        if type(out.get(key)) is not want:
            return None, f"its {key!r} is {kind(out.get(key))}, not a {want.__name__}"
    if out["role"] != "reviewer":
        return None, f"its role is {safe_repr(out['role'])}, not 'reviewer'"
    patches = out["patches"]
    if len(patches) != 1 or type(patches[0]) is not dict or not all(type(key) is str for key in patches[0]):
        return None, f"its patches are {safe_repr(patches)}; a reviewer writes exactly one patch"
    patch = patches[0]
    if type(patch.get("path")) is not str or patch["path"] != REVIEW_PATH or type(patch.get("content")) is not str:
        return None, f"its patch is {safe_repr(patch)}; it must write a string to {REVIEW_PATH}"
    verdict, problem = read_verdict(patch["content"])
    if problem:
        return None, problem
    return (verdict["verdict"], verdict["notes"], out["message"]), ""


def _diagnose(view_, got, want):
    """The first rule the output breaks, as (check, what is wrong), or None."""
    verdict, notes, message = got
    tests = view_["last_tests"]
    asked = view_["past_verdicts"].count(RC)
    if tests is not None and tests["ok"]:
        if verdict != OK:
            return "green: approve", f"the verdict was {verdict!r}; on green tests it is 'approve', always"
        if message == "escalate":
            return "green: approve", "the message was 'escalate'; on green tests there is nothing to escalate"
        return None
    if tests is None and (verdict != RC or notes != NO_REPORT or (asked < NITS_LIMIT and message != NO_REPORT)):
        return "no test report", (f"with no test report yet it gave {verdict!r}, notes {safe_repr(notes)}, message "
                                  f"{safe_repr(message)}; no report counts as red: request_changes, notes and "
                                  f"message {NO_REPORT!r}")
    if verdict != RC:
        return "red: request_changes", f"the verdict was {verdict!r}; on red tests it is 'request_changes'"
    if notes != want[1]:
        return "notes", f"the notes were {safe_repr(notes)}; they should be the first test error, {safe_repr(want[1])}"
    escalate = asked >= NITS_LIMIT
    if not escalate and message not in (notes, "escalate"):
        return "message", f"the message was {safe_repr(message)}; below the limit it is the first test error too"
    if (message == "escalate") != escalate:
        said = "escalated" if message == "escalate" else f"said {safe_repr(message)}"
        # With approvals in the list a wrong answer is a counting mistake; without, a wrong limit.
        rule = "counts requests" if OK in view_["past_verdicts"] else "escalate at the limit"
        return rule, (f"it {said}, but past_verdicts holds {asked} request_changes (approvals do not count): "
                      f"the message is exactly 'escalate' once it has already asked {NITS_LIMIT} times, "
                      "and never before")
    return None


@grading_run
def grade_nits_reviewer(fn):
    """Grade a reviewer policy with a nits counter; always returns a Report."""
    report = Report(exercise="2.1").declare_all(REQUIREMENTS)
    if not callable(fn):
        report.fail("output schema", f"nits_reviewer is {safe_repr(fn)}, not a function. Define it with `def`.")
        return report.finish(ran=False)
    said = {}  # what the reviewer answered to each view: the same view must get the same answer
    for check, what, view_ in scenarios():
        call = call_learner(fn, GOAL, fresh(view_), what="your reviewer")
        if call.not_implemented:
            report.outcome_override = "not implemented"
            return report.finish(ran=False)
        if not call.ok:
            tests = view_["last_tests"]
            rule = "no test report" if tests is None else "green: approve" if tests["ok"] else check
            report.fail(rule, f"On {what}: {call.problem}")
            continue
        got, problem = _read(call.value)
        if problem:
            report.fail("output schema", f"On {what}: {problem}.")
            continue
        want, _ = _read(nits_reviewer(GOAL, fresh(view_), limit=NITS_LIMIT))
        wrong = _diagnose(view_, got, want)
        key = json.dumps(view_, sort_keys=True)
        other = said.get(key, got) if wrong else got
        if wrong and other == got:  # asked again at once: an answer that changes with nothing else is state
            again = call_learner(fn, GOAL, fresh(view_), what="your reviewer")
            other = _read(again.value)[0] if again.ok else got
        if other is not None and other != got:  # the same view, another answer: state, not the view
            wrong = (wrong[0], f"{wrong[1]}. Given the same view again, its message was {safe_repr(other[2], 80)}: "
                               "your reviewer keeps state between calls (a counter outside the function, a "
                               "mutable default argument). Count from view['past_verdicts'] only")
        said.setdefault(key, got)
        if wrong:
            report.fail(wrong[0], f"On {what}: {wrong[1]}.")
        report.tried(*_judged_by(view_))
    # A check no readable output ever reached shows as not run, not as passed (a reviewer whose
    # every output breaks the schema has not shown that it approves green tests).
    return report.finish(ran=False)


def _judged_by(view_):
    """The checks one case judges once its output could be read: those _diagnose can fail on it."""
    tests = view_["last_tests"]
    if tests is None:
        return ("output schema", "no test report")
    if tests["ok"]:
        return ("output schema", "green: approve")
    return ("output schema", "red: request_changes", "notes", "message",
            "counts requests" if OK in view_["past_verdicts"] else "escalate at the limit")
