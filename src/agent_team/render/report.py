"""A grader's report as HTML: checks, the first divergence, a hint, details.

Duck-typed: a report has ``title``, ``checks``, ``hint``, ``outcome`` and
``passed``; a check has ``name``, ``requirement``, ``passed`` (True, False or
None for "not run"), ``detail`` and ``divergence``; a divergence has
``scenario``, ``step``, ``expected`` and ``actual`` (lists of lines) and
``index`` (the first line that differs). Every one of those strings can hold
what the learner's code produced, so all of it is escaped.
"""

import difflib
import re
from itertools import zip_longest

from .html import badge, details, esc, inline, join, plain, pre, table, tag, wrap

__all__ = ["report_html", "report_text", "tally", "detail_html", "divergence_html", "divergence_text", "highlight_pair"]

MAX_ROWS = 40  # a divergence longer than this shows a window around its first difference

OUTCOME_KIND = {"passed": "ok", "not yet": "warn", "not implemented": "muted"}
RESULT = {True: ("pass", "ok"), False: ("fail", "bad"), None: ("not run", "muted")}
DETAIL_CHARS = 400  # what a row of the table shows of a check's detail; "All details" has the rest


def _attr(obj, name, default=None):
    try:
        return getattr(obj, name, default)
    except Exception:  # noqa: BLE001 -- a property that raises reads as missing
        return default


def _lines(value):
    if value is None:
        return []
    if isinstance(value, str):
        return value.splitlines()
    try:
        return [plain(v) for v in value]
    except TypeError:
        return [plain(value)]


def _first_diff(expected, actual):
    for i, (want, got) in enumerate(zip_longest(expected, actual)):
        if want != got:
            return i
    return None


_TOKENS = re.compile(r"\w+|\s+|[^\w\s]")


def highlight_pair(want, got):
    """Two lines as HTML with the words where they differ wrapped in <mark>."""
    a, b = _TOKENS.findall(plain(want)), _TOKENS.findall(plain(got))
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    left, right = [], []
    for op, a0, a1, b0, b1 in sm.get_opcodes():
        if op == "equal":
            left.append(esc("".join(a[a0:a1])))
            right.append(esc("".join(b[b0:b1])))
        else:
            if a1 > a0:
                left.append(tag("mark", "".join(a[a0:a1])))
            if b1 > b0:
                right.append(tag("mark", "".join(b[b0:b1])))
    return join(left), join(right)


def _window(n, index):
    if n <= MAX_ROWS:
        return 0, n
    lo = max(0, min(index - 5, n - MAX_ROWS))
    return lo, lo + MAX_ROWS


def divergence_html(div):
    """Expected and actual lines aligned, the first difference marked and its characters highlighted."""
    expected, actual = _lines(_attr(div, "expected")), _lines(_attr(div, "actual"))
    index = _attr(div, "index")
    if not isinstance(index, int) or isinstance(index, bool):
        index = _first_diff(expected, actual)
    where = []
    if _attr(div, "scenario"):
        where.append(f"in {plain(_attr(div, 'scenario'))}")
    if _attr(div, "step") not in (None, ""):
        where.append(f"at {plain(_attr(div, 'step'))}")
    title = tag("p", tag("b", "First difference"), (" " + ", ".join(where)) if where else "", ":")
    pairs = list(zip_longest(expected, actual))
    lo, hi = _window(len(pairs), index if index is not None else 0)
    rows, classes = [], []
    if lo > 0:
        rows.append(["", tag("i", f"… {lo} earlier lines agree"), ""])
        classes.append(None)
    for i in range(lo, hi):
        want, got = pairs[i]
        if want is not None and got is not None and want != got and i == index:
            left, right = highlight_pair(want, got)
        else:
            left = tag("i", "(nothing)") if want is None else esc(want)
            right = tag("i", "(nothing)") if got is None else esc(got)
        mark = "▶" if i == index else ("≠" if want != got else "")
        rows.append([mark, tag("code", left), tag("code", right)])
        classes.append("at-row-first" if i == index else ("at-row-bad" if want != got else None))
    if hi < len(pairs):
        rows.append(["", tag("i", f"… {len(pairs) - hi} more lines"), ""])
        classes.append(None)
    return join([title, table(["", "expected", "what happened"], rows, classes,
                              aria_label="expected and actual, line by line")])


def divergence_text(div):
    expected, actual = _lines(_attr(div, "expected")), _lines(_attr(div, "actual"))
    index = _attr(div, "index")
    if not isinstance(index, int) or isinstance(index, bool):
        index = _first_diff(expected, actual)
    lines = [f"First difference, in {plain(_attr(div, 'scenario'))}, at {plain(_attr(div, 'step'))}:"]
    for i, (want, got) in enumerate(zip_longest(expected, actual)):
        mark = ">>" if i == index else "  "
        lines.append(f" {mark} expected {'(nothing)' if want is None else want}")
        if want != got:
            lines.append(f" {mark}      got {'(nothing)' if got is None else got}")
    return "\n".join(lines)


