"""The oracle: runs ``fizzbuzz`` from the repo against CASES; the team's only success signal.

``run_tests(repo)`` never raises and returns ``{"ok", "errors", "passed",
"failed", "cases"}``; ``source_problems(source)`` lists the static problems that
make the oracle refuse a source (so the course can show a learner why).

Design -- a coder must not be able to fool it, hang it or escape it:

1. Static checks (:mod:`agent_team.sandbox.rules`). The source is capped at
   20,000 characters and 100 open brackets, parsed with every parser error
   caught, and its syntax tree (at most 80 levels deep) is checked against an
   allowlist of node types: no import, class, with, async, yield, global,
   match, decorators, slice assignment. No name, argument or attribute may
   start with ``_`` (``_`` alone is fine), so ``__class__``, ``__globals__``,
   ``__builtins__`` are out of reach. Attributes must be public methods of
   str/int/float/list/tuple/dict/set, minus those that build huge strings in
   one C call (``format``, ``ljust``, ``zfill``, ``translate`` ...) or run
   codecs (``encode``), which also rules out ``gi_frame``, ``f_globals`` and
   friends. ``eval``, ``getattr``, ``type`` ... are refused by name; number
   literals stay below 10**18; syntax a newer Python adds is refused until
   someone allowlists it.
2. Instrumentation (:mod:`agent_team.sandbox.rewrite`). Before compiling, the
   tree is rewritten: every loop body, function body, lambda and
   comprehension item takes a *step*; every call goes through
   ``Runtime.call`` (a step, a nesting-depth check, guards for ``str``,
   ``repr``, ``join``, ``replace``, ``range``, ``sorted``, ``key=`` ...);
   every binary operator through ``Runtime.binop`` (``*``, ``**``, ``<<``,
   ``+`` and ``%`` refuse results that would be huge); and every
   ``except``/``finally`` body first re-raises a pending stop, so
   ``while True: try: ... except: pass`` or ``finally: continue`` cannot
   outlive one. No ``sys.settrace``: it switches itself off as soon as its
   trace function raises.
3. Execution (:mod:`agent_team.sandbox.runtime`, :mod:`~agent_team.sandbox.guards`).
   Each run gets a fresh module namespace and a fresh dict of about 40 safe
   builtins (``print`` is accepted and ignored), so nothing leaks into the
   next run. Loading the module and each case get their own budget: 20,000
   steps (a fizzbuzz needs fewer than 100; the sizes of the data built are
   charged against it too), 100 nested calls, and a wall-clock backstop of
   2 s (6 s for the whole run, parsing included), far above what the steps
   cost, so that the steps decide, even on a slow or busy machine.
   A stop is a ``BaseException``; after a step or time stop the remaining
   cases are not run. Any ``BaseException`` (SystemExit, KeyboardInterrupt,
   MemoryError, RecursionError ...) becomes a failed case with a plain
   message; the oracle never raises.
4. Verdict. A case passes only if ``fizzbuzz`` is a function defined by the
   source and returns exactly a ``str`` equal to the expected one
   (``type(got) is str``), so no object can claim equality. What came back is
   shown by a short repr built without calling the value's own repr.

Steps are counted, not timed, so a verdict is deterministic unless the
wall-clock backstop fires.

Limits, honestly: this is a teaching sandbox, not a security boundary. It runs
in the same process as the course, so a bug in CPython, or a C function the
guards do not know about, can still burn time or memory the step counter
cannot see. One C call on large data is not interrupted: ``x in L`` over
20,000 references to a 20,000-character string takes about 10 ms, and the
clock is only read between such calls; hashing a tuple nested thousands deep
recurses in C. Memory is bounded by charging sizes against the step budget,
not measured, so a long loop body can keep more objects alive than it is
charged for. The backstop is wall-clock time, so a very slow machine could
stop code that a fast one finishes (the step budget is set low enough that
this should only happen to code that is runaway anyway). For code from a
model you do not trust, the real answer is a separate process or VM with OS
limits on CPU, memory and time.
"""

import time
import types

from agent_team import sandbox
from agent_team.clip import ELLIPSIS, clip
from agent_team.repo import SRC_PATH
from agent_team.sandbox import runtime as rt

CASES = ((1, "1"), (3, "Fizz"), (5, "Buzz"), (15, "FizzBuzz"))
GOT_LIMIT = 80

# Set by agent_team.realteam.models once a real model is made in this interpreter: a function
# source -> report that runs the source somewhere else (another process, another worker:
# agent_team.runners), so model-written code never runs where a key lives. None: the in-process
# sandbox below.
_runner = None


def current_runner():
    """The function every source is run through now (set by :func:`run_elsewhere`), or None: this process."""
    return _runner


