"""A seed-000 protocol log (``[(role, output), ...]``) as steps.

The protocol has no trace of its own, only who said what in order; each step
here rebuilds the rest from that order: which state the team is in, which
round (counted by coder turns, found by counting back), the feedback the coder
was given, and what the protocol does next. Step ``i`` reads entries ``i - 1``
and ``i`` (and ``i + 1`` to know whether the run ended there); only the round
number needs the entries before, and :func:`log_rounds` computes those once
for the whole log.
"""

from .diagram import PROTOCOL, diagram_block, diagram_text
from .html import badge, plain, pre, tag, wrap

__all__ = ["log_of", "is_log", "log_state", "log_rounds", "log_step_html", "log_step_text", "log_decision"]

STATES = {"planner": "PLAN", "coder": "CODE", "reviewer": "REVIEW", "tester": "TEST"}


def log_of(value):
    """The log in ``(code, log)`` (what run_team returns) or a log itself; entries are read lazily."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], list):
        value = value[1]
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"expected a log (a list of (role, output) pairs), not {type(value).__name__}")
    return value


class _Entries:
    """Index access to a log whose entries may be malformed: anything else reads as ``("?", entry)``."""

    def __init__(self, log):
        self.log = log

    def __len__(self):
        return len(self.log)

    def __getitem__(self, i):
        entry = self.log[i]
        if isinstance(entry, (list, tuple)) and len(entry) == 2:
            return entry[0], entry[1]
        return "?", entry


def is_log(value):
    """Whether ``value`` looks like a protocol log (or run_team's ``(code, log)``) rather than a trace."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], list):
        value = value[1]
    if not isinstance(value, list) or not value:
        return False
    first = [value[i] for i in range(min(3, len(value)))]
    return all(isinstance(e, (list, tuple)) and len(e) == 2 and isinstance(e[0], str) for e in first)


def log_state(role):
    return STATES.get(role, str(role).upper() if isinstance(role, str) else "?")


def log_rounds(log):
    """The round of every entry (coder turns so far), computed once for a whole log."""
    rounds, count = [], 0
    for entry in log_of(log):
        role = entry[0] if isinstance(entry, (list, tuple)) and len(entry) == 2 else "?"
        if role == "coder":
            count += 1
        rounds.append(count)
    return rounds


def _starts(text, word):
    return isinstance(text, str) and text.startswith(word)


def log_decision(log, index):
    """What the protocol does after entry ``index``, in a sentence."""
    log = log if isinstance(log, _Entries) else _Entries(log_of(log))
    role, out = log[index]
    last = index == len(log) - 1
    if role == "planner":
        return ("the coder writes code from the plan" if not last
                else "the log ends here: max_rounds was 0, so run_team returns None")
    if role == "coder":
        return "the reviewer reads the code the coder just wrote"
    if role == "reviewer":
        if _starts(out, "APPROVE"):
            return "the review starts with 'APPROVE': the tester runs the code"
        follow = ("the coder goes again with feedback " + repr("review: " + plain(out)) if not last
                  else "the rounds have run out: run_team returns None")
        return "the review does not start with 'APPROVE', so there is no test; " + follow
    if role == "tester":
        if _starts(out, "PASS"):
            return "the result starts with 'PASS': stop and return this code"
        follow = ("the coder goes again with feedback " + repr("test: " + plain(out)) if not last
                  else "the rounds have run out: run_team returns None")
        return "the result does not start with 'PASS'; " + follow
    return "(not a role of the protocol)"


def _feedback(log, index):
    """The feedback the coder at ``index`` was given, rebuilt from the entry before."""
    if index == 0:
        return None
    role, out = log[index - 1]
    if role == "reviewer" and not _starts(out, "APPROVE"):
        return "review: " + plain(out)
    if role == "tester":
        return "test: " + plain(out)
    return ""


def _next_state(log, index):
    """The state the run moves to after the last entry (DONE or END) -- shown on the final step."""
    role, out = log[index]
    if role == "tester" and _starts(out, "PASS"):
        return "DONE"
    return "END"


def _check(log, index):
    n = len(log)
    if not isinstance(index, int) or isinstance(index, bool):
        raise TypeError(f"a step number must be a whole number, not {type(index).__name__}")
    if not -n <= index < n:
        raise IndexError(f"step {index} does not exist: this log has steps 0 to {n - 1}")
    return index % n


def log_step_html(log, index, rounds=None):
    """Entry ``index`` of a protocol log as HTML; pass ``rounds`` from :func:`log_rounds` when stepping."""
    log = _Entries(log_of(log))
    if not len(log):
        return wrap(tag("p", "This log is empty: there is nothing to step through."))
    index = _check(log, index)
    role, out = log[index]
    rnd = rounds[index] if rounds is not None else log_rounds(log.log[: index + 1])[-1]
    state = log_state(role)
    previous = log_state(log[index - 1][0]) if index > 0 else None
    parts = [tag("h3", f"Step {index + 1} of {len(log)} · round {rnd} · ", tag("code", state),
                 f" · the {plain(role)} speaks")]
    parts.append(diagram_block(state, previous, PROTOCOL))
    if role == "coder":
        fb = _feedback(log, index)
        parts.append(tag("p", tag("b", "Feedback it was given: "),
                         tag("code", repr(fb)) if fb is not None else "(unknown)"))
    parts.append(tag("p", tag("b", f"The {plain(role)} said:")))
    parts.append(pre(plain(out, 5000)))
    if role == "reviewer":
        ok = _starts(out, "APPROVE")
        parts.append(tag("p", badge("approved" if ok else "rejected", "ok" if ok else "warn")))
    if role == "tester":
        ok = _starts(out, "PASS")
        parts.append(tag("p", badge("pass" if ok else "fail", "ok" if ok else "bad")))
    parts.append(tag("div", tag("b", "Next: "), log_decision(log, index), class_="at-decision"))
    if index == len(log) - 1:
        end = _next_state(log, index)
        parts.append(tag("p", "The run ends in ", tag("code", end), "."))
    return wrap(*parts, label=f"log step {index + 1} of {len(log)}")


def log_step_text(log, index, rounds=None):
    """Entry ``index`` of a protocol log as plain text."""
    log = _Entries(log_of(log))
    if not len(log):
        return "This log is empty: there is nothing to step through."
    index = _check(log, index)
    role, out = log[index]
    rnd = rounds[index] if rounds is not None else log_rounds(log.log[: index + 1])[-1]
    previous = log_state(log[index - 1][0]) if index > 0 else None
    lines = [f"Step {index + 1} of {len(log)} · round {rnd} · {log_state(role)} · the {plain(role)} speaks",
             diagram_text(log_state(role), previous)]
    if role == "coder":
        lines.append(f"feedback it was given: {_feedback(log, index)!r}")
    lines.append(f"{plain(role)}: {plain(out, 2000)}")
    lines.append(f"next: {log_decision(log, index)}")
    return "\n".join(lines)

