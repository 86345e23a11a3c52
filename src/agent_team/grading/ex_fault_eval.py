"""Exercise 4.1: grade an eval of faults, ``EVAL = [(name, kwargs, expected_status), ...]``.

Requirements (each sentence of the exercise text, and the check that grades it):

=====================================================================  ===================
the exercise says                                                      check
=====================================================================  ===================
``EVAL`` is a list of rows ``(name, kwargs, expected_status)``: name  ``rows``
a str, kwargs a dict of keyword arguments ``supervise`` accepts
(any of them, defaults spelled out too), expected ``"pass"`` or
``"budget"``
a row asks for at most 12 rounds and at most 2 s per turn; at most     ``row limits``
16 rows; the whole eval runs within 4 s
it includes part 3's two rows for the healthy team: 1 round ->         ``healthy rows``
``budget`` and 4 rounds -> ``pass`` (judged by the run: a row whose
trace is the healthy team's)
at least two rows inject a fault: their run's trace differs from       ``two faults``
the healthy team's with the same ``max_rounds`` (a key name alone,
``{"coder": None}`` or a wrapper around a healthy policy is no fault)
the grader runs every row and checks how it ends: expected_status      ``expectations``
is the status the run really reaches
a ``budget`` row also ends on code the oracle still fails              ``budget means red``
(``not run_tests(result.repo)["ok"]``), as the notes' eval asserts
=====================================================================  ===================

A trace is compared by what happened (each event's type, round, state, role,
patches, whether they landed and why not, verdicts, test results, overrides,
stop reason), not by thoughts, views or the goal's wording.

Measured by tests/grading/test_ex_4_1_mutants.py (wrong solutions written from the
exercise text, each rejected with the right first check; correct ones accepted) and
tests/grading/test_reference_mutants.py (mutants of the worked solution); the counts are there.
"""

import copy
import difflib
import functools
import inspect
import time

from ..clip import safe_repr
from ..faults import Fault
from ..limits import describe_error
from ..oracle import run_tests
from ..repo import repo_problem
from ..roles import ROLES
from ..supervisor import RUN_STATUSES, supervise
from ..trace import kind_of
from .core import Report, grading_run
from .shapes import kind

MAX_ROUNDS, MAX_SECONDS, MAX_ROWS, TOTAL_SECONDS = 12, 2.0, 16, 4.0
# supervise()'s keywords: its named parameters, and one per role of the table (its **policies).
KEYWORDS = (*(name for name, p in inspect.signature(supervise).parameters.items()
              if p.kind is not inspect.Parameter.VAR_KEYWORD), *ROLES)
HEALTHY = ((1, "budget"), (4, "pass"))

REQUIREMENTS = (
    ("rows", "EVAL is a list of (name, kwargs, expected_status) rows: a str, a dict of supervise() "
             "keyword arguments, 'pass' or 'budget'"),
    ("row limits", f"each row asks for at most {MAX_ROUNDS} rounds and {MAX_SECONDS:g} s per turn; at most "
                   f"{MAX_ROWS} rows, all run within {TOTAL_SECONDS:g} s"),
    ("healthy rows", "includes the healthy team with 1 round -> 'budget' and with 4 rounds -> 'pass'"),
    ("two faults", "at least two rows inject a fault: their trace differs from the healthy team's"),
    ("expectations", "every row's expected_status is how its run really ends"),
    ("budget means red", "every 'budget' row ends on code that still fails the oracle"),
)

_EVENT_KEYS = ("type", "round", "state", "role", "applied", "error", "verdict", "override", "escalated",
               "status", "stop_reason")


def actions(trace):
    """What happened in a run, event by event: the part of a trace a fault can change."""
    out = []
    for e in trace:
        if kind_of(e) == "tamper" and not e.get("changes") and not e.get("error"):
            continue  # a tamper hook that changed nothing did nothing
        row = tuple(e.get(key) for key in _EVENT_KEYS)
        patches = tuple((p.get("path"), p.get("content")) for p in e.get("patches", ()))
        # a tamper hook can put anything into the repo: compare what is not text by its type only
        changes = tuple((c["path"], c["after"] if type(c["after"]) in (str, type(None)) else kind(c["after"]))
                        for c in e.get("changes", ()))
        tests = e.get("tests")
        if tests is not None:
            tests = (tests["ok"], tests["passed"], tests["failed"], tuple(tests["errors"]))
        out.append((row, patches, changes, tests))
    return out


