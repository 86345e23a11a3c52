"""Exercise 1.1, run_tests: wrong solutions written from the exercise text (each breaks one sentence
of it) are rejected by the check naming that sentence; correct ones in other styles are accepted.

Measured (the test below keeps it true): 47 of 47 wrong solutions rejected with the right first check, 7 of 7
correct ones accepted (three once counted correct compare a result with == outside the try:
a result whose own == raises crashes them, so they are wrong now; six more once counted correct
never ask for exactly a str, so a str subclass whose == lies scores 4 of 4 with them: wrong by the
"type before ==" row, they were accepted before issue 35)."""

import re

import pytest
from grader_helpers import assert_accepted, assert_rejected_by

from agent_team.grading import grade_run_tests
from agent_team.oracle import CASES
from agent_team.repo import SRC_PATH


def report(ok, passed, errors):
    return {"ok": ok, "passed": passed, "failed": len(CASES) - passed, "errors": errors}


# -- wrong: one fresh dict ---------------------------------------------------------------------

SHARED = {}


def shared_dict(repo):
    errors, passed = [], 0
    try:
        exec(repo[SRC_PATH], SHARED)
        fizzbuzz = SHARED["fizzbuzz"]
    except Exception as err:
        return report(False, 0, [f"load failed: {err!r}"])
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:
            errors.append(f"fizzbuzz({n}) raised {err!r}")
            continue
        if got == want:
            passed += 1
        else:
            errors.append(f"fizzbuzz({n}) = {got!r}")
    return report(not errors, passed, errors)


def default_dict(repo, namespace={}):  # noqa: B006 -- the bug under test
    try:
        exec(repo[SRC_PATH], namespace)
        fb = namespace["fizzbuzz"]
    except Exception as err:
        return report(False, 0, [repr(err)])
    errors = []
    for n, want in CASES:
        try:
            if fb(n) != want:
                errors.append(f"{n}: wrong")
        except Exception as err:
            errors.append(f"{n}: {err!r}")
    return report(not errors, 4 - len(errors), errors)


def separate_locals(repo):
    scope = {}
    try:
        exec(repo[SRC_PATH], {}, scope)
        fizzbuzz = scope["fizzbuzz"]
    except Exception as err:
        return report(False, 0, [repr(err)])
    errors = []
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
            if got != want:
                errors.append(f"fizzbuzz({n}) returned {got!r}")
        except Exception as err:
            errors.append(f"fizzbuzz({n}): {err!r}")
    return report(not errors, 4 - len(errors), errors)


def module_globals(repo):
    g = globals()
    try:
        exec(repo[SRC_PATH], g)
        fizzbuzz = g["fizzbuzz"]
    except Exception as err:
        return report(False, 0, [repr(err)])
    errors = []
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
            if got != want:
                errors.append(f"fizzbuzz({n}) returned {got!r}")
        except Exception as err:
            errors.append(f"fizzbuzz({n}): {err!r}")
    return report(not errors, 4 - len(errors), errors)


# -- wrong: never raises -----------------------------------------------------------------------

def _run_cases(fizzbuzz, catch=Exception):
    errors = []
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
        except catch as err:
            errors.append(f"fizzbuzz({n}) raised {err!r}")
            continue
        if got != want:
            errors.append(f"fizzbuzz({n}) returned {got!r}, not {want!r}")
    return report(not errors, 4 - len(errors), errors)


def catches_value_error_only(repo):
    ns = {}
    try:
        exec(repo[SRC_PATH], ns)
        fizzbuzz = ns["fizzbuzz"]
    except Exception as err:
        return report(False, 0, [repr(err)])
    return _run_cases(fizzbuzz, catch=ValueError)


def catches_a_few_types(repo):
    ns = {}
    try:
        exec(repo[SRC_PATH], ns)
        fizzbuzz = ns["fizzbuzz"]
    except (SyntaxError, KeyError, NameError) as err:
        return report(False, 0, [repr(err)])
    return _run_cases(fizzbuzz, catch=(ValueError, TypeError, KeyError, ZeroDivisionError))


def unguarded_exec(repo):
    ns = {}
    exec(repo[SRC_PATH], ns)
    if "fizzbuzz" not in ns:
        return report(False, 0, ["no fizzbuzz defined"])
    return _run_cases(ns["fizzbuzz"])


