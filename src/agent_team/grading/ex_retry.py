"""Grader for exercise 7.1: ``retry_or_stop(attempts, budget)``, the LLM slot's retry decision.

Every sentence of the exercise is a requirement, and every requirement a check (``REQUIREMENTS``,
in the notebook's order). Named cases, grouped by the check they test, are asked first: each
is one failed attempt's moment in a turn (the attempts so far, as the slot records them, and the
budget), and the learner's answer is compared with :func:`reference_retry_or_stop`'s. Then
``in the slot``: the learner's function is plugged into the real slot
(``llm_policy(retry=...)``) and whole turns are replayed, each with a :class:`ManualClock` so
waits cost no time and a turn is the same turn every time: the recorded replies of SmolLM2-135M
(the recording ``retry``, real) and scripted failures, each labelled scripted (a 401, a 429 with
and without Retry-After, 5xx, a hang, garbage, a lie, an injection, a huge reply), both replayed
by ``ex_retry_turns``. No model runs.

Learner code is called only through ``call_learner`` (directly, or inside the slot's policy),
with fresh copies and its sleeps recorded, not waited (``ex_retry_answer``: the slot does the
waiting); what it returns is read by ``ex_retry_answer.read_decision`` (exact types first, the
slot's own :func:`check_decision` last), so nothing it returns can make the grader raise or take
long, and the first answer that cannot be read ends the grading under ``shape`` (every later check
would only repeat it). A failed case says why the expected answer is right from the rules that
decide it, never from the check it is filed under (a retry expected under "out of attempts" says
why no stop applies). The first hang ends the run (core.py). Measured by
tests/grading/test_ex_7_1_*.py: the counts are there.
"""

import copy

from ..clip import safe_repr
from ..realteam.llm import llm_policy
from ..repo import GOAL, initial_repo
from ..realteam.retry import ManualClock
from ..views import make_view
from .core import Report, call_learner, grading_run
from .ex_retry_answer import read_decision, without_sleeping
from .ex_retry_turns import REPLAYS, recorded_model

__all__ = ["grade_retry_or_stop", "reference_retry_or_stop", "MOMENTS"]

REQUIREMENTS = (
    ("shape", "return ('retry', wait) with wait a number >= 0, or ('stop', reason) with one of the stop reasons"),
    ("transient", "a timeout, an error with no status, a 429 and a 500 to 599 are retried"),
    ("retry after", "when the failed attempt gives retry_after, wait exactly that long"),
    ("backoff", "with no retry_after, wait 2 ** (len(attempts) - 1) seconds (1, 2, 4 and so on)"),
    ("bad key", "a 401 or a 403 stops with 'bad key'"),
    ("unknown model", "a 404 stops with 'unknown model'"),
    ("refused", "any other status below 500 (0, 400, 413, 422 and so on) stops with 'refused'"),
    ("bad replies", "a bad reply is retried at once (wait 0); the third bad reply in a row stops with 'bad replies'"),
    ("out of attempts", "once len(attempts) >= budget['attempts'], stop with 'out of attempts'"),
    ("out of time", "when elapsed + wait >= budget['seconds'], stop with 'out of time'"),
    ("order", "a hopeless failure's reason first, then 'out of attempts', then 'out of time'"),
    ("in the slot", "in llm_policy(retry=...), every replayed turn ends as your decisions call for"),
)


RULE = dict(REQUIREMENTS)


def reference_retry_or_stop(attempts, budget):
    """The decision the exercise text describes, sentence by sentence: part 7's worked solution is
    this function's body (tools/from_tables.py writes it into the notebook), so the two are one text."""
    last = attempts[-1]
    status = last["status"]
    hopeless = None
    if last["failure"] == "bad reply":
        row = 0
        for attempt in reversed(attempts):
            if attempt["failure"] != "bad reply":
                break
            row += 1
        if row >= 3:
            hopeless = "bad replies"
        wait = 0
    elif status in (401, 403):
        hopeless = "bad key"
    elif status == 404:
        hopeless = "unknown model"
    elif status is not None and status != 429 and status < 500:
        hopeless = "refused"
    else:
        wait = last["retry_after"] if last["retry_after"] is not None else 2 ** (len(attempts) - 1)
    if hopeless:
        return ("stop", hopeless)
    if len(attempts) >= budget["attempts"]:
        return ("stop", "out of attempts")
    if budget["elapsed"] + wait >= budget["seconds"]:
        return ("stop", "out of time")
    return ("retry", wait)


