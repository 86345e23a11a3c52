"""Small HTML helpers: escaping, tags, tables, collapsible sections.

Everything a learner (or a policy) can influence -- file contents, thoughts,
messages, test output, grader details -- passes through :func:`esc` before it
reaches HTML. A :class:`Safe` string is HTML that is already escaped (built
here from escaped parts); every helper escapes anything that is not ``Safe``,
so forgetting to escape is hard and escaping twice cannot happen.
"""

import html as _html
import json
import re

from ..clip import clip, safe_repr

__all__ = ["Safe", "esc", "inline", "tag", "join", "table", "details", "pre", "badge", "plain", "unmarked", "STYLE",
           "wrap"]


class Safe(str):
    """A string of HTML that is already escaped and may be inserted as is."""

    __slots__ = ()


def plain(value, limit=None):
    """Any value as text: strings as they are, None as '', the rest as compact JSON or repr.

    ``limit`` cuts it there, saying how long it was (``clip(..., count=True)``): the one way
    renderers shorten what they show.
    """
    if isinstance(value, str):
        text = value
    elif value is None:
        text = ""
    elif isinstance(value, (dict, list, tuple, bool, int, float)):
        try:
            text = json.dumps(value, ensure_ascii=False, default=repr)
        except (TypeError, ValueError, RecursionError):
            text = safe_repr(value, None)
    else:
        text = safe_repr(value, None)
    return clip(text, limit, count=True) if limit else text


def esc(value):
    """``value`` as HTML text: escaped unless it is already :class:`Safe`."""
    if isinstance(value, Safe):
        return value
    return Safe(_html.escape(plain(value), quote=True))


_CODE = re.compile(r"`([^`\n]+)`")


def inline(text):
    """Course-written text (hints, questions) as HTML: escaped, with `backticks` as <code>."""
    return Safe(_CODE.sub(r"<code>\1</code>", esc(text)))


def unmarked(text):
    """Course-written text where only plain text shows (a radio button's label): `backticks` dropped."""
    return _CODE.sub(r"\1", str(text))


def join(parts, sep=""):
    """Join HTML parts, escaping the ones that are not Safe."""
    return Safe(esc(sep).join(esc(p) for p in parts if p is not None))


def _attrs(attrs):
    out = []
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        out.append(f" {name}" if value is True else f' {name}="{_html.escape(str(value), quote=True)}"')
    return "".join(out)


def tag(name, *content, **attrs):
    """``<name attrs>content</name>``; ``class_="x"`` gives ``class="x"``, ``aria_label`` gives ``aria-label``."""
    return Safe(f"<{name}{_attrs(attrs)}>{join(content)}</{name}>")


def pre(text, **attrs):
    """Preformatted text (file contents, logs), escaped."""
    attrs.setdefault("class_", "at-pre")
    return tag("pre", text, **attrs)


def badge(text, kind="info"):
    """A small coloured label: kind is ok, bad, warn, info or muted."""
    return tag("span", text, class_=f"at-badge at-{kind}")


def table(headers, rows, row_classes=None, **attrs):
    """A table; ``rows`` are sequences of cells (escaped unless Safe)."""
    attrs.setdefault("class_", "at-table")
    head = tag("thead", tag("tr", *(tag("th", h, scope="col") for h in headers)))
    body = []
    for i, row in enumerate(rows):
        cls = row_classes[i] if row_classes else None
        body.append(tag("tr", *(tag("td", cell) for cell in row), class_=cls or None))
    return tag("table", head, tag("tbody", *body), **attrs)


def details(summary, *body, open=False, **attrs):  # noqa: A002 -- mirrors the HTML attribute
    """A collapsible section (<details>): ``summary`` is always shown."""
    return tag("details", tag("summary", summary), *body, open=open, **attrs)


