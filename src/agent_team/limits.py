"""Calling code we do not trust to return: learner functions and role policies.

The browser has no threads to watch a call from outside and no signals to
interrupt it, so the watch happens from inside: :func:`call_limited` installs
a ``sys.settrace`` hook that checks a deadline on every line and raises
:class:`TimeUp` (a ``BaseException``, so ``except Exception`` cannot swallow
it) once the time is spent. :func:`budget` gives a stretch of our own code
(a grader) one deadline for every call inside it, without tracing that code.

Three sharp edges, and what this module does about each:

- *A caught TimeUp.* CPython switches tracing off (globally, and for the
  frame) the moment a trace function raises, so ``try: <loop> except
  BaseException: <loop>`` would run free. Each frame's trace function is
  therefore a fresh :class:`_Hook` that only the frame holds: when CPython
  drops it, right after switching tracing off, its ``__del__`` switches
  tracing back on (as ``pdb.set_trace`` does) before the ``except`` body runs.
  This works the same on CPython 3.11 to 3.14 and in Pyodide, however deep
  the nesting and whether or not the learner keeps the TimeUp.
- *A one-line loop on CPython 3.11.* ``while True: pass`` compiles to one
  instruction that jumps to itself, and 3.11 reports no line event for it.
  Frames whose code holds such a jump get opcode events too
  (``frame.f_trace_opcodes``); other frames pay nothing for it. 3.12+ report
  a line event per iteration.
- *time.sleep.* A sleep is one C call, invisible to tracing, so during a
  limited call ``time.sleep`` is replaced by one that never sleeps past the
  deadline (and raises TimeUp there). Code that took ``sleep`` out of the
  module before the call (``from time import sleep`` at the top of a cell)
  still holds the real one; a call that takes many seconds in one C call
  (``sum(range(10**12))``) is not stopped either. This is a teaching guard,
  not a security boundary.

The engine's own data code (``_CHECKED_PER_CALL``: contracts.py) is checked
once per frame instead of once per line: it only loops over what it is given,
calling a function per item, so each item is still a check, at a quarter of
the cost (a correct 5.1 gate's longest call: 0.25 s -> 0.06 s in CPython).

Why the oracle's sandbox (:mod:`agent_team.sandbox`) is a second mechanism:
it runs *source text* (the coder's fizzbuzz), so it can rewrite the syntax
tree before compiling and count steps deterministically, refuse imports and
cap memory; a trace hook can do none of that. Here the code is an
already-compiled *function object* (a learner's ``run_team``, a policy),
which cannot be rewritten, so the hook is the only way in. The sandbox also
runs under this hook when it is called from a limited call.
"""

import contextlib
import functools
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .clip import clip

__all__ = ["Outcome", "TimeUp", "budget", "call_limited", "describe_error", "time_left", "too_long"]

_HERE = __file__
# The engine's own data code: it only checks and converts the values it is given, loops over them
# calling a function per item, and never calls code it was handed. Traced line by line it was most
# of a correct 5.1 gate's time (a 1,500-outcome case read through the records: over the learner's
# 2 s in Pyodide on a busy machine), so its frames are checked once each, when they start, and
# traced line by line only once the deadline has passed (so the next of them stops at once).
_CHECKED_PER_CALL = frozenset(str(Path(__file__).with_name(name)) for name in ("contracts.py",))
_clock = time.perf_counter
_real_sleep = time.sleep


class TimeUp(BaseException):
    """Raised inside a call that ran past its deadline."""


@dataclass
class Outcome:
    """How a limited call ended: ``kind`` is "ok", "error" or "timeout"."""

    kind: str
    value: object = None
    error: BaseException | None = None
    seconds: float = 0.0

    @property
    def ok(self):
        return self.kind == "ok"