def unguarded_lookup(repo):
    ns = {}
    try:
        exec(repo[SRC_PATH], ns)
    except Exception as err:
        return report(False, 0, [f"does not load: {err!r}"])
    return _run_cases(ns["fizzbuzz"])


def unguarded_cases(repo):
    ns = {}
    try:
        exec(repo[SRC_PATH], ns)
        fizzbuzz = ns["fizzbuzz"]
    except Exception as err:
        return report(False, 0, [repr(err)])
    errors = [f"fizzbuzz({n}) returned {fizzbuzz(n)!r}" for n, want in CASES if fizzbuzz(n) != want]
    return report(not errors, 4 - len(errors), errors)


def syntax_errors_only_at_load(repo):
    ns = {}
    try:
        code = compile(repo[SRC_PATH], SRC_PATH, "exec")
    except SyntaxError as err:
        return report(False, 0, [f"SyntaxError: {err.msg}"])
    exec(code, ns)
    if "fizzbuzz" not in ns:
        return report(False, 0, ["fizzbuzz is missing"])
    return _run_cases(ns["fizzbuzz"])


# -- wrong: report shape -----------------------------------------------------------------------

def _load(repo):
    ns = {}
    try:
        exec(repo[SRC_PATH], ns)
        return ns["fizzbuzz"], None
    except Exception as err:
        return None, f"could not load fizzbuzz: {type(err).__name__}: {err}"


def _outcomes(fizzbuzz):
    """(passed, [error str]) for a loaded fizzbuzz; the correct core the shape mutants share."""
    passed, errors = 0, []
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:
            errors.append(f"fizzbuzz({n}) raised {type(err).__name__}: {err}")
            continue
        if got == want:
            passed += 1
        else:
            errors.append(f"fizzbuzz({n}) returned {got!r}; expected {want!r}")
    return passed, errors


def errors_are_exceptions(repo):
    ns = {}
    try:
        exec(repo[SRC_PATH], ns)
        fizzbuzz = ns["fizzbuzz"]
    except Exception as err:
        return report(False, 0, [err])
    passed, errors = 0, []
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:
            errors.append(err)
            continue
        if got == want:
            passed += 1
        else:
            errors.append(f"fizzbuzz({n}) returned {got!r}")
    return report(not errors, passed, errors)


def errors_as_tuple(repo):
    fizzbuzz, problem = _load(repo)
    if problem:
        return report(False, 0, (problem,))
    passed, errors = _outcomes(fizzbuzz)
    return report(not errors, passed, tuple(errors))


def ok_as_text(repo):
    fizzbuzz, problem = _load(repo)
    if problem:
        return report("no", 0, [problem])
    passed, errors = _outcomes(fizzbuzz)
    return report("yes" if not errors else "no", passed, errors)


def ok_as_int(repo):
    fizzbuzz, problem = _load(repo)
    if problem:
        return report(0, 0, [problem])
    passed, errors = _outcomes(fizzbuzz)
    return report(int(not errors), passed, errors)


def counts_as_floats(repo):
    fizzbuzz, problem = _load(repo)
    passed, errors = (0, [problem]) if problem else _outcomes(fizzbuzz)
    return {"ok": not errors, "passed": passed / 1, "failed": (4 - passed) / 1, "errors": errors}


def no_errors_key(repo):
    fizzbuzz, problem = _load(repo)
    passed, errors = (0, [problem]) if problem else _outcomes(fizzbuzz)
    return {"ok": not errors, "passed": passed, "failed": 4 - passed, "messages": errors}


def returns_a_tuple(repo):
    fizzbuzz, problem = _load(repo)
    passed, errors = (0, [problem]) if problem else _outcomes(fizzbuzz)
    return (not errors, passed, 4 - passed, errors)


def error_objects_of_a_subclass(repo):
    class Message(str):
        pass
    fizzbuzz, problem = _load(repo)
    passed, errors = (0, [problem]) if problem else _outcomes(fizzbuzz)
    return report(not errors, passed, [Message(e) for e in errors])


# -- wrong: the four CASES ---------------------------------------------------------------------

def compares_str_of_result(repo):
    fizzbuzz, problem = _load(repo)
    if problem:
        return report(False, 0, [problem])
    passed, errors = 0, []
    for n, want in CASES:
        try:
            got = str(fizzbuzz(n))
        except Exception as err:
            errors.append(f"fizzbuzz({n}) raised {err!r}")
            continue
        if got == want:
            passed += 1
        else:
            errors.append(f"fizzbuzz({n}) returned {got!r}")
    return report(not errors, passed, errors)


