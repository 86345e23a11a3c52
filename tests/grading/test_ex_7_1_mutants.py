"""Exercise 7.1: wrong retry decisions a learner might write, each rejected by the check for the
sentence it misreads; correct decisions in other styles accepted.

Written from the exercise text (notebooks/source/07_real_model.py, exercise 7.1 and its table of
requirements), before the grader and its reference: each sentence's plausible wrong readings,
one function each. A test below keeps the counts in this docstring true: 49 wrong decisions
rejected, each with the right first failing check; 8 correct ones accepted.
"""

import pytest
from grader_helpers import assert_accepted, assert_rejected_by

from agent_team.grading.ex_retry import grade_retry_or_stop


def bad_row(attempts, kind="bad reply"):
    """How many attempts at the end of ``attempts`` failed as ``kind``, in a row."""
    n = 0
    for a in reversed(attempts):
        if a["failure"] != kind:
            break
        n += 1
    return n


def right_status(status):
    """The stop reason a status calls for, None when it is transient (the text's rows 2, 5, 6, 7)."""
    if status is None or status == 429 or 500 <= status <= 599:
        return None
    return {401: "bad key", 403: "bad key", 404: "unknown model"}.get(status, "refused")


def make(hopeless=right_status, row=3, wait_for=None, backoff=lambda n: 2 ** (n - 1), bad_wait=lambda n: 0,
         out_of_attempts=lambda n, most: n >= most, out_of_time=lambda elapsed, wait, most: elapsed + wait >= most,
         order=("hopeless", "attempts", "time"), wrap=lambda action, value: (action, value),
         count=bad_row, time_wait=None, pick_last=lambda attempts: attempts[-1]):
    """A learner's decision whose only mistake is in one argument (the defaults are right)."""
    def decide(attempts, budget):
        last = pick_last(attempts)
        reason = None
        if last["failure"] == "bad reply":
            if count(attempts) >= row:
                reason = "bad replies"
            wait = bad_wait(len(attempts))
        else:
            reason = hopeless(last["status"])
            if wait_for is not None:
                wait = wait_for(attempts, backoff)
            elif last["retry_after"] is not None:
                wait = last["retry_after"]
            else:
                wait = backoff(len(attempts))
        checked_wait = wait if time_wait is None else time_wait(attempts, wait, backoff)
        stops = {"hopeless": reason,
                 "attempts": "out of attempts" if out_of_attempts(len(attempts), budget["attempts"]) else None,
                 "time": "out of time" if out_of_time(budget["elapsed"], checked_wait, budget["seconds"]) else None}
        for name in order:
            if stops[name]:
                return wrap("stop", stops[name])
        return wrap("retry", wait)
    return decide


def statuses(overrides):
    """``right_status`` with some statuses (``{status: reason or None}``) read another way."""
    def read(status):
        if status in overrides:
            return overrides[status]
        return right_status(status)
    return read


def retry_after_of(pick):
    return lambda attempts, backoff: pick(attempts, backoff)


