"""One trace event -- a turn, a test run, a fault, the start or the stop -- as HTML, text and one line.

What an event shows is decided once, in :func:`sections`: a list of :class:`Section` s, each a
shape (a line, an alert, a badge, the view, the diff...) with its words and, if it belongs in
the one-line summary, its short phrase. :func:`event_html`, :func:`event_text` and
:func:`event_summary` only draw those parts, so the three cannot disagree about what happened.
Which fields exist is trace.FIELDS; a field this module does not show is listed at the end,
so what a newer supervisor records is never silently dropped.
"""

from typing import NamedTuple

from ..trace import FIELDS
from .diff import diff_html, diff_text
from .html import badge, details, join, plain, pre, tag
from .tests_table import tests_counts, tests_html, tests_text
from .trace import field
from .view import value_line, view_html

__all__ = ["Section", "sections", "event_html", "event_text", "event_summary", "event_title", "patch_status"]

# The trace's fields the parts below show (the others of trace.FIELDS are structured twins of
# ``error``, which says them in words: failure, refused_by, rule, seconds; attempts is listed).
SHOWN = frozenset(FIELDS) - {"attempts"}
TYPE_WORDS = {"start": "the run starts", "turn": "a turn", "tests": "the oracle runs the tests",
              "tamper": "an injected fault", "stop": "the run stops"}
OVERRIDE_NOTE = ("the tests are green, so request_changes is overridden and the run stops anyway: a reviewer "
                 "that asks for changes forever would burn the budget")


class Section(NamedTuple):
    """One piece of what an event shows: ``shape`` says how to draw ``value``."""

    shape: str        # heading, line, alert, badge, note, view, patches, changes, tests, extra, raw, decision
    label: str = ""
    value: object = None
    tone: str = ""    # a badge's colour: ok, bad, warn, info, muted
    note: str = ""    # a badge's words after it
    short: str = ""   # its phrase in the one-line summary, if any


def patch_status(event):
    """``(applied, reason)`` for the patches of a turn: all land together or none does."""
    return bool(field(event, "applied")), field(event, "error")


def _turn(event):
    role = plain(field(event, "role"))
    applied, error = patch_status(event)
    patches = field(event, "patches") or []
    paths = ", ".join(plain(field(p, "path")) for p in patches) or "no patches"
    parts = [Section("heading", f"What the {role} was shown (its view)"), Section("view", value=field(event, "view")),
             Section("heading", f"What the {role} did")]
    if field(event, "thought"):
        parts.append(Section("line", "Thought", field(event, "thought"), tone="i"))
    if field(event, "message"):
        parts.append(Section("line", "Message", field(event, "message")))
    if patches or applied:
        parts.append(Section("patches", value=patches, tone="ok" if applied else "bad"))
    if error and not applied:  # refused when it proposed patches; skipped when it never got that far
        word = "refused" if patches else "skipped"
        parts.append(Section("alert", "Refused" if patches else "Turn skipped", error,
                          short=f"{word} ({plain(error, 70)})"))
    wrote = applied and field(event, "changes")
    parts += [Section("heading", "What changed in the repo"),
              Section("changes", value=field(event, "changes"),
                   short=f"wrote {paths}" if wrote else ("" if error and not applied else "no change"))]
    verdict = field(event, "verdict")
    if isinstance(verdict, dict):
        word = plain(field(verdict, "verdict"))
        parts.append(Section("badge", "Verdict", word, "ok" if word == "approve" else "warn",
                          field(verdict, "notes") or "", short=f"verdict {word}"))
    elif field(event, "role") == "reviewer" or "verdict" in event:
        parts.append(Section("badge", "Verdict", "none", "muted", "no verdict was recorded"))
    if field(event, "ignored"):
        keys = ", ".join(map(plain, field(event, "ignored")))
        parts.append(Section("badge", "", "ignored", "info", f"{keys}: not part of an output (thought, patches, "
                             "message), so the supervisor read none of it", short=f"ignored {keys}"))
    if field(event, "override"):
        parts.append(Section("badge", "", "overridden", "info", OVERRIDE_NOTE, short="request_changes overridden"))
    if field(event, "escalated"):
        parts.append(Section("badge", "", "escalated", "warn", "the reviewer asked for a person to step in",
                          short="escalated"))
    if applied and error:
        parts.append(Section("alert", "Problem", error, short=f"problem: {plain(error, 60)}"))
    return parts


def _tests(event):
    report = field(event, "tests") or {}
    passed, failed = tests_counts(report)
    return [Section("heading", "The oracle's report"),
            Section("tests", value=field(event, "tests"),
                 short=f"{'green' if field(report, 'ok') else 'red'}, {passed} passed, {failed} failed")]


def _tamper(event):
    changed = ", ".join(f"changed {plain(field(c, 'path'))}" for c in field(event, "changes") or [])
    parts = [Section("note", value="A fault injected from outside the roles (failure injection).")]
    if field(event, "error"):
        parts.append(Section("alert", value=field(event, "error")))
    return parts + [Section("heading", "What changed in the repo"),
                    Section("changes", value=field(event, "changes"), short=changed or "nothing changed")]


def _decision(event):
    decision = field(event, "decision")
    if decision:
        return plain(decision)
    if field(event, "type") == "tamper" and field(event, "error"):
        return "the fault did nothing; the run goes on"
    return ""