def strips_before_comparing(repo):
    fizzbuzz, problem = _load(repo)
    if problem:
        return report(False, 0, [problem])
    passed, errors = 0, []
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:
            errors.append(f"fizzbuzz({n}) raised {err!r}")
            continue
        if isinstance(got, str) and got.strip() == want:
            passed += 1
        else:
            errors.append(f"fizzbuzz({n}) returned {got!r}")
    return report(not errors, passed, errors)


def ignores_case(repo):
    fizzbuzz, problem = _load(repo)
    if problem:
        return report(False, 0, [problem])
    passed, errors = 0, []
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:
            errors.append(f"fizzbuzz({n}) raised {err!r}")
            continue
        if str(got).lower() == want.lower():
            passed += 1
        else:
            errors.append(f"fizzbuzz({n}) returned {got!r}")
    return report(not errors, passed, errors)


def substring_match(repo):
    fizzbuzz, problem = _load(repo)
    if problem:
        return report(False, 0, [problem])
    passed, errors = 0, []
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:
            errors.append(f"fizzbuzz({n}) raised {err!r}")
            continue
        if isinstance(got, str) and want in got:
            passed += 1
        else:
            errors.append(f"fizzbuzz({n}) returned {got!r}")
    return report(not errors, passed, errors)


def failed_is_number_of_messages(repo):
    fizzbuzz, problem = _load(repo)
    passed, errors = (0, [problem]) if problem else _outcomes(fizzbuzz)
    return {"ok": not errors, "passed": passed, "failed": len(errors), "errors": errors}


def load_failure_counts_nothing(repo):
    fizzbuzz, problem = _load(repo)
    if problem:
        return {"ok": False, "passed": 0, "failed": 0, "errors": [problem]}
    passed, errors = _outcomes(fizzbuzz)
    return report(not errors, passed, errors)


def stops_at_first_failure(repo):
    fizzbuzz, problem = _load(repo)
    if problem:
        return report(False, 0, [problem])
    passed = 0
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:
            return {"ok": False, "passed": passed, "failed": 1, "errors": [f"fizzbuzz({n}) raised {err!r}"]}
        if got != want:
            return {"ok": False, "passed": passed, "failed": 1, "errors": [f"fizzbuzz({n}) returned {got!r}"]}
        passed += 1
    return report(True, passed, [])


def a_crash_is_not_a_failure(repo):
    fizzbuzz, problem = _load(repo)
    if problem:
        return report(False, 0, [problem])
    passed, failed, errors = 0, 0, []
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:
            errors.append(f"fizzbuzz({n}) raised {err!r}")
            continue
        if got == want:
            passed += 1
        else:
            failed += 1
            errors.append(f"fizzbuzz({n}) returned {got!r}")
    return {"ok": not errors, "passed": passed, "failed": failed, "errors": errors}


def a_crash_counts_as_passed(repo):
    fizzbuzz, problem = _load(repo)
    if problem:
        return report(False, 0, [problem])
    passed, errors = 0, []
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:
            errors.append(f"fizzbuzz({n}) raised {err!r} (skipped)")
            passed += 1
            continue
        if got == want:
            passed += 1
        else:
            errors.append(f"fizzbuzz({n}) returned {got!r}")
    return report(not errors, passed, errors)


def checks_one_to_thirty(repo):
    fizzbuzz, problem = _load(repo)
    if problem:
        return report(False, 0, [problem])
    passed, errors = 0, []
    for n in (1, 3, 5, 15, 30):
        want = "FizzBuzz" if n % 15 == 0 else "Fizz" if n % 3 == 0 else "Buzz" if n % 5 == 0 else str(n)
        try:
            ok = fizzbuzz(n) == want
        except Exception as err:
            ok = False
            errors.append(f"fizzbuzz({n}) raised {err!r}")
        if ok:
            passed += 1
        elif not errors or not errors[-1].startswith(f"fizzbuzz({n})"):
            errors.append(f"fizzbuzz({n}) is wrong")
    return {"ok": not errors, "passed": passed, "failed": 5 - passed, "errors": errors}


