"""The repo diff one trace event caused, as coloured unified diffs (and as plain text)."""

import difflib

from .html import join, plain, tag
from .trace import field

__all__ = ["diff_lines", "diff_html", "diff_text"]

# A rewrite of a large file would bury the rest of the step; the lines past this are counted.
MAX_DIFF_LINES = 300


def diff_lines(change):
    """A unified diff of one ``{path, before, after}`` change, as a list of lines."""
    path = plain(field(change, "path"))
    before, after = field(change, "before"), field(change, "after")
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
    path = plain(field(change, "path"))
    plus, minus = _counts(lines)
    if field(change, "before") is None:
        what = "new file"
    elif field(change, "after") is None:
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
                              aria_label=f"diff of {plain(field(change, 'path'))}")))
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
