"""Exercise 1.1: grade a learner's ``run_tests(repo)``.

Requirements (each sentence of the exercise text, and the check that grades it):

===================================================================  =================
the exercise says                                                    check
===================================================================  =================
``run_tests`` itself never raises (source that does not compile,     ``never raises``
has no ``fizzbuzz``, or raises any exception: failed cases)
return ``{"ok": bool, "passed": int, "failed": int,                  ``report shape``
"errors": [str, ...]}`` (exact types; other keys are ignored)
``exec`` the source into one fresh dict (nothing from an earlier     ``one fresh dict``
call, nor the caller's globals; the source's own helpers are found)
check the four ``CASES``: ``passed`` counts the ones whose result    ``the four CASES``
equals the expected string, ``failed`` the others (stub 1 of 4,
a correct ``fizzbuzz`` 4 of 4)
``ok`` is True exactly when all four cases passed                    ``ok``
every failure comes with a message saying what went wrong: no       ``errors explain``
message on a clean run, at least one on a failing run, and each
exception named by its type, whatever its text (a missing fizzbuzz may be said in words)
a result counts if it is exactly the expected str (its type before  ``type before ==``
``==``: a result's own ``==`` is its code and may raise)
===================================================================  =================

Scenarios: named sources (the stub, a correct one, a Fizz-only cut, a crash, a
wrong type, no compile, no ``fizzbuzz``, a helper, a load-time raise) and 80
random ones built from the same parts (any of 16 exception types, raised at
load or on any case, with or without message; helpers; wrong strings;
non-strings), each compared with :func:`reference_run_tests`.

Measured by tests/grading/test_ex_1_1_mutants.py (wrong solutions written from the
exercise text, each rejected with the right first check; correct ones accepted) and
tests/grading/test_reference_mutants.py (mutants of the worked solution); the counts are there.
"""

import random

from ..clip import clip, safe_repr
from ..oracle import CASES
from ..repo import SRC_PATH, initial_repo
from .core import Report, call_learner, grading_run
from .shapes import kind, str_list

REQUIREMENTS = (
    ("never raises", "run_tests itself never raises: bad source comes out as failed cases"),
    ("report shape", "returns a dict with ok (bool), passed and failed (ints), errors (list of str)"),
    ("one fresh dict", "execs each source into one fresh dict: nothing leaks in from an earlier "
                       "call, and the source's own helpers are found"),
    ("the four CASES", "passed counts the CASES whose result equals the expected string, failed the others"),
    ("ok", "ok is True exactly when all four cases passed"),
    ("errors explain", "no message on a clean run; every failure has one, naming the exception"),
    ("type before ==", "a result counts only if it is a str: its type is checked before == (a result's "
                       "own == is its code, and may raise)"),
)


def reference_run_tests(repo):
    """The behaviour the exercise text asks for (plain ``exec``, as the hint allows)."""
    errors, passed = [], 0
    namespace = {}
    try:
        exec(repo.get(SRC_PATH, ""), namespace)
        fizzbuzz = namespace["fizzbuzz"]
    except Exception as err:  # noqa: BLE001 -- the exercise's rule: a crash is a failed case
        problem = f"could not load fizzbuzz: {type(err).__name__}: {err}"
        return {"ok": False, "passed": 0, "failed": len(CASES), "errors": [problem]}
    for n, expected in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:  # noqa: BLE001 -- the exercise's rule: a crash is a failed case
            errors.append(f"fizzbuzz({n}) raised {type(err).__name__}: {err}")
            continue
        if type(got) is str and got == expected:
            passed += 1
        else:
            errors.append(f"fizzbuzz({n}) returned {got!r}; expected {expected!r}")
    return {"ok": not errors, "passed": passed, "failed": len(CASES) - passed, "errors": errors}


# -- sources: built from parts, so that named and random ones share one generator ----------------