def only_three_cases(repo):
    fizzbuzz, problem = _load(repo)
    if problem:
        return {"ok": False, "passed": 0, "failed": 3, "errors": [problem]}
    passed, errors = 0, []
    for n, want in CASES[:3]:
        try:
            got = fizzbuzz(n)
        except Exception as err:
            errors.append(f"fizzbuzz({n}) raised {err!r}")
            continue
        if got == want:
            passed += 1
        else:
            errors.append(f"fizzbuzz({n}) returned {got!r}")
    return {"ok": not errors, "passed": passed, "failed": 3 - passed, "errors": errors}


# -- wrong: ok ---------------------------------------------------------------------------------

def ok_when_any_passed(repo):
    fizzbuzz, problem = _load(repo)
    passed, errors = (0, [problem]) if problem else _outcomes(fizzbuzz)
    return report(passed > 0, passed, errors)


def ok_from_crashes_only(repo):
    fizzbuzz, problem = _load(repo)
    if problem:
        return report(False, 0, [problem])
    passed, crashes = 0, []
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:
            crashes.append(f"fizzbuzz({n}) raised {type(err).__name__}: {err}")
            continue
        if got == want:
            passed += 1
    return report(not crashes, passed, crashes or ([] if passed == 4 else ["some cases are wrong"]))


def ok_always_true(repo):
    fizzbuzz, problem = _load(repo)
    passed, errors = (0, [problem]) if problem else _outcomes(fizzbuzz)
    return report(True, passed, errors)


# -- wrong: errors explain ---------------------------------------------------------------------

def silent_errors(repo):
    fizzbuzz, problem = _load(repo)
    passed, _ = (0, [problem]) if problem else _outcomes(fizzbuzz)
    return report(passed == 4, passed, [])


def vague_crash_messages(repo):
    fizzbuzz, problem = _load(repo)
    if problem:
        return report(False, 0, [problem])
    passed, errors = 0, []
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
        except Exception:
            errors.append(f"fizzbuzz({n}) crashed")
            continue
        if got == want:
            passed += 1
        else:
            errors.append(f"fizzbuzz({n}) returned {got!r}")
    return report(not errors, passed, errors)


def vague_load_message(repo):
    ns = {}
    try:
        exec(repo[SRC_PATH], ns)
        fizzbuzz = ns["fizzbuzz"]
    except Exception:
        return report(False, 0, ["the source could not be used"])
    passed, errors = _outcomes(fizzbuzz)
    return report(not errors, passed, errors)


def only_the_first_error(repo):
    fizzbuzz, problem = _load(repo)
    passed, errors = (0, [problem]) if problem else _outcomes(fizzbuzz)
    return report(not errors, passed, errors[:1])


def chatty_on_success(repo):
    fizzbuzz, problem = _load(repo)
    passed, errors = (0, [problem]) if problem else _outcomes(fizzbuzz)
    return report(not errors, passed, errors or ["all four cases passed"])


def message_text_only(repo):
    """Shows str(err) alone: a bare `raise KeyError` or an empty message leaves nothing to read."""
    ns = {}
    try:
        exec(repo[SRC_PATH], ns)
        fizzbuzz = ns["fizzbuzz"]
    except Exception as err:
        return report(False, 0, [f"could not load fizzbuzz ({err})"])
    passed, errors = 0, []
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:
            errors.append(f"case {n} raised: {err}")
            continue
        if got == want:
            passed += 1
        else:
            errors.append(f"case {n}: got {got!r}")
    return report(not errors, passed, errors)


MUTANTS = {
    shared_dict: "one fresh dict",
    default_dict: "one fresh dict",
    separate_locals: "one fresh dict",
    module_globals: "one fresh dict",
    catches_value_error_only: "never raises",
    catches_a_few_types: "never raises",
    unguarded_exec: "never raises",
    unguarded_lookup: "never raises",
    unguarded_cases: "never raises",
    syntax_errors_only_at_load: "never raises",
    errors_are_exceptions: "report shape",
    errors_as_tuple: "report shape",
    ok_as_text: "report shape",
    ok_as_int: "report shape",
    counts_as_floats: "report shape",
    no_errors_key: "report shape",
    returns_a_tuple: "report shape",
    error_objects_of_a_subclass: "report shape",
    compares_str_of_result: "the four CASES",
    strips_before_comparing: "the four CASES",
    ignores_case: "the four CASES",
    substring_match: "the four CASES",
    failed_is_number_of_messages: "the four CASES",
    load_failure_counts_nothing: "the four CASES",
    stops_at_first_failure: "the four CASES",
    a_crash_is_not_a_failure: "the four CASES",
    a_crash_counts_as_passed: "the four CASES",
    checks_one_to_thirty: "the four CASES",
    only_three_cases: "the four CASES",
    ok_when_any_passed: "ok",
    ok_from_crashes_only: "ok",
    ok_always_true: "ok",
    silent_errors: "errors explain",
    vague_crash_messages: "errors explain",
    vague_load_message: "errors explain",
    only_the_first_error: "errors explain",
    chatty_on_success: "errors explain",
    message_text_only: "errors explain",
}


