"""What every widget shares: HTML and text for any front end, and the optional ipywidgets controls.

Every widget keeps its state in plain Python and exposes ``.html`` (what it
displays now) and ``.text`` (the same as readable text). Jupyter shows the
live widget; nbval, plain ``python`` and front ends without widget support
fall back to the HTML or the text through the rich-display protocol.
"""

import sys

try:  # the pure engine never needs this; only the controls do
    import ipywidgets as ipw
except Exception:  # noqa: BLE001 -- no ipywidgets (or a broken one): text and HTML only
    ipw = None

__all__ = ["Rich", "show", "Base", "controls", "package_attr", "button", "check_step", "WIDGET_MIME", "ipw",
           "ROW_LAYOUT"]

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


def package_attr(name):
    """``agent_team.widgets.<name>``, looked up on each call rather than bound at import.

    The package's ``ipw`` and ``show`` are its switches: ``agent_team.widgets.ipw = None``
    makes every widget behave as if ipywidgets were missing (the tests do this), and
    replacing ``show`` redirects :func:`show_report`. A name imported into each module
    would not see such an assignment.
    """
    return getattr(sys.modules[__package__], name)


def controls():
    """The ipywidgets module, or None when the widgets must do without controls."""
    return package_attr("ipw")


class Rich:
    """Something to display: HTML for notebooks, text for everything else."""

    def __init__(self, html, text):
        self.html, self.text = html, text

    def _repr_html_(self):
        return self.html

    def __repr__(self):
        return self.text

    __str__ = __repr__


def show(obj):
    """Display ``obj`` in a notebook; print its text where there is no IPython."""
    try:
        from IPython.display import display
    except Exception:  # noqa: BLE001 -- no IPython (or a broken one): print the text instead
        print(obj)
        return
    display(obj)


def show_table(headers, rows, label=None):
    """Display rows as an HTML table, with a plain-text version for text-only front ends."""
    from ..render.html import table, table_text, wrap
    package_attr("show")(Rich(wrap(table(headers, rows), label=label, scrolls=True), table_text(headers, rows)))


class Base:
    """What every widget here shares: ``.widget``, ``.html``, ``.text`` and rich display.

    A widget that renders on each move keeps what it shows with :meth:`_put`, which is then
    its ``.html``; one that renders on demand overrides ``html`` instead.
    """

    widget = None  # the ipywidgets control; stays None without ipywidgets
    _html = ""

    @property
    def html(self):
        return self._html

    def _put(self, html):
        """Keep ``html`` as what is shown now, and show it in ``self._view`` when there are controls."""
        self._html = html
        if self.widget is not None:
            self._view.value = html

    @property
    def text(self):
        raise NotImplementedError

    def _repr_mimebundle_(self, include=None, exclude=None):
        # HTML and text always go in, so a front end that cannot draw the widget still shows it.
        data = {"text/plain": self.text, "text/html": self.html}
        if self.widget is not None and getattr(self.widget, "comm", None) is not None:
            data[WIDGET_MIME] = {"version_major": 2, "version_minor": 0, "model_id": self.widget.model_id}
        return data

    def __repr__(self):
        return self.text

    __str__ = __repr__


def ROW_LAYOUT():  # noqa: N802 -- a fresh Layout each call: ipywidgets layouts cannot be shared safely
    """A row of controls that stays one row from 800 px up (even beside the file browser): no wrapping."""
    return controls().Layout(flex_flow="row nowrap", align_items="center", width="100%", max_width="760px")


def button(description, tooltip, handler, icon=""):
    """An ipywidgets button that calls ``handler()`` (only called when there are controls)."""
    ipw = controls()
    control = ipw.Button(description=description, tooltip=tooltip, icon=icon,
                         layout=ipw.Layout(width="auto", flex="0 0 auto"))
    control.on_click(lambda _b: handler())
    return control


def check_step(step, n, what="step"):
    """A step number as people read it (1 to ``n``; negative counts from the end) as an index into
    ``n`` items, or a clear error. Step 0 does not exist: steps are numbered from 1."""
    if isinstance(step, bool) or not isinstance(step, int):
        raise TypeError(f"a {what} number must be a whole number, not {type(step).__name__}")
    if not n:
        raise IndexError(f"there are no {what}s")
    if step == 0 or not -n <= step <= n:
        raise IndexError(f"{what} {step} does not exist: {what}s are numbered from 1 to {n} "
                         f"(or -1 for the last)")
    return step - 1 if step > 0 else step % n
