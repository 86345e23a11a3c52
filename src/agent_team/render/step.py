"""One step of a supervisor trace as HTML (and as plain text).

A *step* is one trace event. :func:`step_html` reads only ``trace[index]`` and
the event before it (for the transition just taken), so stepping through a
200-round run costs the same as stepping through a 2-round one.
"""

import difflib

from .diagram import SUPERVISOR, diagram_text, state_svg
from .html import Safe, badge, details, join, plain, pre, short, table, tag, wrap

__all__ = ["trace_of", "step_html", "step_text", "event_html", "event_text", "event_summary",
           "diff_lines", "diff_html", "diff_text", "tests_html", "tests_text", "view_html", "patch_status"]

MAX_DIFF_LINES = 300
KNOWN_KEYS = frozenset({"type", "round", "state", "role", "view", "thought", "message", "patches", "applied",
                        "error", "changes", "verdict", "override", "escalated", "decision", "tests", "goal",
                        "max_rounds", "status", "stop_reason"})
TYPE_WORDS = {"start": "the run starts", "turn": "a turn", "tests": "the oracle runs the tests",
              "tamper": "an injected fault", "stop": "the run stops"}


def trace_of(run):
    """The trace inside a RunResult, a ``{"trace": ...}`` dict, or a trace itself."""
    trace = getattr(run, "trace", None)
    if trace is None and isinstance(run, dict):
        trace = run.get("trace")
    if trace is None:
        trace = run
    if not hasattr(trace, "__getitem__") or not hasattr(trace, "__len__"):
        raise TypeError(f"expected a run result or a trace (a list of events), not {type(run).__name__}")
    return trace


def _get(event, key, default=None):
    return event.get(key, default) if isinstance(event, dict) else default


# ---------------------------------------------------------------- diffs

def diff_lines(change):
    """A unified diff of one ``{path, before, after}`` change, as a list of lines."""
    path = plain(_get(change, "path"))
    before, after = _get(change, "before"), _get(change, "after")
    old = [] if before is None else plain(before).splitlines()
    new = [] if after is None else plain(after).splitlines()
    lines = list(difflib.unified_diff(old, new, "/dev/null" if before is None else f"a/{path}",
                                      "/dev/null" if after is None else f"b/{path}", lineterm="", n=2))
    if not lines and before != after:  # only line endings or a final newline changed
        lines = [f"--- a/{path}", f"+++ b/{path}", "(only whitespace at line ends changed)"]
    return lines


def _counts(lines):
    plus = sum(1 for line in lines if line.startswith("+") and not line.startswith("+++"))
    minus = sum(1 for line in lines if line.startswith("-") and not line.startswith("---"))
    return plus, minus


def _change_title(change, lines):
    path = plain(_get(change, "path"))
    plus, minus = _counts(lines)
    if _get(change, "before") is None:
        what = "new file"
    elif _get(change, "after") is None:
        what = "deleted"
    else:
        what = f"+{plus} −{minus} lines"
    return f"{path} ({what})"


def diff_html(changes):
    """The repo diff a step caused, one coloured unified diff per changed file."""
    if not changes:
        return tag("p", "The repo did not change.", class_="at-muted-text")
    blocks = []
    for change in changes:
        lines = diff_lines(change)
        shown = lines[:MAX_DIFF_LINES]
        rows = []
        for line in shown:
            if line.startswith(("+++", "---")):
                cls = "at-ctx"
            elif line.startswith("@@"):
                cls = "at-hunk"
            elif line.startswith("+"):
                cls = "at-add"
            elif line.startswith("-"):
                cls = "at-del"
            else:
                cls = "at-ctx"
            rows.append(tag("span", line or " ", class_=cls))
        if len(lines) > len(shown):
            rows.append(tag("span", f"… {len(lines) - len(shown)} more diff lines", class_="at-hunk"))
        blocks.append(tag("div", tag("b", _change_title(change, lines)),
                          tag("div", *rows, class_="at-diff", role="group",
                              aria_label=f"diff of {plain(_get(change, 'path'))}")))
    return join(blocks)