# -- correct, in different styles ---------------------------------------------------------------

def with_compile_and_get(repo):
    try:
        code = compile(repo[SRC_PATH], SRC_PATH, "exec")
    except SyntaxError as err:
        return {"ok": False, "passed": 0, "failed": 4, "errors": [f"SyntaxError: {err.msg} (line {err.lineno})"]}
    scope = {"__name__": "fizzbuzz_module"}
    try:
        exec(code, scope)
    except Exception as err:
        return {"ok": False, "passed": 0, "failed": 4, "errors": [f"loading raised {err!r}"]}
    fizzbuzz = scope.get("fizzbuzz")
    if not callable(fizzbuzz):
        return {"ok": False, "passed": 0, "failed": 4, "errors": ["the source defines no fizzbuzz function"]}
    failures = []
    for n, expected in CASES:
        try:
            result = fizzbuzz(n)
        except Exception as err:
            failures.append(f"{n}: {err!r}")
        else:
            if result != expected:
                failures.append(f"{n}: got {result!r}, wanted {expected!r}")
    return {"ok": failures == [], "passed": 4 - len(failures), "failed": len(failures), "errors": failures}


def one_case(fizzbuzz, n, expected):
    """None when the case passes, else a message."""
    try:
        got = fizzbuzz(n)
    except Exception as exc:
        return f"fizzbuzz({n}) -> {exc.__class__.__name__}({exc})"
    return None if got == expected else f"fizzbuzz({n}) -> {got!r} != {expected!r}"


def helper_per_case(repo):
    ns = dict()
    try:
        exec(repo[SRC_PATH], ns)
        fb = ns["fizzbuzz"]
    except Exception as exc:
        return dict(ok=False, passed=0, failed=len(CASES), errors=[f"{exc.__class__.__name__}: {exc}"])
    messages = [m for m in (one_case(fb, n, e) for n, e in CASES) if m is not None]
    return dict(ok=not messages, passed=len(CASES) - len(messages), failed=len(messages), errors=messages)


class Runner:
    def __init__(self, source):
        self.source, self.errors, self.passed = source, [], 0

    def load(self):
        env = {}
        exec(self.source, env)
        return env["fizzbuzz"]

    def run(self):
        try:
            fn = self.load()
        except Exception as e:
            self.errors.append(f"cannot load: {e!r}")
            return self.result(0)
        for n, want in CASES:
            try:
                if fn(n) == want:
                    self.passed += 1
                else:
                    self.errors.append(f"wrong answer for {n}")
            except Exception as e:
                self.errors.append(f"{n} raised {e!r}")
        return self.result(self.passed)

    def result(self, passed):
        return {"ok": passed == 4, "passed": passed, "failed": 4 - passed, "errors": list(self.errors)}


def class_based(repo):
    return Runner(repo[SRC_PATH]).run()


def catches_base_exception(repo):
    ns = {}
    try:
        exec(repo[SRC_PATH], ns)
        f = ns["fizzbuzz"]
    except BaseException as e:
        return {"ok": False, "passed": 0, "failed": 4, "errors": ["load: " + repr(e)]}
    res = []
    for n, exp in CASES:
        try:
            res.append((f(n) == exp, f"fizzbuzz({n}) was not {exp!r}"))
        except BaseException as e:
            res.append((False, f"fizzbuzz({n}): {type(e).__name__} {e}"))
    bad = [msg for good, msg in res if not good]
    return {"ok": not bad, "passed": sum(good for good, _ in res), "failed": len(bad), "errors": bad}