EXCEPTIONS = ("ValueError", "KeyError", "ZeroDivisionError", "TypeError", "IndexError",
              "AttributeError", "RecursionError", "AssertionError", "StopIteration", "NameError",
              "RuntimeError", "LookupError", "OSError", "UnicodeError", "ArithmeticError", "Oops")
WRONG = ("'fizz'", "'Fizz '", "'FIZZBUZZ'", "''", "str(n) + '!'", "n", "None", "float(n)", "[str(n)]")
RIGHT = {1: "str(n)", 3: "'Fizz'", 5: "'Buzz'", 15: "'FizzBuzz'"}


def source(actions, *, helper=False, load="", name="fizzbuzz"):
    """A fizzbuzz whose answer for each case is ``actions[n]`` (an expression, or ``raise ...``)."""
    # Oops, an exception of the source's own, only where a case raises it: a source with no class
    # is one the course's own oracle runs too (it refuses classes), so a correct one passes there.
    lines = ["class Oops(Exception):", "    pass", ""] if "Oops" in "".join([load, *actions.values()]) else []
    if load:
        lines.append(load)
    if helper:  # a module-level helper and constant: found only if exec used one dict
        lines += ["WORDS = {3: 'Fizz', 5: 'Buzz', 15: 'FizzBuzz'}", "def word(n):",
                  "    return WORDS.get(n, str(n))", ""]
    lines.append(f"def {name}(n):")
    for n in (15, 5, 3, 1):
        action = actions.get(n, RIGHT[n])
        if helper and action == RIGHT[n]:
            action = "word(n)"
        lines += [f"    if n == {n}:", f"        {action if action.startswith('raise') else 'return ' + action}"]
    lines.append("    return str(n)")
    return "\n".join(lines) + "\n"


def raising(exc, text):
    return f"raise {exc}({text!r})" if text else f"raise {exc}"


NAMED = (
    # (what, source): the named ones a learner sees in messages
    ("a source with no fizzbuzz", "def fizz(n):\n    return str(n)\n"),
    ("a source that does not compile", "def fizzbuzz(n)\n    return str(n)\n"),
    ("the stub", initial_repo()[SRC_PATH]),
    ("a correct fizzbuzz", source({})),
    ("a Fizz-only fizzbuzz", source({5: "str(n)", 15: "'Fizz'"})),
    ("a fizzbuzz that raises ValueError('five') on 5", source({5: raising("ValueError", "five")})),
    ("a fizzbuzz that returns numbers", "def fizzbuzz(n):\n    return n\n"),
    ("a fizzbuzz that raises KeyError on 3 and, on 15, Oops (an exception class the source defines) "
     "with no text",
     source({3: raising("KeyError", "three"), 15: raising("Oops", "")})),
    ("a source that raises ZeroDivisionError while loading", source({}, load="1 / 0")),
    ("a source whose fizzbuzz is a number", "fizzbuzz = 15\n"),
    ("a fizzbuzz that returns 'Fizz ' with a space", source({3: "'Fizz '"})),
)

# A result whose own == raises: compared before its type is checked, it crashes run_tests outside
# the case's try. Its own check, last, so that the first failing line of any other mistake stays.
SLY = ("a fizzbuzz that returns, on 3, a value whose == raises",
       "class Sly:\n    def __eq__(self, other):\n        raise ValueError('no comparing me')\n"
       "    __hash__ = None\n\n    def __repr__(self):\n        return 'Sly()'\n\n\n" + source({3: "Sly()"}))

# A source that looks at its own dict when it loads: in a fresh one there is nothing yet (but
# __builtins__). Left-over names, from an earlier call's dict or the caller's globals(), make it
# answer wrong, whatever else the learner's run_tests does right.
LOOKS_AT_ITS_DICT = ("_before = sorted(name for name in globals() if not name.startswith('__'))\n"
                     + source({n: f"'the dict already held ' + ', '.join(_before) if _before else {RIGHT[n]}"
                               for n in (1, 3, 5, 15)}))