def _rows_problem(rows):
    """What is wrong with the shape of EVAL, in words, or ''. Exact types before anything else."""
    if type(rows) is not list:
        return f"EVAL is {kind(rows)}: {safe_repr(rows)}; it must be a list of (name, kwargs, expected_status) rows."
    for i, row in enumerate(rows, 1):
        if type(row) not in (tuple, list) or len(row) != 3:
            return f"Row {i} is {safe_repr(row)}; each row is a tuple (name, kwargs, expected_status)."
        name, kwargs, expect = row
        if type(name) is not str:
            return f"Row {i}'s name is {kind(name)}: {safe_repr(name)}; use a str."
        if type(kwargs) is not dict or not all(type(k) is str for k in kwargs):
            # a part-4 Fault is the likeliest non-dict here: its keyword arguments are one attribute away
            use = (" A Fault carries its keyword arguments as .kwargs: pass {**fault.kwargs, "
                   "\"max_rounds\": 4}." if isinstance(kwargs, Fault) else "")
            return (f"Row {name!r}: kwargs is {kind(kwargs)}, {safe_repr(kwargs)}; it must be a dict of "
                    f"keyword arguments for supervise(), with plain str keys.{use}")
        unknown = [k for k in kwargs if k not in KEYWORDS]
        if unknown:
            close = difflib.get_close_matches(unknown[0], KEYWORDS, n=1)
            mean = f" (did you mean {close[0]!r}?)" if close else ""
            return (f"Row {name!r}: supervise() has no keyword {unknown[0]!r}{mean}; it takes "
                    f"{', '.join(KEYWORDS)}.")
        problem = repo_problem(kwargs["repo"]) if kwargs.get("repo") is not None else None
        if problem:
            return f"Row {name!r}: repo must be a dict of path -> file text (plain str), or None, {problem}."
        if "max_rounds" in kwargs and type(kwargs["max_rounds"]) is not int:
            return (f"Row {name!r}: max_rounds is {kind(kwargs['max_rounds'])}, {safe_repr(kwargs['max_rounds'])}; it "
                    "must be a whole number (a plain int).")
        if "seconds" in kwargs and type(kwargs["seconds"]) not in (int, float):
            return (f"Row {name!r}: seconds is {kind(kwargs['seconds'])}, {safe_repr(kwargs['seconds'])}; it must be "
                    "a number of seconds (a plain int or float).")
        if "goal" in kwargs and type(kwargs["goal"]) is not str:
            return f"Row {name!r}: goal must be a str, not {kind(kwargs['goal'])}."
        if type(expect) is not str or expect not in RUN_STATUSES:
            return (f"Row {name!r}: expected_status is {kind(expect)}, {safe_repr(expect)}; it must be the plain str "
                    "'pass' or 'budget'.")
    return ""


def _limit_problem(rows):
    if len(rows) > MAX_ROWS:
        return f"EVAL has {len(rows)} rows; the grader runs at most {MAX_ROWS}."
    for name, kwargs, _ in rows:
        rounds, seconds = kwargs.get("max_rounds", 4), kwargs.get("seconds", MAX_SECONDS)
        if type(rounds) is int and rounds > MAX_ROUNDS:
            return (f"Row {name!r} asks for max_rounds={rounds}; the grader runs at most {MAX_ROUNDS} rounds "
                    "per row, so that you never wait long for it.")
        if type(seconds) in (int, float) and seconds > MAX_SECONDS:
            return (f"Row {name!r} asks for seconds={seconds}; the grader allows at most {MAX_SECONDS:g} s per "
                    "turn (the default), so that you never wait long for it.")
    return ""


class _OutOfTime(Exception):
    """Raised instead of calling a row's function once the eval's time is spent."""


def _guarded(fn, deadline):
    """``fn``, refusing to start once ``deadline`` has passed (so a slow row cannot add up)."""
    def guarded(*args):
        if time.perf_counter() > deadline:
            raise _OutOfTime(f"the grader's {TOTAL_SECONDS:g} s for the whole eval are spent")
        return fn(*args)
    try:
        functools.update_wrapper(guarded, fn)  # keeps the name a refusal message shows
    except Exception:  # noqa: BLE001 -- an odd callable keeps the wrapper's own name
        pass
    return guarded