class _Watch:
    """The one active deadline (calls may nest; the inner one is restored after)."""

    active = None

    def __init__(self, seconds, base):
        self.deadline = _clock() + seconds
        self.expired = False
        self.base = base  # the call_limited frame: re-arming never climbs above it
        self.hung = None  # a budget's {id: function} that ran out of time once, shared by calls inside

    def trace(self, frame, event, arg):
        """The global hook: sees only 'call' events and gives the new frame its own hook."""
        code = frame.f_code
        if code.co_filename == _HERE:
            return None  # never trip over our own bookkeeping (_Hook.__del__, sleep)
        if code.co_filename in _CHECKED_PER_CALL and _clock() <= self.deadline:
            return None
        if _SELF_JUMP is not None and _jumps_to_itself(code):
            frame.f_trace_opcodes = True
        return _Hook(_tick, self)

    def rearm(self, frame):
        """Tracing was switched off by a raised TimeUp: switch it back on, up to our base."""
        try:
            while frame is not None and frame is not self.base:
                if frame.f_code.co_filename != _HERE and frame.f_trace is None:
                    frame.f_trace = _Hook(_tick, self)
                frame = frame.f_back
            sys.settrace(self.trace)
        except Exception:  # noqa: BLE001 -- never let the guard itself break the call
            pass


def _tick(watch, frame, event, arg):
    """Every line (and, in frames with a one-line loop on 3.11, every opcode)."""
    if _clock() > watch.deadline:
        watch.expired = True
        raise TimeUp()
    # None keeps this frame's hook as it is (no new object per line)


class _Hook(functools.partial):
    """A frame's trace function; the frame holds the only reference to it.

    A C-level callable on purpose: no Python frame of ours holds it while it
    runs, so when CPython clears ``frame.f_trace`` after a raised TimeUp, this
    object dies at once and ``__del__`` re-arms tracing. It also dies when its
    frame ends, which costs one cheap check.
    """

    __slots__ = ()

    def __del__(self):
        watch = self.args[0]
        if watch.expired and watch is _Watch.active:
            watch.rearm(sys._getframe(1))


def _one_line_loops_are_silent():
    """The opcode of a jump to itself on CPython 3.11 (no line event there), else None."""
    if sys.version_info[:2] != (3, 11) or sys.implementation.name != "cpython":
        return None
    import opcode
    return opcode.opmap["JUMP_BACKWARD"]


_SELF_JUMP = _one_line_loops_are_silent()
_self_jumps = {}  # code object -> bool, so each code object is scanned once


def _jumps_to_itself(code):
    found = _self_jumps.get(code)
    if found is None:
        raw = code.co_code  # 2 bytes per instruction; JUMP_BACKWARD 1 jumps to itself
        found = any(raw[i] == _SELF_JUMP and raw[i + 1] == 1 for i in range(0, len(raw), 2))
        if len(_self_jumps) > 10_000:
            _self_jumps.clear()
        _self_jumps[code] = found
    return found


def _limited_sleep(seconds):
    """time.sleep during a limited call: sleep no further than the deadline.

    Only for the watched code: another thread (a kernel's heartbeat in
    JupyterLab) has its own trace hook, so its sleeps stay real.
    """
    watch = _Watch.active
    if watch is None or sys.gettrace() != watch.trace or isinstance(seconds, bool) \
            or not isinstance(seconds, (int, float)) or seconds < 0:
        return _real_sleep(seconds)  # not ours to limit, or the real sleep's own error for a bad argument
    left = watch.deadline - _clock()
    if seconds < left:
        return _real_sleep(seconds)
    _real_sleep(max(left, 0))
    watch.expired = True
    raise TimeUp()


def _quiet_unraisable(unraisable):
    """A TimeUp that lands in a generator being closed, or in a __del__, is expected: say nothing."""
    if not isinstance(unraisable.exc_value, TimeUp):
        _saved["unraisablehook"](unraisable)


_saved = {}  # what the outermost call_limited replaced: time.sleep, sys.unraisablehook