# A result that is a str subclass whose == says True to anything: an isinstance check counts it
# as the expected string; the row asks for exactly a str, so it is a failed case.
LIAR = ("a fizzbuzz that returns, on 3, a str subclass whose == says True to anything",
        "class Liar(str):\n    def __eq__(self, other):\n        return True\n\n    __hash__ = str.__hash__\n\n\n"
        + source({3: "Liar('not Fizz')"}))

# A source that asks whether its dict was a globals dict of an earlier call (kept alive in
# _DICTS_SEEN for one grading run, so identity is exact): a dict kept and emptied between calls
# is not a fresh one, though it looks empty.
_DICTS_SEEN = []
ASKS_IF_ITS_DICT_IS_NEW = (
    "import agent_team.grading.ex_run_tests as _grader\n"
    "_used_before = any(d is globals() for d in _grader._DICTS_SEEN)\n"
    "_grader._DICTS_SEEN.append(globals())\n"
    + source({n: f"'this dict was used by an earlier call' if _used_before else {RIGHT[n]}" for n in (1, 3, 5, 15)}))


def random_sources(count, seed=11):
    """Sources spread over what the text allows: any exception type, at load or on any case."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        actions = {}
        for n in (1, 3, 5, 15):
            roll = rng.random()
            if roll < 0.25:
                actions[n] = raising(rng.choice(EXCEPTIONS), rng.choice(("", "bad input", f"no {n}")))
            elif roll < 0.5:
                actions[n] = rng.choice(WRONG)
        load = ""
        if rng.random() < 0.1:
            load = raising(rng.choice(EXCEPTIONS), rng.choice(("", "at load")))
        text = source(actions, helper=rng.random() < 0.4, load=load,
                      name="fizzbuzz" if rng.random() > 0.05 else "fizz_buzz")
        if rng.random() < 0.05:
            text = text.replace("):", ")", 1)  # a syntax error somewhere near the top
        out.append((f"random source {i + 1}", text))
    return tuple(out)


RANDOM = random_sources(80)


def exceptions_of(text):
    """Every exception the source raises while loading or on a case, as (type name, other words that
    name it: "fizzbuzz" when there is none to run, else ""), and whether it was while loading."""
    namespace, found = {}, []
    try:
        exec(compile(text, SRC_PATH, "exec"), namespace)
        fizzbuzz = namespace["fizzbuzz"]
    except SyntaxError:
        return [("SyntaxError", "")], True
    except KeyError:  # no fizzbuzz: not an exception of the source's; "no fizzbuzz" in words names it
        return [("KeyError", "fizzbuzz")], True
    except Exception as err:  # noqa: BLE001 -- our own sources
        return [(type(err).__name__, "")], True
    for n, _ in CASES:
        try:
            fizzbuzz(n)
        except TypeError:  # a fizzbuzz that is no function: "not callable" in words names it
            found.append(("TypeError", "fizzbuzz" if not callable(fizzbuzz) else ""))
        except Exception as err:  # noqa: BLE001 -- our own sources; what they raise is what is recorded
            found.append((type(err).__name__, ""))
    return found, False


# -- grading ------------------------------------------------------------------------------------

class _Grading:
    """One grading run: the report, and whether the learner's function is the stub (then we stop calling it)."""

    def __init__(self, report, fn):
        self.report, self.fn, self.stopped = report, fn, False

    def run(self, what, text, check="never raises"):
        """One call of the learner's run_tests on ``text``; its valid report dict, or None."""
        report = self.report
        if self.stopped:
            return None
        call = call_learner(self.fn, {**initial_repo(), SRC_PATH: text}, what="run_tests")
        if call.not_implemented:
            self.stopped = True
            report.outcome_override = "not implemented"
            return None
        if not call.ok and call.timed_out:
            report.fail("never raises", f"On {what}: {call.problem} run_tests must return, whatever the source.")
            return None
        if not call.ok:
            advice = ("check the result's type first, type(got) is str and got == expected, so that a "
                      "result's own == never runs" if check == "type before ==" else
                      "catch the error and count the cases it spoils as failed")
            report.fail(check, f"On {what}: {call.problem} run_tests must never raise: {advice}.")
            return None
        report.tried("never raises")
        got = call.value
        if type(got) is not dict or not all(type(key) is str for key in got):  # str keys: lookups run no code
            report.fail("report shape", f"On {what}, run_tests returned {kind(got)}: {safe_repr(got)}; it must "
                                        "return a dict with ok, passed, failed and errors.")
            return None
        for key, want, ok in (("ok", "a bool (True or False)", lambda v: type(v) is bool),
                              ("passed", "an int", lambda v: type(v) is int),
                              ("failed", "an int", lambda v: type(v) is int),
                              ("errors", "a list of str", str_list)):
            if key not in got or not ok(got[key]):
                shown = f"{kind(got[key])}: {safe_repr(got[key])}" if key in got else "missing"
                if key == "errors" and key in got and type(got[key]) is list:
                    odd = next(item for item in got[key] if type(item) is not str)
                    shown = f"a list holding {kind(odd)}: {safe_repr(odd)}"
                report.fail("report shape", f"On {what}, {key!r} is {shown}; it must be {want}.")
                return None
        report.tried("report shape")
        return got

    def fresh_dict(self):
        """Self-consistency probes: the learner's own answers must not depend on earlier calls."""
        no_fizzbuzz = NAMED[0][1]
        before = self.run("a source with no fizzbuzz", no_fizzbuzz)
        correct = self.run("a correct fizzbuzz", source({}))
        after = self.run("a source with no fizzbuzz, run after a correct one", no_fizzbuzz)
        helper = self.run("a correct fizzbuzz that calls its own helper", source({}, helper=True))
        looks = self.run("a correct fizzbuzz that looks at its own dict", LOOKS_AT_ITS_DICT)
        again = self.run("the same fizzbuzz, run again", LOOKS_AT_ITS_DICT)
        _DICTS_SEEN.clear()
        new = [self.run("a correct fizzbuzz that asks whether its dict is new", ASKS_IF_ITS_DICT_IS_NEW)
               for _ in range(2)]
        _DICTS_SEEN.clear()  # the dicts (and the learner's functions in them) are let go
        if None in (before, correct, after, helper, looks, again, *new):
            return
        self.report.tried("one fresh dict")
        fail = self.report.check("one fresh dict").fail

        def differs(run):  # from the correct fizzbuzz's score, which a fresh dict gives every time
            return (run["passed"], run["failed"]) != (correct["passed"], correct["failed"])

        def held(run):  # the error naming the names left in the dict, else the errors
            return clip(next((e for e in run["errors"] if "already held" in e), safe_repr(run["errors"], 200)), 200)

        if before["passed"]:  # nothing to run can pass nothing: a fizzbuzz came from an earlier call
            fail(f"A source with no fizzbuzz must score 0 of 4 (it has nothing to run), but yours scored "
                 f"{before['passed']} of 4, and {after['passed']} of 4 right after a correct one: a fizzbuzz "
                 "from an earlier call was still in the dict. exec each source into a new dict, made "
                 "inside run_tests on every call.")
        elif (after["passed"], after["failed"]) != (before["passed"], before["failed"]):
            fail(f"A source with no fizzbuzz scored 0 of 4 alone, as it must, but {after['passed']} of 4 "
                 "right after a correct one: the correct fizzbuzz from that earlier call was still in "
                 "the dict. exec each source into a new dict.")
        elif differs(helper):
            fail(f"A correct fizzbuzz scored {correct['passed']} of 4, but only {helper['passed']} of 4 "
                 f"when it calls a helper defined next to it ({safe_repr(helper['errors'])}): exec the source "
                 "into one dict, used as its globals, so that its functions find each other.")
        elif differs(looks):
            fail(f"A correct fizzbuzz that lists the names already in its dict when it loads scored "
                 f"{looks['passed']} of 4 ({held(looks)}): those names are left from an earlier call, "
                 "or the dict is your own module's globals(). exec each source into a new dict, made "
                 "inside run_tests on every call.")
        elif differs(again):
            fail(f"The same correct fizzbuzz scored {looks['passed']} of 4 the first time and {again['passed']} "
                 f"of 4 when run again ({held(again)}): its dict was kept from the first call (a dict per "
                 "source is still a dict kept between calls). exec each source into a new dict, made inside "
                 "run_tests on every call.")
        elif any(differs(n) for n in new):
            fail(f"A correct fizzbuzz that asks whether its dict is new scored {new[0]['passed']} of 4, then "
                 f"{new[1]['passed']} of 4 on the next call: that dict was one an earlier call used, emptied. "
                 "Emptied is not fresh: exec each source into a new dict ({}), made inside run_tests on "
                 "every call.")

    def compare(self, what, text, got):
        fail, tried = self.report.fail, self.report.tried
        want = reference_run_tests({SRC_PATH: text})
        counts = (got["passed"], got["failed"])
        # Each check is judged (tried) only once the ones above it hold for this case.
        tried("the four CASES")
        if counts != (want["passed"], want["failed"]):
            fail("the four CASES", f"On {what}: passed={counts[0]}, failed={counts[1]}; the four CASES "
                                   f"give passed={want['passed']}, failed={want['failed']}.\n{text}")
            return
        tried("ok")
        if got["ok"] is not want["ok"]:
            fail("ok", f"On {what}: ok={got['ok']} with passed={counts[0]}, failed={counts[1]}; ok is "
                       "True exactly when all four cases passed.")
            return
        tried("errors explain")
        if want["ok"] and got["errors"]:
            fail("errors explain", f"On {what}: every case passed, but errors is {safe_repr(got['errors'])}; "
                                   "a clean run has no messages.")
        elif not want["ok"] and not got["errors"]:
            fail("errors explain", f"On {what}: {counts[1]} failed, but errors is empty; every failure "
                                   "needs a message saying what went wrong.")
        else:
            raised, at_load = exceptions_of(text)
            joined = "\n".join(got["errors"])
            for name, words in raised:  # words: what also names it (a missing fizzbuzz), or ""
                if name not in joined and not (words and words in joined):
                    where = "while loading" if at_load else "on a case"
                    fail("errors explain", f"On {what}: it raised {name} {where}, but no message names that "
                                           f"type: {safe_repr(got['errors'], 300)}. Name every exception by its "
                                           f"type, type(err).__name__, its text or not.\n{text}")
                    return