def _bounded(kwargs, deadline):
    """The row's kwargs with every function it brings guarded by the deadline."""
    out = dict(kwargs)
    for key in (*ROLES, "tamper"):
        if callable(out.get(key)):
            out[key] = _guarded(out[key], deadline)
    if type(out.get("rules")) in (list, tuple):
        out["rules"] = [_guarded(r, deadline) if callable(r) else r for r in out["rules"]]
    left = max(deadline - time.perf_counter(), 0.01)
    out["seconds"] = min(out.get("seconds", MAX_SECONDS), left)
    return out


def _run_rows(report, rows):
    """Run every row within the total time; [(row, RunResult)] for the rows that ran.

    ``supervise`` limits every call of a row's functions by ``seconds`` itself; on top, no call
    starts after the eval's deadline and none may last past it, so the total stays bounded
    without tracing the engine (which would make every row several times slower)."""
    ran, deadline = [], time.perf_counter() + TOTAL_SECONDS
    for name, kwargs, expect in rows:
        try:
            kwargs = copy.deepcopy(kwargs)  # the row's own data stays as the learner wrote it
        except Exception as err:  # noqa: BLE001 -- a value that cannot be copied is the row's problem
            report.fail("rows", f"Row {name!r}: its kwargs could not be copied ({type(err).__name__}); "
                                "use plain values and functions.")
            return ran
        try:
            result = supervise(**_bounded(kwargs, deadline))
        except Exception as err:  # noqa: BLE001 -- supervise raises only on misuse, in words
            report.fail("rows", f"Row {name!r} could not run: {describe_error(err)}. Check its keyword arguments.")
            continue
        if time.perf_counter() > deadline:
            report.fail("row limits", f"Row {name!r} did not finish within the {TOTAL_SECONDS:g} s the whole eval "
                                      "may take. A policy that never returns costs `seconds` per turn: give "
                                      "such a row a small `seconds`, e.g. 0.05.")
            return ran
        ran.append(((name, kwargs, expect), result))
    return ran


@grading_run(remember_hangs=False)  # a row's looping policy must cost what it costs outside
def grade_fault_eval(rows):
    """Grade an eval: a list of ``(name, supervise_kwargs, expected_status)`` rows; always returns a Report."""
    report = Report(exercise="4.1").declare_all(REQUIREMENTS)
    if rows is None or rows is Ellipsis:
        report.outcome_override = "not implemented"
        return report.finish(ran=False)
    problem = _rows_problem(rows)
    if problem:
        report.fail("rows", problem)
        return report.finish(ran=False)
    # Every row's shape is judged now: a row cut short later leaves this check passed, not "not run"
    # (a row that cannot run still fails it, below; the first failure is kept).
    report.tried("rows")
    problem = _limit_problem(rows)
    if problem:
        report.fail("row limits", problem)
        return report.finish(ran=False)
    ran = _run_rows(report, rows)
    if len(ran) < len(rows):
        return report.finish(ran=False)
    healthy = {}
    found, faults = set(), []
    for (name, kwargs, expect), result in ran:
        rounds = kwargs.get("max_rounds", 4)
        if rounds not in healthy:
            healthy[rounds] = actions(supervise(max_rounds=rounds).trace)
        if actions(result.trace) == healthy[rounds]:
            found.add((rounds, expect))
        else:
            faults.append(name)
        if result.status != expect:
            report.fail("expectations", f"Row {name!r} expects {expect!r}, but the run ended with "
                                        f"{result.status!r}: {result.stop_reason}.")
        elif expect == "budget" and run_tests(result.repo)["ok"]:
            report.fail("budget means red", f"Row {name!r} ends with 'budget', but on code that passes the "
                                            "tests; a budget row must end on failing code "
                                            "(not run_tests(result.repo)['ok']).")
    missing = [f"{{'max_rounds': {r}}} -> {e!r}" for r, e in HEALTHY if (r, e) not in found]
    if missing:
        report.fail("healthy rows", "No row runs the healthy team as " + " or ".join(missing) + " (a row counts "
                                    "as healthy when its run is the healthy team's, whatever its keys).")
    if len(faults) < 2:
        report.fail("two faults", f"{len(faults)} row(s) inject a fault ({safe_repr(faults)}); every other row runs "
                                  "exactly the healthy team's trace. A fault must change what happens: a policy "
                                  "that acts differently, or a tamper hook that changes the repo.")
    return report.finish()