def call_limited(fn, *args, seconds=2.0, **kwargs):
    """Call ``fn(*args, **kwargs)``; never raise, give up after about ``seconds``.

    Returns an :class:`Outcome`. ``KeyboardInterrupt`` from the user is the one
    exception passed on, so the learner can still stop the notebook. Inside a
    :func:`budget` (or another call) it ends by that deadline too; started
    after that deadline, or cut short by it, it raises TimeUp to end the
    stretch of code the budget covers.
    """
    outer, outer_trace = _Watch.active, sys.gettrace()
    if outer is not None and (outer.expired or _clock() > outer.deadline):
        outer.expired = True
        raise TimeUp()
    watch = _Watch(seconds, sys._getframe())
    if outer is not None:  # a nested call never outlives the call around it
        watch.deadline = min(watch.deadline, outer.deadline)
        watch.hung = outer.hung
        if watch.hung is not None and id(fn) in watch.hung:  # inside a budget, one hang is enough
            return Outcome("timeout", error=TimeUp())
    start = _clock()
    first = not _saved
    if first:
        _saved.update(sleep=time.sleep, unraisablehook=sys.unraisablehook)
        time.sleep, sys.unraisablehook = _limited_sleep, _quiet_unraisable
    _Watch.active = watch
    sys.settrace(watch.trace)
    try:
        try:
            outcome = Outcome("ok", fn(*args, **kwargs))
        finally:  # stop watching before anything else runs, handlers included
            sys.settrace(outer_trace)
            _Watch.active = outer
            if first:
                time.sleep, sys.unraisablehook = _saved.pop("sleep"), _saved.pop("unraisablehook")
    except TimeUp as err:
        outcome = Outcome("timeout", error=err)
    except KeyboardInterrupt:
        raise
    except BaseException as err:  # noqa: BLE001 -- anything a policy raises is data here
        outcome = Outcome("timeout" if watch.expired else "error", error=err)
    if watch.expired and outcome.kind == "ok":
        outcome.kind = "timeout"  # it returned, but only after swallowing TimeUp
    if outer is not None and _clock() > outer.deadline:
        outer.expired = True  # cut short by the deadline around it: that stretch is over, not fn's fault
        raise TimeUp()
    if outcome.kind == "timeout" and watch.hung is not None:
        watch.hung[id(fn)] = fn  # the value keeps the id from being reused
    outcome.seconds = _clock() - start
    return outcome


@contextlib.contextmanager
def budget(seconds, remember_hangs=True):
    """A deadline for a stretch of our own code that calls untrusted code (a grader).

    Not traced (our code runs at full speed): every :func:`call_limited` inside
    ends by the deadline, and one started after it raises :class:`TimeUp`,
    which ends the stretch. ``with budget(5): ...`` raises TimeUp to its
    caller then, who turns it into a message. A function that ran out of time
    once inside the budget is not called again: later calls to it time out at
    once (the supervisor calls a learner's policy or rule every round), unless
    ``remember_hangs`` is False (when what each call costs is itself graded).
    """
    outer = _Watch.active
    watch = _Watch(seconds, None)
    watch.hung = {} if remember_hangs else None
    if outer is not None:
        watch.deadline = min(watch.deadline, outer.deadline)
    _Watch.active = watch
    try:
        yield watch
    finally:
        _Watch.active = outer


def time_left():
    """Seconds left before the innermost active deadline, or None outside any limited call.

    For code that blocks in one C call the trace hook cannot see (a network request): it
    passes this on as the call's own timeout, so the deadline holds there too.
    """
    watch = _Watch.active
    return None if watch is None else max(0.0, watch.deadline - _clock())


def describe_error(err, limit=300):
    """``'ValueError: bad input'``, capped so a huge message cannot flood a report."""
    try:
        text = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
    except BaseException:  # noqa: BLE001 -- a hostile __str__
        text = type(err).__name__
    return clip(text, limit)


def too_long(value, most, what):
    """A sentence if ``value`` (a list, tuple, dict or str, exact types) holds more than ``most``
    items, else "". The limit on *our* work: a learner's function can return five million log
    entries within its time, and a grader that read them all would keep the learner waiting long
    after that time (the learner's cap counts only the learner's code). ``len`` of an exact
    built-in is one step, so checking costs nothing whatever the size."""
    if type(value) not in (list, tuple, dict, str) or len(value) <= most:
        return ""
    unit = "characters" if type(value) is str else "entries"
    return (f"{what} has {len(value):,} {unit}, far more than this case can need (the grader reads "
            f"at most {most:,})")