@grading_run
def grade_run_tests(fn):
    """Grade a learner's ``run_tests(repo)``; always returns a Report."""
    report = Report(exercise="1.1").declare_all(REQUIREMENTS)
    if not callable(fn):
        report.fail("never raises", f"run_tests is {safe_repr(fn)}, not a function. Define it with `def`.")
        return report.finish(ran=False)
    grading = _Grading(report, fn)
    grading.fresh_dict()
    for what, text in NAMED + RANDOM:
        got = grading.run(what, text)
        if got is not None:
            grading.compare(what, text, got)
    # Judged only on a run_tests that survived every other case: a crash there is about ==, not a try.
    if report.check("never raises").passed and grading.run(*SLY, check="type before ==") is not None:
        report.tried("type before ==")
        liar = grading.run(*LIAR, check="type before ==")
        if liar is not None and liar["passed"] != reference_run_tests({SRC_PATH: LIAR[1]})["passed"]:
            report.fail("type before ==", f"On {LIAR[0]}: passed={liar['passed']}; a result counts only if it is "
                                          "exactly a str: check type(got) is str (isinstance lets a subclass in, "
                                          "and its == is its own code), then ==.")
    # A check no case reached (every call raised, or no report had the right shape) shows as not run.
    return report.finish(ran=False)