def run_elsewhere(runner):
    """From now on, run every source through ``runner(source) -> report`` (None: in this process).

    ``runner`` returns what :func:`run_tests` returns, or raises; the oracle still never raises.
    Returns the runner it replaced, so a test can put it back.
    """
    global _runner
    if runner is not None and not callable(runner):
        raise TypeError(f"runner must be a function source -> report, or None, not {type(runner).__name__}")
    _runner, previous = runner, _runner
    return previous


def source_problems(source):
    """The static problems that make the oracle refuse ``source`` (empty list if none)."""
    try:
        return sandbox.prepare(source)[1]
    except BaseException as exc:  # noqa: BLE001 -- never raise, whatever the source holds
        return [f"the oracle could not check this source ({type(exc).__name__}); this is a bug in the oracle"]


def run_tests(repo):
    """Run every case of CASES against ``repo[SRC_PATH]``; never raises.

    Returns ``{"ok": bool, "errors": [str], "passed": int, "failed": int,
    "cases": [{"n", "expected", "got", "passed", "error"}]}`` with
    ``passed + failed == len(CASES)`` always.
    """
    try:
        return _run_tests(repo)
    except BaseException as exc:  # noqa: BLE001 -- a last resort: the oracle itself must never raise
        return _refused([f"the oracle failed ({type(exc).__name__}); this is a bug in the oracle, "
                         "not in the code it tested"], "not run: the oracle failed")


def short(value, limit=GOT_LIMIT):
    """A repr of ``value`` capped at ``limit`` characters, built without calling its repr."""
    return clip(_short(value, limit, 0), limit)


def _short(value, limit, depth):
    kind = type(value)
    if kind is str or kind is bytes:
        return repr(value[:limit]) + (ELLIPSIS if len(value) > limit else "")
    if kind is int and value.bit_length() > 200:
        return f"<an int of {value.bit_length():,} bits>"
    if value is None or kind in (bool, int, float, complex, range):
        return repr(value)
    if kind in (list, tuple, set, frozenset, dict) and depth < 3:
        brackets = {list: "[]", tuple: "()"}.get(kind, "{}")
        parts, used = [], 0
        for item in (value.items() if kind is dict else value):
            part = (f"{_short(item[0], limit, depth + 1)}: {_short(item[1], limit, depth + 1)}"
                    if kind is dict else _short(item, limit, depth + 1))
            parts.append(part)
            used += len(part) + 2
            if used > limit:
                break
        if len(parts) < len(value):
            parts.append(ELLIPSIS)
        comma = "," if kind is tuple and len(value) == 1 else ""
        return brackets[0] + ", ".join(parts) + comma + brackets[1]
    if isinstance(value, type):
        return f"<class {value.__name__[:30]}>"
    if kind is types.FunctionType:
        return f"<function {value.__name__[:30]}>"
    return f"<{kind.__name__}>"


def _exception_text(exc, hint="make fizzbuzz return a str for every n instead of raising"):
    name = type(exc).__name__
    args = exc.args if isinstance(getattr(exc, "args", None), tuple) else ()
    if len(args) == 1 and type(args[0]) is str:
        detail = clip(args[0], 120)
    else:
        detail = short(args[0] if len(args) == 1 else args, 120) if args else ""
    text = f"{name}: {detail}" if detail else name
    if isinstance(exc, NameError):
        offered = ", ".join(n for n in rt.BUILTIN_NAMES + ["print"] if n[0].islower())
        return f"{text}; the sandbox offers only these builtins: {offered}"
    if isinstance(exc, RecursionError):
        return f"{text}; the recursion never ends: give it a base case or use a loop"
    if isinstance(exc, (SystemExit, KeyboardInterrupt, GeneratorExit)):
        return f"{text}; fizzbuzz must return a str, not try to stop the program"
    if isinstance(exc, MemoryError):
        return f"{text}; fizzbuzz needs only short strings"
    return f"{text}; {hint}"


def _a(noun):
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _case(n, expected, got, passed, error):
    return {"n": n, "expected": expected, "got": got, "passed": passed, "error": error}


def _report(errors, cases):
    passed = sum(1 for case in cases if case["passed"])
    return {"ok": passed == len(CASES), "errors": errors, "passed": passed,
            "failed": len(CASES) - passed, "cases": cases}


def _refused(errors, why):
    return _report(errors, [_case(n, expected, None, False, why) for n, expected in CASES])