def sections(event):
    """What one event shows, as parts in order; every rendering draws exactly these."""
    if not isinstance(event, dict):
        return [Section("raw", value=f"Not a trace event: {plain(event, 200)}")]
    kind = field(event, "type")
    if kind == "start":
        rounds = plain(field(event, "max_rounds"))
        parts = [Section("line", "Goal", field(event, "goal") or ""),
                 Section("line", "Budget", f"{rounds} coder turns (max_rounds)", short=f"max_rounds={rounds}")]
    elif kind == "turn":
        parts = _turn(event)
    elif kind == "tests":
        parts = _tests(event)
    elif kind == "tamper":
        parts = _tamper(event)
    elif kind == "stop":
        status = plain(field(event, "status"))
        parts = [Section("badge", "Status", status, "ok" if status == "pass" else "bad",
                      field(event, "stop_reason") or "", short=f"{status} — {plain(field(event, 'stop_reason'))}")]
    else:
        parts = [Section("raw", value=plain(event, 5000), short=plain(kind))]
    extra = {k: v for k, v in event.items() if k not in SHOWN}
    if extra:  # fields added later (model attempts, handoffs...): shown, never hidden
        parts.append(Section("extra", f"More recorded fields: {', '.join(map(plain, extra))}", extra))
    if _decision(event):
        parts.append(Section("decision", "The supervisor", _decision(event)))
    return parts


def event_title(event):
    """What happens in an event, in words: ``the coder's turn``, ``the run stops``."""
    kind, role = field(event, "type"), field(event, "role")
    if kind == "turn":
        return f"the {plain(role)}'s turn"
    return TYPE_WORDS.get(kind, f"event {plain(kind)!r}")


def event_summary(event):
    """One line for an event: who or what, then the short phrase of each of its parts."""
    state = plain(field(event, "state"))
    head = f"{state} {plain(field(event, 'role'))}" if field(event, "type") == "turn" else state
    shorts = [p.short for p in sections(event) if p.short]
    return f"{head}: " + "; ".join(shorts) if isinstance(event, dict) else sections(event)[0].value


def _html(part):
    shape, label, value = part.shape, part.label, part.value
    if shape == "heading":
        return tag("h4", label)
    if shape == "line":
        return tag("p", tag("b", f"{label}: "), tag("i", value) if part.tone == "i" else value)
    if shape == "alert":
        return tag("div", *([tag("b", f"{label}: ")] if label else []), value, class_="at-refused")
    if shape == "badge":
        return tag("p", *([tag("b", f"{label}: ")] if label else []), badge(value, part.tone), " ", part.note)
    if shape == "note":
        return tag("p", value)
    if shape == "view":
        return view_html(value)
    if shape == "patches":
        items = []
        for patch in value:
            content = field(patch, "content")
            size = f"{len(content):,} characters" if isinstance(content, str) else ""
            mark = badge("applied", "ok") if part.tone == "ok" else badge("refused", "bad")
            items.append(tag("li", mark, " ", tag("code", plain(field(patch, "path"))),
                             f" — a full-file write, {size}",
                             details("what it proposed to write", pre(plain(content, 20000)))))
        return tag("ul", *items) if items else tag("p", "It proposed no patches.", class_="at-muted-text")
    if shape == "changes":
        return diff_html(value)
    if shape == "tests":
        return tests_html(value)
    if shape == "extra":
        return details(label, *(join([tag("b", plain(k)), pre(plain(v, 5000))]) for k, v in value.items()))
    if shape == "decision":
        return tag("div", tag("b", f"{label}: "), value, class_="at-decision")
    return pre(value)


def _text(part):
    shape, label, value = part.shape, part.label, part.value
    if shape == "heading":
        return None  # layout only: the text's labels say the same
    if shape in ("line", "alert"):
        return f"{label.lower()}: {plain(value, 300)}" if label else plain(value)
    if shape == "badge":
        if not part.note:
            return f"{label.lower()}: {value}" if label else value
        return f"{label.lower()}: {value} ({plain(part.note)})" if label else f"{value}: {plain(part.note)}"
    if shape == "note":
        return plain(value)
    if shape == "view":
        if not isinstance(value, dict) or not value:
            return "view: (no view recorded)"
        return "\n".join(["view:", *(f"  {plain(k)}: {value_line(v)}" for k, v in value.items())])
    if shape == "patches":
        mark = "applied" if part.tone == "ok" else "refused"
        return "\n".join(f"patch {plain(field(p, 'path'))}: {mark}" for p in value) or "no patches"
    if shape == "changes":
        return diff_text(value)
    if shape == "tests":
        return tests_text(value)
    if shape == "extra":
        return "\n".join([label.lower(), *(f"  {plain(k)}: {plain(v, 300)}" for k, v in value.items())])
    if shape == "decision":
        return f"{label.lower()}: {value}"
    return plain(value)


def event_html(event):
    """The body of one event: who acted, what they saw, proposed and changed, and what happens next."""
    return join([_html(part) for part in sections(event)])


def event_text(event):
    """One event as readable plain text: its summary line, then each part."""
    lines = [event_summary(event)] if isinstance(event, dict) else []
    return "\n".join(lines + [t for t in map(_text, sections(event)) if t is not None])
