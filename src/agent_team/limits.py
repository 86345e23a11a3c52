"""Calling code we do not trust to return: learner functions and role policies.

The browser has no threads to watch a call from outside and no signals to
interrupt it, so the watch happens from inside: :func:`call_limited` installs
a ``sys.settrace`` hook that checks a deadline on every line and raises
:class:`TimeUp` (a ``BaseException``, so ``except Exception`` cannot swallow
it) once the time is spent.

One sharp edge: CPython switches tracing off the moment a trace function
raises. Code that catches ``TimeUp`` and loops on would then run free, so the
hook is re-armed (a) when a caught ``TimeUp`` is thrown away (its ``__del__``
walks the stack and re-installs the hook, as ``pdb.set_trace`` does) and
(b) on the next function call, through ``sys.setprofile``. What is left
uncatchable: a loop that keeps every ``TimeUp`` alive and calls nothing, or a
single C call that runs for minutes (``sum(range(10**12))``). This is a
teaching guard, not a security boundary.
"""

import sys
import time
from dataclasses import dataclass

from .clip import clip

__all__ = ["Outcome", "TimeUp", "call_limited", "describe_error"]

_HERE = __file__


class TimeUp(BaseException):
    """Raised inside a call that ran past its deadline."""

    def __del__(self):
        _Watch.rearm()


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

    def __init__(self, seconds):
        self.deadline = time.perf_counter() + seconds
        self.expired = False
        self.base = None  # the call_limited frame: re-arming never climbs above it

    def tick(self):
        if time.perf_counter() > self.deadline:
            self.expired = True
            raise TimeUp()

    def trace(self, frame, event, arg):
        if frame.f_code.co_filename == _HERE:
            return None  # never trip over our own bookkeeping (TimeUp.__del__, rearm)
        self.tick()
        return self.trace

    def profile(self, frame, event, arg):
        # Tracing may have been switched off by a caught TimeUp; calls re-arm it.
        if self.expired and sys.gettrace() is None and frame.f_code.co_filename != _HERE:
            _Watch.rearm(frame)

    @classmethod
    def rearm(cls, frame=None):
        watch = cls.active
        if watch is None or not watch.expired:
            return
        try:
            frame = frame or sys._getframe(1)
            while frame is not None and frame is not watch.base:
                frame.f_trace = watch.trace
                frame = frame.f_back
            sys.settrace(watch.trace)
        except Exception:  # never let the guard itself break the call
            pass


def call_limited(fn, *args, seconds=2.0, **kwargs):
    """Call ``fn(*args, **kwargs)``; never raise, give up after about ``seconds``.

    Returns an :class:`Outcome`. ``KeyboardInterrupt`` from the user is the one
    exception passed on, so the learner can still stop the notebook.
    """
    outer, outer_trace, outer_profile = _Watch.active, sys.gettrace(), sys.getprofile()
    watch = _Watch(seconds)
    watch.base = sys._getframe()
    if outer is not None:  # a nested call never outlives the call around it
        watch.deadline = min(watch.deadline, outer.deadline)
    start = time.perf_counter()
    _Watch.active = watch
    sys.settrace(watch.trace)
    sys.setprofile(watch.profile)
    try:
        try:
            outcome = Outcome("ok", fn(*args, **kwargs))
        finally:  # stop watching before anything else runs, handlers included
            sys.settrace(outer_trace)
            sys.setprofile(outer_profile)
            _Watch.active = outer
    except TimeUp as err:
        outcome = Outcome("timeout", error=err)
    except KeyboardInterrupt:
        raise
    except BaseException as err:  # noqa: BLE001 -- anything a policy raises is data here
        outcome = Outcome("timeout" if watch.expired else "error", error=err)
    if watch.expired and outcome.kind == "ok":
        outcome.kind = "timeout"  # it returned, but only after swallowing TimeUp
    outcome.seconds = time.perf_counter() - start
    return outcome


def describe_error(err, limit=300):
    """``'ValueError: bad input'``, capped so a huge message cannot flood a report."""
    try:
        text = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
    except BaseException:  # noqa: BLE001 -- a hostile __str__
        text = type(err).__name__
    return clip(text, limit)