def _verdict(n, expected, got):
    """None if ``got`` passes, else why not."""
    if type(got) is str:
        if got == expected:
            return None
        message = f"fizzbuzz({n}) returned {short(got)}; expected {expected!r}"
        if expected == "FizzBuzz" and got in ("Fizz", "Buzz"):
            return f"{message}: {n} is a multiple of both 3 and 5, so test that case first"
        reason = {"Fizz": "of 3", "Buzz": "of 5", "FizzBuzz": "of both 3 and 5"}.get(expected)
        if got == str(n) and reason:
            return f"{message}: {n} is a multiple {reason}, so return {expected!r}"
        if got.strip().lower() == expected.lower():
            return f"{message}: check spaces and capital letters"
        return message
    if got is None:
        return f"fizzbuzz({n}) returned None; expected {expected!r}: is a `return` missing?"
    hint = ": wrap numbers with str(...)" if type(got) in (int, float) else ""
    return (f"fizzbuzz({n}) returned {short(got)}, {_a(type(got).__name__)}; it must return a str "
            f"such as {expected!r}{hint}")


def _source_of(repo):
    if not isinstance(repo, dict):
        return None, f"the repo must be a dict of path -> file text, not {type(repo).__name__}"
    source = dict.get(repo, SRC_PATH)
    if source is None:
        return None, f"the repo has no {SRC_PATH!r}; the coder must write fizzbuzz there"
    if not isinstance(source, str):
        return None, f"{SRC_PATH} must hold text (a str), not {type(source).__name__}"
    return str.__str__(source), None


def _run_tests(repo):
    started = time.perf_counter()
    source, problem = _source_of(repo)
    if problem:
        return _refused([problem], "not run: there is no source to test (see errors)")
    if _runner is not None:
        return _run_by(_runner, source)
    code, problems = sandbox.prepare(source)
    if problems:
        return _refused(problems, "not run: the sandbox refused the code (see errors)")
    runtime = rt.Runtime(started)
    namespace = runtime.namespace()
    try:
        return _run_code(code, runtime, namespace)
    finally:   # break the cycle stop -> traceback -> frames -> namespace, so big data is freed now
        runtime.stop = None
        namespace.clear()


def _run_by(runner, source):
    """The report of an isolated run, or why there is none (a runner's failure fails every case)."""
    try:
        report = runner(source)
    except BaseException as exc:  # noqa: BLE001 -- the oracle never raises
        text = clip(str(exc), 300) if isinstance(exc, Exception) and str(exc) else type(exc).__name__
        return _refused([f"the isolated runner failed: {text}"], "not run: the isolated runner failed")
    if type(report) is not dict or set(report) != {"ok", "errors", "passed", "failed", "cases"} \
            or len(report["cases"]) != len(CASES):
        return _refused(["the isolated runner returned no test report; this is a bug in the runner"],
                        "not run: the isolated runner failed")
    return report


def _run_code(code, runtime, namespace):
    try:
        exec(code, namespace)
    except BaseException as exc:  # noqa: BLE001 -- the coder's code may raise anything, Stop included
        if isinstance(exc, rt.Stop):
            error = f"loading {SRC_PATH} was stopped: {exc.message}"
        else:
            error = f"loading {SRC_PATH} raised {_exception_text(exc, 'fix the code outside fizzbuzz')}"
        return _refused([error], "not run: the module did not load")
    fn = namespace.get("fizzbuzz")
    if "fizzbuzz" not in namespace:
        return _refused([f"{SRC_PATH} defines no `fizzbuzz`; define it with `def fizzbuzz(n):`"],
                        "not run: there is no fizzbuzz")
    if type(fn) is not types.FunctionType or fn.__code__.co_filename != sandbox.SOURCE_NAME:
        return _refused([f"`fizzbuzz` is {short(fn, 40)}, {_a(type(fn).__name__)}, not a function "
                         f"defined in {SRC_PATH}; define it with `def fizzbuzz(n):`"],
                        "not run: fizzbuzz is not a function")
    errors, cases, halted = [], [], None
    for n, expected in CASES:
        if halted:
            cases.append(_case(n, expected, None, False, f"not run: {halted}"))
            continue
        runtime.rearm()
        got = None
        try:
            value = runtime.call(fn, n)
        except rt.Stop as stop:
            error = f"fizzbuzz({n}) was stopped: {stop.message}"
            if stop.kind in ("steps", "time"):
                error += "; the remaining cases were not run"
                halted = f"fizzbuzz({n}) ran out of budget first"
        except BaseException as exc:  # noqa: BLE001 -- the coder's code may raise anything
            error = f"fizzbuzz({n}) raised {_exception_text(exc)}"
        else:
            got, error = short(value), _verdict(n, expected, value)
        if error:
            errors.append(error)
        cases.append(_case(n, expected, got, error is None, error))
    return _report(errors, cases)