def _checks(report):
    checks = _attr(report, "checks") or []
    try:
        return list(checks)
    except TypeError:
        return []


def _outcome(report, checks):
    outcome = _attr(report, "outcome")
    if outcome:
        return plain(outcome)
    passed = _attr(report, "passed")
    if passed is None:
        passed = bool(checks) and all(_attr(c, "passed") is True for c in checks)
    return "passed" if passed else "not yet"


def tally(checks):
    """How the checks fared, in words: only a check that really passed is counted as passing.

    A check that was never judged (``passed`` None: the learner's code crashed or stopped before a
    case tried it) is counted apart, never among the passes.
    """
    results = [_attr(c, "passed") for c in checks]
    passed = sum(1 for r in results if r is True)
    failed = sum(1 for r in results if r is False)
    words = [f"{passed} of {len(results)} checks pass"]
    if failed:
        words.append(f"{failed} {'fails' if failed == 1 else 'fail'}")
    unjudged = len(results) - passed - failed
    if unjudged:
        words.append(f"{unjudged} not run (nothing judged {'it' if unjudged == 1 else 'them'})")
    return "; ".join(words) + "."


def detail_html(detail):
    """A failing check's detail in a row: one line inline, several lines (a source, a list of calls)
    as a block that keeps its line breaks, so a failing source reads as code, not one squashed line."""
    text = plain(detail or "", DETAIL_CHARS)
    if "\n" in text.strip():
        return pre(text)
    return inline(text)


def report_html(report):
    """A grader's report as HTML (what a Report's ``_repr_html_`` shows)."""
    checks = _checks(report)
    outcome = _outcome(report, checks)
    parts = [tag("h3", plain(_attr(report, "title") or "Report"), " ",
                 badge(outcome, OUTCOME_KIND.get(outcome, "info")))]
    if checks:
        parts.append(tag("p", tally(checks)))
        rows, classes = [], []
        for c in checks:
            word, kind = RESULT.get(_attr(c, "passed"), ("?", "muted"))
            rows.append([badge(word, kind), tag("b", plain(_attr(c, "name"))), inline(_attr(c, "requirement")),
                         detail_html(_attr(c, "detail")) if _attr(c, "passed") is False else ""])
            classes.append("at-row-bad" if _attr(c, "passed") is False else None)
        parts.append(table(["result", "check", "requirement", "what went wrong"], rows, classes,
                           aria_label="checks"))
    first = next((c for c in checks if _attr(c, "passed") is False and _attr(c, "divergence")), None)
    if first is not None:
        parts.append(tag("div", tag("p", "From the check ", tag("b", plain(_attr(first, "name"))), ":"),
                         divergence_html(_attr(first, "divergence"))))
    hint = _attr(report, "hint")
    if hint and outcome != "passed":
        parts.append(tag("div", tag("b", "Hint: "), inline(plain(hint)), class_="at-hint"))
    more = []
    for c in checks:
        detail, div = _attr(c, "detail"), _attr(c, "divergence")
        if not detail and not div:
            continue
        body = [pre(plain(detail))] if detail else []
        if div:
            body.append(divergence_html(div))
        word, kind = RESULT.get(_attr(c, "passed"), ("?", "muted"))
        more.append(details(join([badge(word, kind), " ", plain(_attr(c, "name"))]), *body))
    if more:
        parts.append(details("All details", *more))
    return wrap(*parts, label=f"report: {plain(_attr(report, 'title') or '')}")


def report_text(report):
    """A grader's report as plain text."""
    checks = _checks(report)
    outcome = _outcome(report, checks)
    head = f"{plain(_attr(report, 'title') or 'Report')}: {outcome.upper()}"
    lines = [head, "-" * len(head)] + ([tally(checks)] if checks else [])
    for c in checks:
        mark = {True: "PASS", False: "FAIL", None: "----"}.get(_attr(c, "passed"), "????")
        lines.append(f"[{mark}] {plain(_attr(c, 'name'))}: {plain(_attr(c, 'requirement'))}")
        if _attr(c, "passed") is False and _attr(c, "detail"):
            lines.extend("       " + line for line in plain(_attr(c, "detail")).splitlines())
    first = next((c for c in checks if _attr(c, "passed") is False and _attr(c, "divergence")), None)
    if first is not None:
        lines += ["", divergence_text(_attr(first, "divergence"))]
    hint = _attr(report, "hint")
    if hint and outcome != "passed":
        lines += ["", f"Hint: {plain(hint)}"]
    return "\n".join(lines)
