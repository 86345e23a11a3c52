"""The LLM slot's retry decision: after a failed attempt, try again (after a wait) or stop, and why.

A real model fails in two ways that look alike in a trace and call for opposite answers. A
*transient* failure (a 429 "slow down", a 5xx, a timeout, a dropped connection) may well succeed
when asked again a little later; a *hopeless* one (a refused key, an unknown model, a reply that
breaks the role's schema again and again) fails the same way however often it is asked, and each
retry costs time and tokens. A retry decision ``decide(attempts, budget)`` tells them apart: it
returns ``("retry", wait)`` or ``("stop", reason)``, ``reason`` one of :data:`STOP_REASONS`.

:func:`run_attempts` is the slot's loop around it (``llm.llm_policy(retry=...)``). It holds the
decision to the turn's budget whatever it says: never more attempts than the budget allows, never
a wait past the turn's time. The decision is learner code in exercise 7.1, so it is given copies
and its answer is checked (:func:`check_decision`) before the loop acts on it.

The loop reads time from a clock (``now()``, ``sleep(seconds)``): real time by default; a
:class:`ManualClock` for a replay, whose time moves only when told, so a replayed turn is the
same turn every time and waits cost nothing.
"""

import copy
import math
import time
import types

from ..clip import safe_repr

__all__ = ["STOP_REASONS", "BadDecision", "check_decision", "retry_every_failure", "run_attempts",
           "Clock", "ManualClock", "stop_words"]

STOP_REASONS = types.MappingProxyType({  # read-only: a cell cannot change what the slot accepts
    "bad key": "the server refused the key (401 or 403); asking again cannot fix a key: check it",
    "unknown model": "the server does not know this model (404); check the model name and the address",
    "refused": "the server refused the request itself (a 4xx, or 0: the browser's refusal); "
               "the same request is refused again",
    "bad replies": "the model broke the reply format three times in a row; a smaller prompt, the role's "
                   "schema (structured=True) or another model may help, asking again will not",
    "out of attempts": "every attempt this turn's budget allows failed",
    "out of time": "waiting for another attempt would run past this turn's time",
})


class BadDecision(ValueError):
    """A retry decision that is not ``("retry", wait)`` or ``("stop", reason)``; says what to return."""


def check_decision(value):
    """``(action, wait_or_reason)`` as the loop acts on it; :class:`BadDecision` in words otherwise.

    Exact types first: a value of a made-up class is never asked to compare itself.
    """
    reasons = ", ".join(repr(r) for r in STOP_REASONS)
    if type(value) is not tuple or len(value) != 2 or type(value[0]) is not str:
        raise BadDecision(f"the retry decision returned {safe_repr(value)}; return a tuple "
                          f"('retry', wait) or ('stop', reason)")
    action, what = value
    if action == "retry":
        if type(what) not in (int, float) or (type(what) is float and not math.isfinite(what)) or what < 0:
            raise BadDecision(f"('retry', {safe_repr(what)}): the wait must be a number of seconds >= 0, "
                              "like ('retry', 2)")
        return action, what
    if action == "stop":
        if type(what) is not str or what not in STOP_REASONS:
            raise BadDecision(f"('stop', {safe_repr(what)}): the reason must be one of {reasons}")
        return action, what
    raise BadDecision(f"the retry decision returned ({safe_repr(action)}, ...); the first item is "
                      "'retry' or 'stop'")


def retry_every_failure(attempts, budget):
    """The slot's decision when it is given none: try again until the budget stops it, at once or,
    when the server said how long to wait (a 429's ``retry_after``), after that wait."""
    wait = attempts[-1].get("retry_after")
    return ("retry", 0 if wait is None else wait)


def stop_words(reason):
    """``'bad key: the server refused the key ...'``: a stop reason as the turn's message says it."""
    return f"{reason}: {STOP_REASONS[reason]}"


class Clock:
    """Real time: what the slot waits with outside a replay."""

    def now(self):
        return time.monotonic()

    def sleep(self, seconds):
        time.sleep(seconds)  # looked up at call time: under a limited call, the sleep that respects it


class ManualClock(Clock):
    """Time that moves only when told (``advance``, ``sleep``): a replayed turn takes no real time."""

    def __init__(self, start=0.0):
        self.t = float(start)

    def now(self):
        return self.t

    def sleep(self, seconds):
        self.t += seconds

    advance = sleep


def run_attempts(attempt, decide, *, attempts, seconds, clock):
    """Make attempts until one works or the turn stops: ``(records, reason)``, reason None on success.

    ``attempt(n)`` makes attempt ``n`` and returns its record (a dict whose ``failure`` is None
    when it worked). After a failed one, ``decide(records, budget)`` is asked what next, given
    copies; its decision is kept on the record as ``decision``. Whatever it says, the turn makes
    at most ``attempts`` attempts and never waits to or past ``seconds``.
    """
    start, records = clock.now(), []
    while True:
        record = attempt(len(records) + 1)
        records.append(record)
        if record["failure"] is None:
            return records, None
        elapsed = round(clock.now() - start, 6)
        budget = {"attempts": attempts, "seconds": seconds, "elapsed": elapsed}
        action, what = check_decision(decide(copy.deepcopy(records), dict(budget)))
        record["decision"] = [action, what]
        if action == "stop":
            return records, what
        # The decision said retry; the budget still has the last word.
        if len(records) >= attempts:
            return records, "out of attempts"
        if what >= seconds - elapsed:  # this way round: a huge int wait is compared, never made a float
            return records, "out of time"
        clock.sleep(what)