def diff_text(changes):
    if not changes:
        return "The repo did not change."
    out = []
    for change in changes:
        lines = diff_lines(change)
        out.append(_change_title(change, lines))
        out.extend("    " + line for line in lines[:MAX_DIFF_LINES])
        if len(lines) > MAX_DIFF_LINES:
            out.append(f"    … {len(lines) - MAX_DIFF_LINES} more diff lines")
    return "\n".join(out)


# ---------------------------------------------------------------- test reports

def _value(v):
    return v if isinstance(v, str) else plain(v)


def _expected(v):
    """An expected value as Python writes it: 'Fizz' with its quotes."""
    return repr(v) if isinstance(v, str) else plain(v)


def _got(v):
    """What a case returned: the oracle already keeps it as a short repr; None means it never returned."""
    return "—" if v is None else _value(v)


def _tests_counts(report):
    passed, failed = _get(report, "passed", 0) or 0, _get(report, "failed", 0) or 0
    return passed, failed


def tests_html(report):
    """The oracle's report: a summary line, errors, and a table of cases."""
    if not isinstance(report, dict):
        return tag("p", "No test report.", class_="at-muted-text")
    passed, failed = _tests_counts(report)
    ok = _get(report, "ok")
    head = tag("p", badge("green" if ok else "red", "ok" if ok else "bad"),
               f" {passed} passed, {failed} failed")
    parts = [head]
    cases = _get(report, "cases") or []
    # Errors that belong to a case are shown in its row; list only the others.
    in_rows = {plain(_get(c, "error")) for c in cases if _get(c, "error")}
    errors = [e for e in (_get(report, "errors") or []) if plain(e) not in in_rows]
    if errors:
        parts.append(tag("ul", *(tag("li", short(plain(e), 500)) for e in errors[:10])))
        if len(errors) > 10:
            parts.append(tag("p", f"… and {len(errors) - 10} more errors", class_="at-muted-text"))
    if cases:
        rows, classes = [], []
        for case in cases:
            good = _get(case, "passed")
            result = badge("pass", "ok") if good else badge("fail", "bad")
            err = _get(case, "error")
            rows.append([short(_value(_get(case, "n")), 60), short(_expected(_get(case, "expected")), 200),
                         short(_got(_get(case, "got")), 200),
                         join([result, " " + short(plain(err), 300) if err else ""])])
            classes.append(None if good else "at-row-bad")
        parts.append(table(["input", "expected", "got", "result"], rows, classes,
                           aria_label="test cases"))
    return join(parts)


def tests_text(report):
    if not isinstance(report, dict):
        return "No test report."
    passed, failed = _tests_counts(report)
    lines = [f"tests {'green' if _get(report, 'ok') else 'red'}: {passed} passed, {failed} failed"]
    cases = _get(report, "cases") or []
    in_rows = {plain(_get(c, "error")) for c in cases if _get(c, "error")}
    errors = [e for e in (_get(report, "errors") or []) if plain(e) not in in_rows]
    lines += [f"  error: {short(plain(e), 300)}" for e in errors[:10]]
    for case in cases:
        mark = "pass" if _get(case, "passed") else "FAIL"
        err = _get(case, "error")
        lines.append(f"  [{mark}] n={short(_value(_get(case, 'n')), 60)}: expected "
                     f"{short(_expected(_get(case, 'expected')), 100)}, got {short(_got(_get(case, 'got')), 100)}"
                     + (f" ({short(plain(err), 200)})" if err else ""))
    return "\n".join(lines)


# ---------------------------------------------------------------- views and patches

def _is_report(value):
    return isinstance(value, dict) and "ok" in value and "passed" in value