# --- the named cases: one failed attempt's moment each ------------------------------------------

def _attempt(n, spec):
    """An attempt record with the keys the slot gives it (llm.llm_policy's ``attempt``)."""
    failure, status, retry_after = spec
    if failure == "bad reply":
        error = "the reply is not JSON (Expecting value at line 1 column 1)"
    elif failure == "timeout":
        error = "the model call failed: no answer within 30 s (the time left for this call)"
    else:
        error = f"the model call failed: the server answered {status}" if status is not None else \
            "the model call failed: the connection to http://127.0.0.1:8080 failed (ConnectionResetError)"
    return {"attempt": n, "prompt": "You are the coder. …", "reply": "x = 1" if failure == "bad reply" else None,
            "error": error, "failure": failure, "status": status, "retry_after": retry_after}


T, B = ("timeout", None, None), ("bad reply", None, None)


def E(status=None, retry_after=None):  # noqa: N802 -- reads as a failure kind in the tables below
    return ("error", status, retry_after)


ROOMY = {"attempts": 10, "seconds": 600.0, "elapsed": 1.0}


def _b(attempts=10, seconds=600.0, elapsed=1.0):
    return {"attempts": attempts, "seconds": seconds, "elapsed": elapsed}


MOMENTS = (  # (check, attempts, budget)
    ("transient", [T], ROOMY), ("transient", [E()], ROOMY), ("transient", [E(429)], ROOMY),
    *(("transient", [E(s)], ROOMY) for s in (500, 501, 502, 503, 504, 505, 511, 599)),
    ("transient", [T, E(503)], ROOMY),
    ("retry after", [E(429, 7)], ROOMY), ("retry after", [E(503, 3)], ROOMY),
    ("retry after", [T, T, E(429, 0.5)], ROOMY), ("retry after", [E(429, 10), E(429, 2)], ROOMY),
    ("retry after", [E(429, 0)], ROOMY), ("retry after", [E(429, 2.5)], ROOMY),
    ("retry after", [E(429, 120)], ROOMY), ("retry after", [E(503, 400)], ROOMY),  # no cap in the text
    ("backoff", [T], ROOMY), ("backoff", [T, T], ROOMY), ("backoff", [T, E(), E(500)], ROOMY),
    ("backoff", [E(429)] * 4, ROOMY),
    ("backoff", [T] * 7, ROOMY), ("backoff", [T] * 9, _b(attempts=20)),  # no cap either
    ("backoff", [B, T], ROOMY), ("backoff", [B, B, E(502)], ROOMY), ("backoff", [E(429, 5), T], ROOMY),  # all count
    ("bad key", [E(401)], ROOMY), ("bad key", [E(403)], ROOMY), ("bad key", [T, E(401)], ROOMY),
    ("unknown model", [E(404)], ROOMY), ("unknown model", [E(503), E(404)], ROOMY),
    *(("refused", [E(s)], ROOMY) for s in (0, 400, 402, 407, 408, 409, 410, 413, 418, 422, 425, 451, 499)),
    ("bad replies", [B], ROOMY), ("bad replies", [B, B], ROOMY), ("bad replies", [B, B, B], ROOMY),
    ("bad replies", [B, T, B, B], ROOMY), ("bad replies", [T, B, B], ROOMY),
    ("bad replies", [E(500), B, B, B], ROOMY),
    ("out of attempts", [T, T, T], _b(attempts=3)), ("out of attempts", [T], _b(attempts=1)),
    ("out of attempts", [T, T], _b(attempts=3)), ("out of attempts", [B, B], _b(attempts=2)),
    ("out of time", [T], _b(seconds=30.0, elapsed=29.0)), ("out of time", [T, T], _b(seconds=30.0, elapsed=27.5)),
    ("out of time", [T, T, T], _b(seconds=30.0, elapsed=27.0)),
    ("out of time", [E(429, 20)], _b(seconds=30.0, elapsed=15.0)),
    ("out of time", [E(429, 5)], _b(seconds=30.0, elapsed=20.0)), ("out of time", [B], _b(seconds=30.0, elapsed=30.0)),
    ("out of time", [E(429, 1.5)], _b(seconds=30.0, elapsed=28.5)),
    ("out of time", [T], _b(seconds=30.0, elapsed=28.6)),
    ("out of time", [T], _b(seconds=30.0, elapsed=28.99)),  # elapsed exactly as given, never rounded
    ("order", [T, T, E(401)], _b(attempts=3)), ("order", [B, B, B], _b(attempts=3)),
    ("order", [T, T, T], _b(attempts=3, seconds=30.0, elapsed=100.0)),
    ("order", [E(404)], _b(seconds=30.0, elapsed=30.0)),
)


