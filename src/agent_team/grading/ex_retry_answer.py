"""Exercise 7.1's reading of a learner's decision: its shape in words, and whether it slept.

Two things the slot's own :func:`~agent_team.realteam.retry.check_decision` does not do for a grader:

- *It never quotes a repr that looks valid.* A tuple subclass, a ``str`` subclass ``'retry'`` or an
  ``int`` subclass ``0`` all print as ``('retry', 0)``; a message saying "returned ('retry', 0);
  return a tuple ..." sends a learner looking for a bug that is not there. So the part that is
  wrong is named by its type ("the wait is a MyInt, not an int or a float").
- *It costs the same whatever was returned.* Every value is described with
  :func:`~agent_team.clip.safe_repr`, which writes a container only as far as it is shown, so a
  ten-million-item list is read in microseconds, where a full ``repr`` took seconds per case.

And ``without_sleeping``: the text says "the slot does the waiting, not your function". A
decision that calls ``time.sleep`` (or a ``sleep`` imported from ``time``) gets a recorder for the
length of each call: nothing waits, and the grader says so under ``shape``.
"""

import math
import time

from ..clip import safe_repr
from ..realteam.retry import STOP_REASONS, check_decision
from .shapes import kind

__all__ = ["read_decision", "without_sleeping"]

_NUMBER = "an int or a float"


def _short(value):
    """A value as a message quotes it: 40 characters at most, at that cost whatever its size."""
    return safe_repr(value, 40)


def _part_problem(action, what):
    """What is wrong with the two items of an exact tuple, naming types before values; None: fine."""
    if type(action) is not str:
        return f"its first item is {kind(action)}, not the str 'retry' or 'stop'"
    if action not in ("retry", "stop"):
        return f"its first item is {_short(action)}; it must be 'retry' or 'stop'"
    if action == "retry":
        if type(what) not in (int, float):
            return f"the wait is {kind(what)}" + ("" if type(what) is bool else f" ({_short(what)})") + \
                   f", not {_NUMBER}: return ('retry', seconds)"
        if not math.isfinite(what) or what < 0:
            return f"the wait is {what!r}; it must be a number of seconds >= 0"
        return None
    if type(what) is not str:
        return f"the stop reason is {kind(what)} ({_short(what)}), not a str"
    if what not in STOP_REASONS:
        reasons = ", ".join(repr(r) for r in STOP_REASONS)
        return f"the stop reason {_short(what)} is not one of the stop reasons ({reasons})"
    return None


def read_decision(value):
    """``(decision, problem)``: the decision as the slot acts on it, or why it cannot be read, in words."""
    if type(value) is not tuple:
        shown = "a subclass of tuple" if tuple in type(value).__mro__ else _short(value)  # its repr would look right
        return None, f"your function returned {kind(value)} ({shown}), not a plain tuple: return " \
                     "('retry', wait) or ('stop', reason)"
    if len(value) != 2:
        return None, f"your function returned a tuple of {len(value)} items; return exactly two: " \
                     "('retry', wait) or ('stop', reason)"
    problem = _part_problem(*value)
    if problem:
        return None, problem
    return check_decision(value), None  # the slot's own reading: the same acceptance, to the letter


_REAL_SLEEPS = (time.sleep,)  # a builtin in CPython, a Python function in Pyodide: told apart by identity


def _is_sleep(value):
    return any(value is s for s in _REAL_SLEEPS)  # `is` runs no code of the value's


def without_sleeping(fn, slept):
    """``fn`` with every sleep it reaches recorded in ``slept`` (its seconds) instead of waited.

    ``time.sleep`` is swapped for the length of each call (the limits' own swap is restored after
    it), and so is a ``sleep`` taken out of ``time`` into the function's globals (``from time
    import sleep`` at the top of its cell). One wrapper per grading run: the limits remember a
    hang by the function called.
    """
    def record(seconds=0, *rest):
        slept.append(seconds)

    def call(*args):
        names = getattr(fn, "__globals__", None)
        names = names if type(names) is dict else {}
        taken = [name for name, value in list(names.items()) if _is_sleep(value)]
        before = time.sleep
        time.sleep = record
        for name in taken:
            names[name] = record
        try:
            return fn(*args)
        finally:
            time.sleep = before
            for name in taken:
                if names.get(name) is record:
                    names[name] = _REAL_SLEEPS[0]
    return call