WRONG = {
    # 1. shape
    "a list instead of a tuple": (make(wrap=lambda a, v: [a, v]), "shape"),
    "a dict": (make(wrap=lambda a, v: {"action": a, "value": v}), "shape"),
    "True or False": (make(wrap=lambda a, v: a == "retry"), "shape"),
    "a reason in other words": (make(wrap=lambda a, v: (a, v.capitalize() if a == "stop" else v)), "shape"),
    "the status as the reason": (make(wrap=lambda a, v: (a, "401" if v == "bad key" else v)), "shape"),
    "the wait as text": (make(wrap=lambda a, v: (a, f"{v} s" if a == "retry" else v)), "shape"),
    "'wait' instead of 'retry'": (make(wrap=lambda a, v: ("wait" if a == "retry" else a, v)), "shape"),
    "a bare reason": (make(wrap=lambda a, v: v if a == "stop" else (a, v)), "shape"),
    "None to stop": (make(wrap=lambda a, v: None if a == "stop" else (a, v)), "shape"),
    "a negative wait": (make(bad_wait=lambda n: -1), "shape"),
    # the input: "oldest first; the last one failed"
    "the first attempt read as the last": (make(pick_last=lambda attempts: attempts[0]), "retry after"),
    # 2. transient
    "a 5xx is hopeless": (make(hopeless=lambda s: "refused" if s is not None and s != 429 and s >= 400
                               else right_status(s)), "transient"),
    "only 500 and 503 are transient": (make(hopeless=lambda s: "refused" if s is not None and 500 < s != 503
                                            else right_status(s)), "transient"),
    "an error without a status is hopeless": (make(hopeless=lambda s: "refused" if s is None else right_status(s)),
                                              "transient"),
    "a 429 is hopeless": (make(hopeless=statuses({429: "refused"})), "transient"),
    # 3. retry after
    "retry_after ignored": (make(wait_for=lambda attempts, backoff: backoff(len(attempts))), "retry after"),
    "retry_after only after a 429": (make(wait_for=lambda a, b: a[-1]["retry_after"]
                                          if a[-1]["status"] == 429 and a[-1]["retry_after"] is not None
                                          else b(len(a))), "retry after"),
    "the longer of retry_after and the backoff": (make(wait_for=lambda a, b: max(a[-1]["retry_after"] or 0,
                                                                                 b(len(a)))), "retry after"),
    "retry_after added to the backoff": (make(wait_for=lambda a, b: (a[-1]["retry_after"] or 0) + b(len(a))),
                                         "retry after"),
    "the first retry_after of the turn": (make(wait_for=lambda a, b: next(
        (x["retry_after"] for x in a if x["retry_after"] is not None), b(len(a)))), "retry after"),
    "retry_after 0 read as none": (make(wait_for=lambda a, b: a[-1]["retry_after"] or b(len(a))), "retry after"),
    # 4. backoff
    "2 ** len(attempts)": (make(backoff=lambda n: 2 ** n), "backoff"),
    "always 1 s": (make(backoff=lambda n: 1), "backoff"),
    "n seconds": (make(backoff=lambda n: n), "backoff"),
    "no wait at all": (make(backoff=lambda n: 0), "backoff"),
    # 5. bad key
    "a 403 is refused": (make(hopeless=statuses({403: "refused"})), "bad key"),
    "a 401 is retried": (make(hopeless=statuses({401: None})), "bad key"),
    "a 401 is refused": (make(hopeless=statuses({401: "refused"})), "bad key"),
    # 6. unknown model
    "a 404 is refused": (make(hopeless=statuses({404: "refused"})), "unknown model"),
    "a 404 is retried": (make(hopeless=statuses({404: None})), "unknown model"),
    # 7. refused
    "other 4xx are retried": (make(hopeless=lambda s: {401: "bad key", 403: "bad key", 404: "unknown model"}.get(s)),
                              "refused"),
    "status 0 read as no status": (make(hopeless=lambda s: None if not s else right_status(s)), "refused"),
    # 8. bad replies
    "stops at the first bad reply": (make(row=1), "bad replies"),
    "stops at the second bad reply": (make(row=2), "bad replies"),
    "stops at the fourth bad reply": (make(row=4), "bad replies"),
    "never gives up on bad replies": (make(row=10 ** 6), "bad replies"),
    "counts bad replies in all, not in a row": (make(count=lambda a: sum(x["failure"] == "bad reply" for x in a)),
                                                "bad replies"),
    "counts every failure in the row": (make(count=lambda a: len(a)), "bad replies"),
    "backs off after a bad reply": (make(bad_wait=lambda n: 2 ** (n - 1)), "bad replies"),
    # 9. out of attempts
    "one attempt beyond the budget": (make(out_of_attempts=lambda n, most: n > most), "out of attempts"),
    "stops one attempt early": (make(out_of_attempts=lambda n, most: n + 1 >= most), "out of attempts"),
    "no attempt budget": (make(out_of_attempts=lambda n, most: False), "out of attempts"),
    # 10. out of time
    "a wait that ends exactly at the end is fine": (make(out_of_time=lambda e, w, most: e + w > most), "out of time"),
    "the wait not counted": (make(out_of_time=lambda e, w, most: e >= most), "out of time"),
    "no time budget": (make(out_of_time=lambda e, w, most: False), "out of time"),
    "the backoff counted, not retry_after": (make(time_wait=lambda a, w, b: b(len(a))), "out of time"),
    # 11. order
    "out of attempts before a hopeless failure": (make(order=("attempts", "hopeless", "time")), "order"),
    "out of time before out of attempts": (make(order=("hopeless", "time", "attempts")), "order"),
    "out of time first": (make(order=("time", "hopeless", "attempts")), "order"),
}


@pytest.mark.parametrize("name", list(WRONG))
def test_a_wrong_decision_is_rejected_by_the_check_it_breaks(name):
    decide, check = WRONG[name]
    assert_rejected_by(grade_retry_or_stop(decide), check)


def early_returns(attempts, budget):
    """The same rules, written as early returns, the hopeless ones first."""
    last = attempts[-1]
    status, failure = last["status"], last["failure"]
    if failure != "bad reply" and status in (401, 403):
        return ("stop", "bad key")
    if failure != "bad reply" and status == 404:
        return ("stop", "unknown model")
    if failure != "bad reply" and status is not None and status != 429 and not 500 <= status <= 599:
        return ("stop", "refused")
    if failure == "bad reply" and len(attempts) >= 3 and all(a["failure"] == "bad reply" for a in attempts[-3:]):
        return ("stop", "bad replies")
    if len(attempts) >= budget["attempts"]:
        return ("stop", "out of attempts")
    if failure == "bad reply":
        wait = 0
    elif last["retry_after"] is not None:
        wait = last["retry_after"]
    else:
        wait = 2 ** (len(attempts) - 1)
    if budget["elapsed"] + wait >= budget["seconds"]:
        return ("stop", "out of time")
    return ("retry", wait)