ACTION_ONLY = {"transient"}  # retried or not is its question; how long to wait is the next two checks


def _words(spec):
    failure, status, retry_after = spec
    if failure != "error":
        return f"a {failure}"
    if status is None:
        return "an error with no status"
    if status == 0:
        return "a status 0 (the browser's refusal)"
    return f"a {status}" + (f" (retry_after {retry_after:g})" if retry_after is not None else "")


def _moment(specs, budget):
    return (f"after {', '.join(_words(s) for s in specs)} (budget: {budget['attempts']} attempts, "
            f"{budget['seconds']:g} s, {budget['elapsed']:g} s spent)")


_VIEW = make_view("coder", GOAL, initial_repo(), [])


def _replay(decide, outcomes, retries, turn_seconds):
    """One coder turn in the real slot: ``(policy, clock)`` ready to call with ``(GOAL, view)``."""
    clock = ManualClock()
    seconds = outcomes[0]["seconds"] if outcomes[0].get("hang") else 30.0
    policy = llm_policy("coder", recorded_model(outcomes, clock), retries=retries, seconds=seconds, retry=decide,
                        turn_seconds=turn_seconds, clock=clock)
    return policy, clock


def _ending(out):
    attempts = out["attempts"]
    return len(attempts), attempts[-1].get("stop"), [a.get("decision") for a in attempts]


def _wait_rule(last, n):
    """The rule that sets the wait after the ``n``-th attempt, ``last``: ``(its check, why the
    reference waits what it waits, in words)``."""
    if last["failure"] == "bad reply":
        return "bad replies", "a bad reply is retried at once (wait 0)"
    if last["retry_after"] is not None:
        return "retry after", f"the server asked for retry_after {last['retry_after']:g} s, waited exactly"
    return "backoff", f"with no retry_after the wait is 2 ** ({n} - 1) = {2 ** (n - 1):g} s"


_SPARE = {"attempts": 10 ** 6, "seconds": 1e12, "elapsed": 0.0}


def _its_own_wait(decide, attempts, got, want):
    """The learner's own wait at this moment when that wait, not a stop rule, is what differs; else None.

    A retry with another wait is the wait's rule. A stop with 'out of time' where a retry is due may
    be the time rule, or only a longer wait reaching the end: asked again with time to spare, the
    learner's function tells which (one more call, only on a failure).
    """
    if want[0] != "retry":
        return None
    if got[0] == "retry":
        return got[1]
    if got != ("stop", "out of time"):
        return None
    again = call_learner(decide, copy.deepcopy(attempts), dict(_SPARE), what="retry_or_stop")
    seen, problem = read_decision(again.value) if again.ok else (None, "unread")
    return seen[1] if not problem and seen[0] == "retry" and seen[1] != want[1] else None