def _view_value(value):
    if value is None or value == "" or value == [] or value == {}:
        return tag("span", "(nothing yet)", class_="at-muted-text")
    if _is_report(value):
        passed, failed = _tests_counts(value)
        errors = _get(value, "errors") or []
        line = [badge("green" if _get(value, "ok") else "red", "ok" if _get(value, "ok") else "bad"),
                f" {passed} passed, {failed} failed"]
        if errors:
            line.append(f"; first error: {short(plain(errors[0]), 200)}")
        body = [tag("div", *line)]
        if _get(value, "cases"):
            body.append(details("the whole report", tests_html(value)))
        return join(body)
    if isinstance(value, str) and "\n" in value:
        return pre(short(value, 5000))
    if isinstance(value, str):
        return short(value, 2000)
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return join([tag("div", tag("code", k), ": ", short(plain(v), 500)) for k, v in value.items()])
    return tag("code", short(plain(value), 2000))


def view_html(view):
    """What a role was shown: one row per field of its view."""
    if not isinstance(view, dict) or not view:
        return tag("p", "(no view recorded)", class_="at-muted-text")
    rows = [[tag("code", plain(key)), _view_value(value)] for key, value in view.items()]
    return table(["field", "what it showed"], rows, aria_label="the view")


def _one_line(value, limit=70):
    if value is None or value == "" or value == []:
        return "(nothing yet)"
    if _is_report(value):
        passed, failed = _tests_counts(value)
        return f"{'green' if _get(value, 'ok') else 'red'}, {passed} passed, {failed} failed"
    text = plain(value)
    first = text.strip().splitlines()[0] if text.strip() else text
    more = len(text.strip().splitlines()) - 1
    return short(first, limit) + (f" (+{more} more lines)" if more > 0 else "")


def patch_status(event):
    """``(applied, reason)`` for the patches of a turn: all land together or none does."""
    return bool(_get(event, "applied")), _get(event, "error")


def _patches_html(event):
    patches = _get(event, "patches") or []
    applied, error = patch_status(event)
    if not patches:
        return tag("p", "It proposed no patches.", class_="at-muted-text")
    items = []
    for patch in patches:
        content = _get(patch, "content")
        size = f"{len(content):,} characters" if isinstance(content, str) else ""
        mark = badge("applied", "ok") if applied else badge("refused", "bad")
        items.append(tag("li", mark, " ", tag("code", plain(_get(patch, "path"))), f" — a full-file write, {size}",
                         details("what it proposed to write", pre(short(plain(content), 20000)))))
    parts = [tag("ul", *items)]
    if not applied and error:
        parts.append(tag("div", tag("b", "Refused: "), error, class_="at-refused"))
    return join(parts)


def _verdict_html(event):
    verdict = _get(event, "verdict")
    parts = []
    if isinstance(verdict, dict):
        word = plain(_get(verdict, "verdict"))
        kind = "ok" if word == "approve" else "warn"
        parts.append(tag("p", tag("b", "Verdict: "), badge(word, kind), " ", _get(verdict, "notes") or ""))
    elif _get(event, "role") == "reviewer":
        parts.append(tag("p", tag("b", "Verdict: "), badge("none", "muted"), " no verdict was recorded"))
    if _get(event, "override"):
        parts.append(tag("p", badge("overridden", "info"),
                         " The tests are green, so the supervisor stops anyway: a reviewer that asks "
                         "for changes forever would burn the budget."))
    if _get(event, "escalated"):
        parts.append(tag("p", badge("escalated", "warn"), " The reviewer asked for a person to step in."))
    return join(parts)


# ---------------------------------------------------------------- one event

def _decision(event):
    decision = _get(event, "decision")
    if decision:
        return plain(decision)
    kind = _get(event, "type")
    if kind == "tamper" and _get(event, "error"):
        return "the fault did nothing; the run goes on"
    return ""


def _title(event):
    kind, role = _get(event, "type"), _get(event, "role")
    if kind == "turn":
        return f"the {plain(role)}'s turn"
    return TYPE_WORDS.get(kind, f"event {plain(kind)!r}")


