"""What a role was shown on its turn (its view), field by field."""

from .html import badge, details, join, plain, pre, table, tag
from .tests_table import is_report, tests_counts, tests_html
from .trace import field

__all__ = ["view_html", "value_line"]


def _value_html(value):
    if value is None or value == "" or value == [] or value == {}:
        return tag("span", "(nothing yet)", class_="at-muted-text")
    if is_report(value):
        passed, failed = tests_counts(value)
        errors = field(value, "errors") or []
        line = [badge("green" if field(value, "ok") else "red", "ok" if field(value, "ok") else "bad"),
                f" {passed} passed, {failed} failed"]
        if errors:
            line.append(f"; first error: {plain(errors[0], 200)}")
        body = [tag("div", *line)]
        if field(value, "cases"):
            body.append(details("the whole report", tests_html(value)))
        return join(body)
    if isinstance(value, str) and "\n" in value:
        return pre(plain(value, 5000))
    if isinstance(value, str):
        return plain(value, 2000)
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return join([tag("div", tag("code", k), ": ", plain(v, 500)) for k, v in value.items()])
    return tag("code", plain(value, 2000))


def view_html(view):
    """What a role was shown: one row per field of its view."""
    if not isinstance(view, dict) or not view:
        return tag("p", "(no view recorded)", class_="at-muted-text")
    rows = [[tag("code", plain(key)), _value_html(value)] for key, value in view.items()]
    return table(["field", "what it showed"], rows, aria_label="the view")


def value_line(value, limit=70):
    """One field of a view as a single line of text: its first line, and how many more there are."""
    if value is None or value == "" or value == []:
        return "(nothing yet)"
    if is_report(value):
        passed, failed = tests_counts(value)
        return f"{'green' if field(value, 'ok') else 'red'}, {passed} passed, {failed} failed"
    text = plain(value)
    first = text.strip().splitlines()[0] if text.strip() else text
    more = len(text.strip().splitlines()) - 1
    return plain(first, limit) + (f" (+{more} more lines)" if more > 0 else "")