# One small stylesheet, scoped by the at- prefix. Colours are translucent so
# they read on light and dark themes; text keeps the theme's own colour. Table
# rules are specific enough to beat JupyterLab's rendered-HTML table styles
# (which right-align cells), and text blocks undo its `word-break:break-all` on
# output <pre>s, which split words anywhere ("fi rst"). A diagram keeps a
# readable minimum width and scrolls sideways in a narrow notebook instead of
# shrinking its labels to a few pixels; `contain:inline-size` keeps that
# minimum from widening a widget, which sizes itself to its content. An HTML
# widget holding a course box may shrink below its content's widest word (as a
# flex item it would not), so the box's own sideways scroll takes over.
STYLE = Safe("""<style>
.at-box{font-family:var(--jp-ui-font-family,system-ui,sans-serif);font-size:13px;line-height:1.45;max-width:100%;\
overflow-x:auto}
.at-box h3,.at-box h4{margin:.5em 0 .3em 0}
.at-pre{white-space:pre-wrap;overflow-wrap:break-word;font-family:var(--jp-code-font-family,monospace);font-size:12px;\
margin:.2em 0;padding:.3em .5em;background:rgba(127,127,127,.08);border-radius:3px}
.at-box table.at-table{border-collapse:collapse;margin:.3em 0}
.at-box table.at-table th,.at-box table.at-table td{border:1px solid rgba(127,127,127,.35);padding:2px 8px;\
text-align:left;vertical-align:top}
.at-box table.at-table th{background:rgba(127,127,127,.12)}
.at-badge{display:inline-block;padding:0 6px;border-radius:8px;font-size:12px;font-weight:600}
.at-ok{background:rgba(30,160,70,.2)}
.at-bad{background:rgba(220,50,50,.22)}
.at-warn{background:rgba(230,150,0,.25)}
.at-info{background:rgba(30,110,230,.18)}
.at-muted{background:rgba(127,127,127,.18)}
.at-box tr.at-row-bad td{background:rgba(220,50,50,.10)}
.at-box tr.at-row-first td{background:rgba(230,150,0,.16);font-weight:600}
.at-diff{font-family:var(--jp-code-font-family,monospace);font-size:12px;margin:.2em 0;padding:.3em .5em;\
white-space:pre-wrap;overflow-wrap:break-word;background:rgba(127,127,127,.06)}
.at-diff .at-add{background:rgba(30,160,70,.2);display:block}
.at-diff .at-del{background:rgba(220,50,50,.18);display:block}
.at-diff .at-hunk{color:rgba(30,110,230,.9);display:block}
.at-diff .at-ctx{display:block}
.at-decision{border-left:4px solid rgba(30,110,230,.7);padding:.2em .6em;margin:.4em 0;background:rgba(30,110,230,.07)}
.at-hint{border-left:4px solid rgba(230,150,0,.8);padding:.2em .6em;margin:.4em 0;background:rgba(230,150,0,.08)}
.at-refused{border-left:4px solid rgba(220,50,50,.8);padding:.2em .6em;margin:.4em 0;background:rgba(220,50,50,.07)}
.at-box mark{background:rgba(230,150,0,.45);color:inherit}
.at-muted-text{opacity:.7}
.at-side{display:flex;gap:12px;align-items:flex-start;flex-wrap:wrap}
.at-side>div{flex:1 1 320px;min-width:0}
.at-box svg{max-width:100%;height:auto}
.at-box pre,.at-box .at-pre,.at-box .at-diff{word-break:normal;overflow-wrap:break-word}
.at-scroll{overflow-x:auto;max-width:100%;contain:inline-size}
.widget-html-content:has(.at-box){min-width:0;max-width:100%}
.at-box .at-scroll svg.at-diagram{min-width:640px}
.at-box code{font-family:var(--jp-code-font-family,monospace);font-size:.95em;padding:0 .2em;border-radius:3px;\
background:rgba(127,127,127,.14)}
</style>""")


def table_text(headers, rows):
    """The plain-text twin of :func:`table`: one line per row, cells joined by ' | '."""
    return "\n".join(" | ".join(str(cell) for cell in row) for row in [headers, *rows])


def wrap(*content, label=None, scrolls=False):
    """The outer box every renderer returns: the stylesheet plus the content.

    ``scrolls=True`` for content that may be wider than the page (a table of many columns): the box
    then takes keyboard focus, so a learner without a mouse can scroll it with the arrow keys."""
    focus = {"tabindex": "0"} if scrolls else {}
    return Safe(STYLE + tag("div", *content, class_="at-box", role="region", aria_label=label, **focus))