def event_summary(event):
    """One line for an event: used by run comparison and plain text."""
    kind, state = _get(event, "type"), plain(_get(event, "state"))
    if kind == "turn":
        role = plain(_get(event, "role"))
        applied, error = patch_status(event)
        paths = ", ".join(plain(_get(p, "path")) for p in _get(event, "patches") or []) or "no patches"
        line = f"{state} {role}: " + (f"wrote {paths}" if applied and _get(event, "changes")
                                      else ("no change" if applied else f"refused ({short(plain(error), 70)})"
                                            if error else "no change"))
        verdict = _get(event, "verdict")
        if isinstance(verdict, dict):
            line += f"; verdict {plain(_get(verdict, 'verdict'))}"
        if applied and error:
            line += f"; problem: {short(plain(error), 60)}"
        return line
    if kind == "tests":
        report = _get(event, "tests") or {}
        passed, failed = _tests_counts(report)
        return f"TEST: {'green' if _get(report, 'ok') else 'red'}, {passed} passed, {failed} failed"
    if kind == "tamper":
        changes = _get(event, "changes") or []
        return "FAULT: " + (", ".join(f"changed {plain(_get(c, 'path'))}" for c in changes) or "nothing changed")
    if kind == "stop":
        return f"{state}: {plain(_get(event, 'status'))} — {plain(_get(event, 'stop_reason'))}"
    if kind == "start":
        return f"START: max_rounds={plain(_get(event, 'max_rounds'))}"
    return f"{state}: {plain(kind)}"


def event_html(event):
    """The body of one event: who acted, what they saw, proposed and changed, and what happens next."""
    if not isinstance(event, dict):
        return tag("p", f"Not a trace event: {short(plain(event), 200)}")
    kind = _get(event, "type")
    parts = []
    if kind == "start":
        parts.append(tag("p", tag("b", "Goal: "), _get(event, "goal") or ""))
        parts.append(tag("p", tag("b", "Budget: "), f"{plain(_get(event, 'max_rounds'))} coder turns (max_rounds)"))
    elif kind == "turn":
        role = plain(_get(event, "role"))
        parts.append(tag("h4", f"What the {role} was shown (its view)"))
        parts.append(view_html(_get(event, "view")))
        parts.append(tag("h4", f"What the {role} did"))
        if _get(event, "thought"):
            parts.append(tag("p", tag("b", "Thought: "), tag("i", _get(event, "thought"))))
        if _get(event, "message"):
            parts.append(tag("p", tag("b", "Message: "), _get(event, "message")))
        patches = _get(event, "patches") or []
        applied, error = patch_status(event)
        if patches or applied:
            parts.append(_patches_html(event))
        elif error:
            parts.append(tag("div", tag("b", "Turn skipped: "), error, class_="at-refused"))
        if applied and error:
            parts.append(tag("div", tag("b", "Problem: "), error, class_="at-refused"))
        parts.append(tag("h4", "What changed in the repo"))
        parts.append(diff_html(_get(event, "changes")))
        if role == "reviewer" or "verdict" in event:
            parts.append(_verdict_html(event))
    elif kind == "tests":
        parts.append(tag("h4", "The oracle's report"))
        parts.append(tests_html(_get(event, "tests")))
    elif kind == "tamper":
        parts.append(tag("p", "A fault injected from outside the roles (failure injection)."))
        if _get(event, "error"):
            parts.append(tag("div", _get(event, "error"), class_="at-refused"))
        parts.append(tag("h4", "What changed in the repo"))
        parts.append(diff_html(_get(event, "changes")))
    elif kind == "stop":
        status = plain(_get(event, "status"))
        parts.append(tag("p", tag("b", "Status: "), badge(status, "ok" if status == "pass" else "bad"),
                         " ", _get(event, "stop_reason") or ""))
    else:
        parts.append(pre(short(plain(event), 5000)))
    extra = {k: v for k, v in event.items() if k not in KNOWN_KEYS}
    if extra:  # fields added later (model attempts, handoffs...): shown, never hidden
        parts.append(details(f"More recorded fields: {', '.join(map(plain, extra))}",
                             *(join([tag("b", plain(k)), pre(short(plain(v), 5000))]) for k, v in extra.items())))
    decision = _decision(event)
    if decision:
        parts.append(tag("div", tag("b", "The supervisor: "), decision, class_="at-decision"))
    return join(parts)