HOPELESS = {401: "bad key", 403: "bad key", 404: "unknown model"}


def table_driven(attempts, budget):
    """Statuses looked up in a table; floats for the waits."""
    last = attempts[-1]
    if last["failure"] == "bad reply":
        tail = [a["failure"] for a in attempts][-3:]
        reason = "bad replies" if tail == ["bad reply"] * 3 else None
        wait = 0.0
    else:
        s = last["status"]
        transient = s is None or s == 429 or 500 <= s < 600
        reason = None if transient else HOPELESS.get(s, "refused")
        wait = float(last["retry_after"]) if last["retry_after"] is not None else float(2 ** (len(attempts) - 1))
    for stop in (reason,
                 "out of attempts" if len(attempts) >= budget["attempts"] else None,
                 "out of time" if budget["elapsed"] + wait >= budget["seconds"] else None):
        if stop:
            return ("stop", stop)
    return ("retry", wait)


def backoff_by_shift(attempts, budget):
    """``1 << n`` for the backoff, a while loop for the row, attempts counted with ``attempt``."""
    last = attempts[-1]
    n = last.get("attempt", len(attempts))
    i, row = len(attempts) - 1, 0
    while i >= 0 and attempts[i]["failure"] == "bad reply":
        row, i = row + 1, i - 1
    status = last["status"]
    if last["failure"] == "bad reply":
        if row >= 3:
            return "stop", "bad replies"
        wait = 0
    else:
        if status in (401, 403):
            return "stop", "bad key"
        if status == 404:
            return "stop", "unknown model"
        if status is not None and status < 500 and status != 429:
            return "stop", "refused"
        wait = last["retry_after"] if last["retry_after"] is not None else 1 << (n - 1)
    if n >= budget["attempts"]:
        return "stop", "out of attempts"
    if budget["elapsed"] + wait >= budget["seconds"]:
        return "stop", "out of time"
    return "retry", wait


def defensive(attempts, budget):
    """Reads every field with .get, copies what it is given, and scribbles on its copies."""
    attempts = [dict(a) for a in attempts]
    last = attempts.pop()
    last["seen"] = True
    status = last.get("status")
    failure = last.get("failure")
    reason = None
    wait = 0
    if failure == "bad reply":
        row = 1
        for a in reversed(attempts):
            if a.get("failure") != "bad reply":
                break
            row += 1
        reason = "bad replies" if row >= 3 else None
    elif status in (401, 403):
        reason = "bad key"
    elif status == 404:
        reason = "unknown model"
    elif isinstance(status, int) and status not in range(500, 600) and status != 429:
        reason = "refused"
    elif last.get("retry_after") is not None:
        wait = last["retry_after"]
    else:
        wait = 2 ** len(attempts)
    budget.clear()  # its own copy: the slot and the grader keep theirs
    return ("stop", reason) if reason else ("retry", wait)


def with_budget(decide):
    """``defensive`` reads no budget after clearing it: this wraps the budget checks around it."""
    def wrapped(attempts, budget):
        most, seconds, elapsed = budget["attempts"], budget["seconds"], budget["elapsed"]
        action, value = decide(attempts, dict(budget))
        if action == "stop":
            return action, value
        if len(attempts) >= most:
            return "stop", "out of attempts"
        if elapsed + value >= seconds:
            return "stop", "out of time"
        return action, value
    return wrapped


RIGHT = {
    "the defaults of make()": make(),
    "early returns": early_returns,
    "table driven": table_driven,
    "shift and while": backoff_by_shift,
    "defensive copies": with_budget(defensive),
    "order written as a list": make(order=["hopeless", "attempts", "time"]),
    "bool-free ints for the waits": make(backoff=lambda n: int(2 ** (n - 1))),
    "a 5xx range written with >= 500": make(hopeless=lambda s: None if s is None or s == 429 or s >= 500
                                            else right_status(s)),
}


@pytest.mark.parametrize("name", list(RIGHT))
def test_a_right_decision_in_another_style_passes(name):
    assert_accepted(grade_retry_or_stop(RIGHT[name]))


def test_the_counts_in_the_docstring_are_true():
    assert f"{len(WRONG)} wrong decisions" in __doc__ and f"{len(RIGHT)} correct ones" in __doc__
