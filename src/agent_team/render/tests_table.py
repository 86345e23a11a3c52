"""The oracle's test report: a summary line, the errors, and a table of cases (or plain text)."""

from .html import badge, join, plain, table, tag
from .trace import field

__all__ = ["tests_html", "tests_text", "tests_counts", "is_report"]


def is_report(value):
    """Whether ``value`` looks like an oracle report (views carry them among other fields)."""
    return isinstance(value, dict) and "ok" in value and "passed" in value


def tests_counts(report):
    """``(passed, failed)``, 0 for a count the report lacks."""
    passed, failed = field(report, "passed", 0) or 0, field(report, "failed", 0) or 0
    return passed, failed


def _expected(v):
    """An expected value as Python writes it: 'Fizz' with its quotes."""
    return repr(v) if isinstance(v, str) else plain(v)


def _got(v):
    """What a case returned: the oracle already keeps it as a short repr; None means it never returned."""
    return "—" if v is None else plain(v)


def _other_errors(report, cases):
    # Errors that belong to a case are shown in its row; list only the others.
    in_rows = {plain(field(c, "error")) for c in cases if field(c, "error")}
    return [e for e in (field(report, "errors") or []) if plain(e) not in in_rows]


def tests_html(report):
    """The oracle's report: a summary line, errors, and a table of cases."""
    if not isinstance(report, dict):
        return tag("p", "No test report.", class_="at-muted-text")
    passed, failed = tests_counts(report)
    ok = field(report, "ok")
    head = tag("p", badge("green" if ok else "red", "ok" if ok else "bad"),
               f" {passed} passed, {failed} failed")
    parts = [head]
    cases = field(report, "cases") or []
    errors = _other_errors(report, cases)
    if errors:
        parts.append(tag("ul", *(tag("li", plain(e, 500)) for e in errors[:10])))
        if len(errors) > 10:
            parts.append(tag("p", f"… and {len(errors) - 10} more errors", class_="at-muted-text"))
    if cases:
        rows, classes = [], []
        for case in cases:
            good = field(case, "passed")
            result = badge("pass", "ok") if good else badge("fail", "bad")
            err = field(case, "error")
            rows.append([plain(field(case, "n"), 60), plain(_expected(field(case, "expected")), 200),
                         plain(_got(field(case, "got")), 200),
                         join([result, " " + plain(err, 300) if err else ""])])
            classes.append(None if good else "at-row-bad")
        parts.append(table(["input", "expected", "got", "result"], rows, classes,
                           aria_label="test cases"))
    return join(parts)


def tests_text(report):
    if not isinstance(report, dict):
        return "No test report."
    passed, failed = tests_counts(report)
    lines = [f"tests {'green' if field(report, 'ok') else 'red'}: {passed} passed, {failed} failed"]
    cases = field(report, "cases") or []
    lines += [f"  error: {plain(e, 300)}" for e in _other_errors(report, cases)[:10]]
    for case in cases:
        mark = "pass" if field(case, "passed") else "FAIL"
        err = field(case, "error")
        lines.append(f"  [{mark}] n={plain(field(case, 'n'), 60)}: expected "
                     f"{plain(_expected(field(case, 'expected')), 100)}, got {plain(_got(field(case, 'got')), 100)}"
                     + (f" ({plain(err, 200)})" if err else ""))
    return "\n".join(lines)