def event_text(event):
    """One event as readable plain text."""
    if not isinstance(event, dict):
        return f"Not a trace event: {short(plain(event), 200)}"
    kind = _get(event, "type")
    lines = [event_summary(event)]
    if kind == "start":
        lines.append(f"goal: {plain(_get(event, 'goal'))}")
    elif kind == "turn":
        view = _get(event, "view") or {}
        if isinstance(view, dict) and view:
            lines.append("view:")
            lines += [f"  {plain(k)}: {_one_line(v)}" for k, v in view.items()]
        for key in ("thought", "message"):
            if _get(event, key):
                lines.append(f"{key}: {short(plain(_get(event, key)), 300)}")
        applied, error = patch_status(event)
        for patch in _get(event, "patches") or []:
            lines.append(f"patch {plain(_get(patch, 'path'))}: {'applied' if applied else 'refused'}")
        if error:
            lines.append(f"{'problem' if applied else 'refused'}: {plain(error)}")
        if _get(event, "changes"):
            lines.append(diff_text(_get(event, "changes")))
        verdict = _get(event, "verdict")
        if isinstance(verdict, dict):
            lines.append(f"verdict: {plain(_get(verdict, 'verdict'))} ({plain(_get(verdict, 'notes'))})")
        if _get(event, "override"):
            lines.append("request_changes overridden: the tests are green")
        if _get(event, "escalated"):
            lines.append("escalated to a person")
    elif kind == "tests":
        lines.append(tests_text(_get(event, "tests")))
    elif kind == "tamper":
        if _get(event, "error"):
            lines.append(plain(_get(event, "error")))
        lines.append(diff_text(_get(event, "changes")))
    decision = _decision(event)
    if decision:
        lines.append(f"supervisor: {decision}")
    return "\n".join(lines)


# ---------------------------------------------------------------- one step of a trace

def _around(trace, index):
    """``(event, previous_state, n)``: reads trace[index] and trace[index - 1] only."""
    n = len(trace)
    if not isinstance(index, int) or isinstance(index, bool):
        raise TypeError(f"a step number must be a whole number, not {type(index).__name__}")
    if not -n <= index < n:
        raise IndexError(f"step {index} does not exist: this trace has steps 0 to {n - 1}")
    index %= n
    event = trace[index]
    previous = _get(trace[index - 1], "state") if index > 0 else None
    return index, event, previous, n


def step_header(event, index, n):
    """``Step 3 of 9 · round 1 · CODE · the coder's turn``."""
    return tag("h3", f"Step {index + 1} of {n} · round {plain(_get(event, 'round'))} · ",
               tag("code", plain(_get(event, "state"))), f" · {_title(event)}")


def step_html(run, index):
    """Step ``index`` of a run (or trace) as HTML: header, state diagram, then the event."""
    trace = trace_of(run)
    if len(trace) == 0:
        return wrap(tag("p", "This trace is empty: there is nothing to step through."))
    index, event, previous, n = _around(trace, index)
    state = _get(event, "state")
    return wrap(step_header(event, index, n),
                Safe(state_svg(state, previous, SUPERVISOR)),
                event_html(event), label=f"step {index + 1} of {n}")


def step_text(run, index):
    """Step ``index`` as plain text (for consoles, nbval and screen readers)."""
    trace = trace_of(run)
    if len(trace) == 0:
        return "This trace is empty: there is nothing to step through."
    index, event, previous, n = _around(trace, index)
    head = (f"Step {index + 1} of {n} · round {plain(_get(event, 'round'))} · {plain(_get(event, 'state'))}"
            f" · {_title(event)}")
    return "\n".join([head, diagram_text(_get(event, "state"), previous), event_text(event)])
