"""One trace event -- a turn, a test run, a fault, the start or the stop -- as HTML and as text.

:func:`event_html` says who acted, what they saw, what they proposed and changed, and what the
supervisor does next; :func:`event_summary` is the one line that run comparison lines up.
"""

from .diff import diff_html, diff_text
from .html import badge, details, join, plain, pre, tag
from .tests_table import tests_counts, tests_html, tests_text
from .trace import field
from .view import value_line, view_html

__all__ = ["event_html", "event_text", "event_summary", "event_title", "patch_status"]

# The fields the sections below know how to show; any other field is listed at the end, so
# what a newer supervisor records (model attempts, handoffs...) is never silently dropped.
# failure, refused_by, rule and seconds are the structured twins of ``error``, which says it in words.
KNOWN_KEYS = frozenset({"type", "round", "state", "role", "view", "thought", "message", "patches", "applied",
                        "error", "changes", "verdict", "override", "escalated", "decision", "tests", "goal",
                        "max_rounds", "status", "stop_reason", "failure", "refused_by", "rule", "seconds"})
TYPE_WORDS = {"start": "the run starts", "turn": "a turn", "tests": "the oracle runs the tests",
              "tamper": "an injected fault", "stop": "the run stops"}


def patch_status(event):
    """``(applied, reason)`` for the patches of a turn: all land together or none does."""
    return bool(field(event, "applied")), field(event, "error")


def _patches_html(event):
    patches = field(event, "patches") or []
    applied, error = patch_status(event)
    if not patches:
        return tag("p", "It proposed no patches.", class_="at-muted-text")
    items = []
    for patch in patches:
        content = field(patch, "content")
        size = f"{len(content):,} characters" if isinstance(content, str) else ""
        mark = badge("applied", "ok") if applied else badge("refused", "bad")
        items.append(tag("li", mark, " ", tag("code", plain(field(patch, "path"))), f" — a full-file write, {size}",
                         details("what it proposed to write", pre(plain(content, 20000)))))
    parts = [tag("ul", *items)]
    if not applied and error:
        parts.append(tag("div", tag("b", "Refused: "), error, class_="at-refused"))
    return join(parts)


def _verdict_html(event):
    verdict = field(event, "verdict")
    parts = []
    if isinstance(verdict, dict):
        word = plain(field(verdict, "verdict"))
        kind = "ok" if word == "approve" else "warn"
        parts.append(tag("p", tag("b", "Verdict: "), badge(word, kind), " ", field(verdict, "notes") or ""))
    elif field(event, "role") == "reviewer":
        parts.append(tag("p", tag("b", "Verdict: "), badge("none", "muted"), " no verdict was recorded"))
    if field(event, "override"):
        parts.append(tag("p", badge("overridden", "info"),
                         " The tests are green, so the supervisor stops anyway: a reviewer that asks "
                         "for changes forever would burn the budget."))
    if field(event, "escalated"):
        parts.append(tag("p", badge("escalated", "warn"), " The reviewer asked for a person to step in."))
    return join(parts)


def _decision(event):
    decision = field(event, "decision")
    if decision:
        return plain(decision)
    kind = field(event, "type")
    if kind == "tamper" and field(event, "error"):
        return "the fault did nothing; the run goes on"
    return ""


def event_title(event):
    """What happens in an event, in words: ``the coder's turn``, ``the run stops``."""
    kind, role = field(event, "type"), field(event, "role")
    if kind == "turn":
        return f"the {plain(role)}'s turn"
    return TYPE_WORDS.get(kind, f"event {plain(kind)!r}")


def event_summary(event):
    """One line for an event: used by run comparison and plain text."""
    kind, state = field(event, "type"), plain(field(event, "state"))
    if kind == "turn":
        role = plain(field(event, "role"))
        applied, error = patch_status(event)
        paths = ", ".join(plain(field(p, "path")) for p in field(event, "patches") or []) or "no patches"
        line = f"{state} {role}: " + (f"wrote {paths}" if applied and field(event, "changes")
                                      else ("no change" if applied else f"refused ({plain(error, 70)})"
                                            if error else "no change"))
        verdict = field(event, "verdict")
        if isinstance(verdict, dict):
            line += f"; verdict {plain(field(verdict, 'verdict'))}"
        if applied and error:
            line += f"; problem: {plain(error, 60)}"
        return line
    if kind == "tests":
        report = field(event, "tests") or {}
        passed, failed = tests_counts(report)
        return f"TEST: {'green' if field(report, 'ok') else 'red'}, {passed} passed, {failed} failed"
    if kind == "tamper":
        changes = field(event, "changes") or []
        return "FAULT: " + (", ".join(f"changed {plain(field(c, 'path'))}" for c in changes) or "nothing changed")
    if kind == "stop":
        return f"{state}: {plain(field(event, 'status'))} — {plain(field(event, 'stop_reason'))}"
    if kind == "start":
        return f"START: max_rounds={plain(field(event, 'max_rounds'))}"
    return f"{state}: {plain(kind)}"