def _why(attempts, budget, want):
    """Why ``want`` is right at this moment, in the words of the rules that decide it.

    Said from the expected answer, not from the check a case is filed under: a case filed under
    "out of attempts" whose answer is a retry says why it is *not yet* out of attempts, so a
    learner whose only slip is the wait is never told about a stop rule they follow.
    """
    n, last = len(attempts), attempts[-1]
    if want[0] == "stop":
        rule = RULE[want[1]]  # each stop reason is the check of its rule
        if want[1] == "out of attempts":
            return f"{n} of {budget['attempts']} attempts are used: {rule}"
        if want[1] == "out of time":
            return f"{_wait_rule(last, n)[1]}, and {budget['elapsed']:g} + that wait >= {budget['seconds']:g}: {rule}"
        return rule
    return (f"{_wait_rule(last, n)[1]}; and no stop applies ({n} < {budget['attempts']} attempts, "
            f"{budget['elapsed']:g} + {want[1]:g} < {budget['seconds']:g} s)")


def _refuse_shape(report, when, problem):
    """The first answer that cannot be read: said once under shape; the other checks stay unjudged
    (each would only repeat it), and the learner's function is called no more."""
    report.fail("shape", f"{when[0].upper()}{when[1:]}: {problem}.")


@grading_run
def grade_retry_or_stop(fn):
    """Grade ``retry_or_stop(attempts, budget) -> ("retry", wait) | ("stop", reason)``."""
    report = Report(exercise="7.1").declare_all(REQUIREMENTS)
    if not callable(fn):
        report.fail("shape", f"retry_or_stop is {safe_repr(fn, 60)}, not a function: run the exercise cell first.")
        return report.finish(ran=False)
    slept = []
    decide = without_sleeping(fn, slept)
    for check, specs, budget in MOMENTS:
        attempts = [_attempt(n, s) for n, s in enumerate(specs, 1)]
        want = reference_retry_or_stop(copy.deepcopy(attempts), dict(budget))
        call = call_learner(decide, copy.deepcopy(attempts), dict(budget), what="retry_or_stop")
        if call.not_implemented:
            report.outcome_override = "not implemented"
            return report.finish()
        when = _moment(specs, budget)
        if slept:
            _refuse_shape(report, when, f"your function called sleep({safe_repr(slept[0], 30)}) itself. Return the "
                                        "decision and let the slot wait: the slot does the waiting, not your function")
            return report.finish(ran=False)
        if not call.ok:
            report.fail(check, f"{when[0].upper()}{when[1:]}: {call.problem}")
            continue
        got, problem = read_decision(call.value)
        call = None  # a huge answer is let go at once
        if problem:
            _refuse_shape(report, when, problem)
            return report.finish(ran=False)
        if (got[0] != want[0]) if check in ACTION_ONLY else (got != want):
            its_wait = _its_own_wait(decide, attempts, got, want)
            if its_wait is not None:  # its wait is what broke (the stop or retry follows from it): say so there
                check = _wait_rule(attempts[-1], len(attempts))[0]
            report.fail(check, f"{when[0].upper()}{when[1:]}, your function returned {safe_repr(got)}; "
                               f"expected {want!r}, since {_why(attempts, budget, want)}"
                               + (f"; when several stops apply, {RULE['order']}" if check == "order" else "")
                               + (f". Asked with time to spare, it waits {its_wait:g} s: the wait is what to fix"
                                  if its_wait is not None and got[0] == "stop" else "") + ".")
    _grade_turns(report, decide)
    return report.finish()


def _grade_turns(report, fn):
    for what, outcomes, retries, turn_seconds in REPLAYS:
        expected_policy, _ = _replay(reference_retry_or_stop, outcomes, retries, turn_seconds)
        want = _ending(expected_policy(GOAL, copy.deepcopy(_VIEW)))
        policy, clock = _replay(fn, outcomes, retries, turn_seconds)
        call = call_learner(policy, GOAL, copy.deepcopy(_VIEW), what="the slot with your retry_or_stop")
        if not call.ok:
            report.fail("in the slot", f"Replaying {what}: {call.problem}")
            continue
        got = _ending(call.value)
        if got != want:
            stop = f"stopped with {got[1]!r}" if got[1] else "ended with a usable reply"
            report.fail("in the slot", f"Replaying {what}: the turn made {got[0]} attempt(s) and {stop}, your "
                                       f"decisions {safe_repr(got[2])}; expected {want[0]} attempt(s), "
                                       f"{want[1]!r}, decisions {want[2]!r}.")