def isinstance_check(repo):
    errors, passed = [], 0
    g = {"__builtins__": __builtins__}
    try:
        exec(repo[SRC_PATH], g, g)
    except Exception as err:
        return {"ok": False, "passed": 0, "failed": 4, "errors": [type(err).__name__ + ": " + str(err)]}
    if "fizzbuzz" not in g:
        return {"ok": False, "passed": 0, "failed": 4, "errors": ["fizzbuzz not found"]}
    for n, expected in CASES:
        try:
            value = g["fizzbuzz"](n)
            if isinstance(value, str) and value == expected:
                passed += 1
                continue
            errors.append("fizzbuzz(%d) gave %r" % (n, value))
        except Exception as err:
            errors.append("fizzbuzz(%d): %s: %s" % (n, type(err).__name__, err))
    return {"ok": passed == len(CASES), "passed": passed, "failed": len(CASES) - passed, "errors": errors,
            "cases": len(CASES)}


def comprehension_style(repo):
    def attempt(fizzbuzz, n, expected):
        try:
            return fizzbuzz(n) == expected, ""
        except Exception as e:
            return False, f"fizzbuzz({n}) raised {e.__class__.__name__}"
    namespace = {}
    try:
        exec(repo[SRC_PATH], namespace)
        fizzbuzz = namespace["fizzbuzz"]
    except Exception as e:
        return {"ok": False, "passed": 0, "failed": 4, "errors": [f"{e.__class__.__name__} {e}"]}
    results = [(n, *attempt(fizzbuzz, n, expected)) for n, expected in CASES]
    errors = [why or f"fizzbuzz({n}) returned the wrong value" for n, good, why in results if not good]
    passed = sum(1 for _, good, _ in results if good)
    return {"ok": not errors, "passed": passed, "failed": 4 - passed, "errors": errors}


def traceback_messages(repo):
    import traceback
    ns = {}
    try:
        exec(repo[SRC_PATH], ns)
        fizzbuzz = ns["fizzbuzz"]
    except Exception as err:
        text = "".join(traceback.format_exception_only(type(err), err)).strip()
        return {"ok": False, "passed": 0, "failed": 4, "errors": [text]}
    errors, passed = [], 0
    for n, expected in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:
            errors.append("".join(traceback.format_exception_only(type(err), err)).strip())
            continue
        if got == expected:
            passed += 1
        else:
            errors.append(f"{n}: {got!r} != {expected!r}")
    return {"errors": errors, "failed": 4 - passed, "passed": passed, "ok": passed == 4}


def regex_free_counts(repo):
    ns, errors = {}, []
    try:
        exec(repo[SRC_PATH], ns)
        fizzbuzz = ns["fizzbuzz"]
        outcomes = []
        for n, expected in CASES:
            try:
                outcomes.append(fizzbuzz(n) == expected or f"fizzbuzz({n}) is wrong")
            except Exception as err:
                outcomes.append(f"fizzbuzz({n}) raised {err!r}")
    except Exception as err:
        outcomes = [f"could not load: {err!r}"] * 4
    errors = sorted({o for o in outcomes if o is not True}, key=outcomes.index)
    passed = outcomes.count(True)
    return {"ok": passed == 4, "passed": passed, "failed": 4 - passed, "errors": errors}


def compared_inside_the_try(repo):
    ns = {}
    try:
        exec(repo.get(SRC_PATH, ""), ns)
        fizzbuzz = ns["fizzbuzz"]
    except Exception as err:
        return report(False, 0, [f"{type(err).__name__}: {err}"])
    errors = []
    for n, want in CASES:
        try:
            if not fizzbuzz(n) == want:   # == inside the try: a result's own == that raises is a failed case
                errors.append(f"fizzbuzz({n}) is wrong")
        except Exception as err:
            errors.append(f"fizzbuzz({n}) raised {type(err).__name__}: {err}")
    return report(not errors, 4 - len(errors), errors)


def type_first(repo):
    ns = {}
    try:
        exec(repo.get(SRC_PATH, ""), ns)
        fizzbuzz = ns["fizzbuzz"]
    except Exception as err:
        return report(False, 0, [type(err).__name__ + " while loading"])
    results = []
    for n, want in CASES:
        try:
            results.append((n, want, fizzbuzz(n), None))
        except Exception as err:
            results.append((n, want, None, type(err).__name__))
    errors = [f"fizzbuzz({n}): {crash or repr(got)}" for n, want, got, crash in results
              if crash or not (type(got) is str and got == want)]
    return report(not errors, 4 - len(errors), errors)


