"""Handoffs: what each role tells the next when the floor passes from one to the other.

They are *derived* from the supervisor's trace, never stored next to it: the
trace is the one source of truth, so a handoff cannot disagree with what
actually happened. A run planner -> coder -> reviewer -> coder -> reviewer
gives five handoffs; two turns of the same role in a row (the planner going
again because PLAN.md was empty) are one stint and give one handoff.

Each handoff says who spoke (``role``), what it did (``summary``), whether its
turn landed (``status``: ``success``, or ``failed`` when the turn was refused,
raised or timed out) and who acts next and on what (``next_action``).
"""

from ..clip import safe_repr
from .contracts import Handoff
from ..roles import ROLES
from ..repo import PLAN_PATH, SRC_PATH
from ..trace import kind_of, last, of_kind

__all__ = ["handoffs_from_trace", "trace_with_handoffs"]


def _events(trace):
    trace = getattr(trace, "trace", trace)  # a RunResult works too
    if not isinstance(trace, (list, tuple)):
        raise ValueError(f"trace must be the supervisor's list of events (run.trace), not {type(trace).__name__}")
    for i, event in enumerate(trace):
        if not isinstance(event, dict) or "type" not in event:
            raise ValueError(f"trace event {i} is not a dict with a 'type'; pass the trace as supervise() "
                             "returned it")
        if kind_of(event) == "turn" and event.get("role") not in ROLES:
            raise ValueError(f"trace event {i} is a turn with role {event.get('role')!r}; "
                             f"a turn's role is one of {', '.join(ROLES)}")
    return list(trace)


def _turn_summary(event):
    """One turn in a phrase: what the role changed and said, or why its turn did not land."""
    role, error = event["role"], event.get("error")
    verdict = event.get("verdict") or {}
    attempts = event.get("attempts") or []
    tries = f" (after {len(attempts)} model attempts)" if len(attempts) > 1 else ""
    if error and not verdict:
        return f"round {event.get('round', 0)}: the {role}'s turn did not land{tries}: {error}"
    # What it wrote, from its patches: rewriting a file with the same text (a
    # reviewer repeating its verdict) is still a write, though nothing changed.
    wrote = [p.get("path") for p in event.get("patches") or []] if event.get("applied") else []
    parts = [f"wrote {', '.join(wrote)}" if wrote else "changed nothing"]
    if verdict:
        parts.append(f"verdict {verdict.get('verdict')}" +
                     (f": {verdict.get('notes')}" if verdict.get("notes") else ""))
        if event.get("override"):
            parts.append("overridden because the tests are green")
    elif event.get("message"):
        parts.append(f"said {safe_repr(event['message'], 120)}")
    if event.get("escalated"):
        parts.append("escalated to a person")
    return f"round {event.get('round', 0)}: the {role} " + "; ".join(parts) + tries


def _tests_phrase(report):
    if report.get("ok"):
        return f"the tests are green ({report.get('passed', 0)} passed)"
    errors = report.get("errors") or []
    first = f", first error: {errors[0]}" if errors else ""
    return f"the tests are red ({report.get('failed', 0)} failing{first})"


def _next_action(after, following, review):
    """Who acts next, and on what, from the events between this stint and the next turn."""
    tests, stop = of_kind(after, "tests"), last(after, "stop")
    seen = _tests_phrase(tests[-1].get("tests") or {}) if tests else None
    if following is None:
        if stop is not None:
            return f"stop ({stop.get('status')}): {stop.get('stop_reason', '')}"
        return "the supervisor decides who goes next (the trace ends here)"
    role, rnd = following["role"], following.get("round", 0)
    if role == "reviewer":
        return f"reviewer: review round {rnd}" + (f"; {seen}" if seen else "")
    if role == "planner":
        return f"planner: write {PLAN_PATH} (it is empty)"
    if role != "coder":  # a role added to the table: its turn, in its own words
        return f"{role}: its turn in round {rnd}" + (f"; {seen}" if seen else "")
    if review and review.get("verdict") == "request_changes":
        return f"coder: revise {SRC_PATH} in round {rnd}; the review asked: {review.get('notes', '')}"
    return f"coder: write {SRC_PATH} to the plan in round {rnd}" + (f"; {seen}" if seen else "")


def _stints(events):
    """Runs of consecutive turns by the same role, as lists of event indexes."""
    stints = []
    for i, event in enumerate(events):
        if kind_of(event) != "turn":
            continue
        if stints and events[stints[-1][-1]]["role"] == event["role"]:
            stints[-1].append(i)
        else:
            stints.append([i])
    return stints


def _handoffs(events):
    """``[(index of the stint's last turn, Handoff)]`` in order."""
    stints = _stints(events)
    out = []
    for n, stint in enumerate(stints):
        last = events[stint[-1]]
        upto = stints[n + 1][0] if n + 1 < len(stints) else len(events)
        following = events[upto] if upto < len(events) else None
        review = last.get("verdict") if last["role"] == "reviewer" else None
        rnd = last.get("round", 0)
        out.append((stint[-1], Handoff(
            role=last["role"],
            summary="; ".join(_turn_summary(events[i]) for i in stint),
            status="failed" if last.get("error") else "success",
            next_action=_next_action(events[stint[-1] + 1:upto], following, review),
            round=rnd if isinstance(rnd, int) and not isinstance(rnd, bool) and rnd >= 0 else 0,
        )))
    return out


def handoffs_from_trace(trace):
    """One :class:`~agent_team.realteam.contracts.Handoff` per role transition in a supervisor trace, in order.

    ``trace`` is ``supervise(...).trace`` (or the run result itself). A trace cut
    short, as the round stepper shows it, works too: the last handoff then
    says that the supervisor decides next.
    """
    return [handoff for _, handoff in _handoffs(_events(trace))]


def trace_with_handoffs(trace):
    """A copy of the trace where the last turn of each stint carries its handoff (as a dict).

    For display only (the round stepper shows the extra ``handoff`` field);
    the trace itself stays the one source of truth and is not changed.
    """
    events = [dict(e) for e in _events(trace)]
    for i, handoff in _handoffs(events):
        events[i]["handoff"] = handoff.to_dict()
    return events