def event_html(event):
    """The body of one event: who acted, what they saw, proposed and changed, and what happens next."""
    if not isinstance(event, dict):
        return tag("p", f"Not a trace event: {plain(event, 200)}")
    kind = field(event, "type")
    parts = []
    if kind == "start":
        parts.append(tag("p", tag("b", "Goal: "), field(event, "goal") or ""))
        parts.append(tag("p", tag("b", "Budget: "), f"{plain(field(event, 'max_rounds'))} coder turns (max_rounds)"))
    elif kind == "turn":
        role = plain(field(event, "role"))
        parts.append(tag("h4", f"What the {role} was shown (its view)"))
        parts.append(view_html(field(event, "view")))
        parts.append(tag("h4", f"What the {role} did"))
        if field(event, "thought"):
            parts.append(tag("p", tag("b", "Thought: "), tag("i", field(event, "thought"))))
        if field(event, "message"):
            parts.append(tag("p", tag("b", "Message: "), field(event, "message")))
        patches = field(event, "patches") or []
        applied, error = patch_status(event)
        if patches or applied:
            parts.append(_patches_html(event))
        elif error:
            parts.append(tag("div", tag("b", "Turn skipped: "), error, class_="at-refused"))
        if applied and error:
            parts.append(tag("div", tag("b", "Problem: "), error, class_="at-refused"))
        parts.append(tag("h4", "What changed in the repo"))
        parts.append(diff_html(field(event, "changes")))
        if role == "reviewer" or "verdict" in event:
            parts.append(_verdict_html(event))
    elif kind == "tests":
        parts.append(tag("h4", "The oracle's report"))
        parts.append(tests_html(field(event, "tests")))
    elif kind == "tamper":
        parts.append(tag("p", "A fault injected from outside the roles (failure injection)."))
        if field(event, "error"):
            parts.append(tag("div", field(event, "error"), class_="at-refused"))
        parts.append(tag("h4", "What changed in the repo"))
        parts.append(diff_html(field(event, "changes")))
    elif kind == "stop":
        status = plain(field(event, "status"))
        parts.append(tag("p", tag("b", "Status: "), badge(status, "ok" if status == "pass" else "bad"),
                         " ", field(event, "stop_reason") or ""))
    else:
        parts.append(pre(plain(event, 5000)))
    extra = {k: v for k, v in event.items() if k not in KNOWN_KEYS}
    if extra:  # fields added later (model attempts, handoffs...): shown, never hidden
        parts.append(details(f"More recorded fields: {', '.join(map(plain, extra))}",
                             *(join([tag("b", plain(k)), pre(plain(v, 5000))]) for k, v in extra.items())))
    decision = _decision(event)
    if decision:
        parts.append(tag("div", tag("b", "The supervisor: "), decision, class_="at-decision"))
    return join(parts)


def event_text(event):
    """One event as readable plain text."""
    if not isinstance(event, dict):
        return f"Not a trace event: {plain(event, 200)}"
    kind = field(event, "type")
    lines = [event_summary(event)]
    if kind == "start":
        lines.append(f"goal: {plain(field(event, 'goal'))}")
    elif kind == "turn":
        view = field(event, "view") or {}
        if isinstance(view, dict) and view:
            lines.append("view:")
            lines += [f"  {plain(k)}: {value_line(v)}" for k, v in view.items()]
        for key in ("thought", "message"):
            if field(event, key):
                lines.append(f"{key}: {plain(field(event, key), 300)}")
        applied, error = patch_status(event)
        for patch in field(event, "patches") or []:
            lines.append(f"patch {plain(field(patch, 'path'))}: {'applied' if applied else 'refused'}")
        if error:
            lines.append(f"{'problem' if applied else 'refused'}: {plain(error)}")
        if field(event, "changes"):
            lines.append(diff_text(field(event, "changes")))
        verdict = field(event, "verdict")
        if isinstance(verdict, dict):
            lines.append(f"verdict: {plain(field(verdict, 'verdict'))} ({plain(field(verdict, 'notes'))})")
        if field(event, "override"):
            lines.append("request_changes overridden: the tests are green")
        if field(event, "escalated"):
            lines.append("escalated to a person")
    elif kind == "tests":
        lines.append(tests_text(field(event, "tests")))
    elif kind == "tamper":
        if field(event, "error"):
            lines.append(plain(field(event, "error")))
        lines.append(diff_text(field(event, "changes")))
    decision = _decision(event)
    if decision:
        lines.append(f"supervisor: {decision}")
    return "\n".join(lines)