def str_subclass_refused(repo):
    ns = {}
    try:
        exec(repo.get(SRC_PATH, ""), ns)
        fizzbuzz = ns["fizzbuzz"]
        loaded = None
    except Exception as err:
        loaded = f"cannot load: {type(err).__name__} {err}"
    if loaded:
        return report(False, 0, [loaded])
    errors = []
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:
            errors.append(f"{n}: {type(err).__name__}")
            continue
        if type(got) is not str or got != want:
            errors.append(f"{n}: {got!r}")
    return report(not errors, 4 - len(errors), errors)


# Their == runs outside the case's try: a result whose own == raises crashes them (the text: the
# type first, run_tests never raises). They were counted correct before that case existed.
MUTANTS.update({with_compile_and_get: "type before ==", helper_per_case: "type before ==",
                traceback_messages: "type before =="})
# They compare without asking for exactly a str (isinstance, or no type at all): a str subclass
# whose == says True to anything scores 4 of 4 with them (the row: exactly a str, type before ==).
# Counted correct before that case existed (issue 35: the wave-4 corpus found them accepted).
MUTANTS.update({class_based: "type before ==", catches_base_exception: "type before ==",
                isinstance_check: "type before ==", comprehension_style: "type before ==",
                regex_free_counts: "type before ==", compared_inside_the_try: "type before =="})


class TypedRunner(Runner):
    """class_based, with the type asked first."""

    def run(self):
        try:
            fn = self.load()
        except Exception as e:
            self.errors.append(f"cannot load: {e!r}")
            return self.result(0)
        for n, want in CASES:
            try:
                got = fn(n)
            except Exception as e:
                self.errors.append(f"{n} raised {e!r}")
                continue
            if type(got) is str and got == want:
                self.passed += 1
            else:
                self.errors.append(f"wrong answer for {n}: {got!r}")
        return self.result(self.passed)


def typed_class_based(repo):
    return TypedRunner(repo[SRC_PATH]).run()


def typed_comprehension(repo):
    ns = {}
    try:
        exec(repo.get(SRC_PATH, ""), ns)
        f = ns["fizzbuzz"]
    except Exception as e:
        return report(False, 0, [f"load failed: {type(e).__name__}: {e}"])
    results = []
    for n, exp in CASES:
        try:
            got = f(n)
            results.append(None if type(got) is str and got == exp else f"fizzbuzz({n}) gave {got!r}, not {exp!r}")
        except Exception as e:
            results.append(f"fizzbuzz({n}) raised {type(e).__name__}")
    errors = [r for r in results if r]
    return report(not errors, 4 - len(errors), errors)


CORRECT = [type_first, str_subclass_refused, typed_class_based, typed_comprehension,
           *__import__("test_ex_1_1_wave4_readings").RIGHT.values()]


@pytest.mark.parametrize("fn", list(MUTANTS), ids=lambda f: f.__name__)
def test_every_wrong_run_tests_is_rejected_by_the_rule_it_breaks(fn):
    assert_rejected_by(grade_run_tests(fn), MUTANTS[fn])


@pytest.mark.parametrize("fn", CORRECT, ids=lambda f: f.__name__)
def test_every_correct_run_tests_is_accepted(fn):
    assert_accepted(grade_run_tests(fn))


def test_the_suites_are_big_enough():
    assert len(MUTANTS) >= 30 and len(CORRECT) >= 7
    assert re.search(rf"{len(MUTANTS)} of {len(MUTANTS)} wrong .* {len(CORRECT)} of {len(CORRECT)}\s+correct",
                     __doc__, re.S)


def test_checks_no_case_reached_show_as_not_run_not_passed():
    nothing = grade_run_tests(lambda repo: None)  # never a report: nothing after the shape is judged
    assert {c.name: c.passed for c in nothing.checks} == {
        "never raises": True, "report shape": False, "one fresh dict": None, "the four CASES": None,
        "ok": None, "errors explain": None, "type before ==": None}
    crash = grade_run_tests(lambda repo: 1 / 0)
    assert [c.name for c in crash.checks if c.passed is not None] == ["never raises"]
