"""Widgets (ipywidgets 8): step through a run, compare two runs, quizzes, reports, progress.

This layer only wires controls to the pure renderers in
:mod:`agent_team.render`. Every widget keeps its state in plain Python and
has the same Python API whether or not a widget front end exists, so tests,
notebooks under nbval and plain ``python`` all see the same thing:

* ``.html`` is what the widget displays right now (an HTML string);
* ``str(widget)`` / ``repr(widget)`` is the same content as readable text;
* in Jupyter the widget itself shows; where widgets cannot render, the
  notebook shows the HTML (or the text) instead.

Without ipywidgets installed the classes still work; they just have no
controls (``.widget`` is None).
"""

from .render.compare import Alignment, compare_overview_html, compare_round_html, compare_text
from .render.html import Safe, inline as _inline, tag, wrap
from .render.log import is_log, log_of, log_rounds, log_step_html, log_step_text
from .render.progress import progress_html, progress_text
from .render.report import report_html, report_text
from .render.step import step_html, step_text, trace_of

try:  # the pure engine never needs this; only the controls do
    import ipywidgets as ipw
except Exception:  # noqa: BLE001 -- no ipywidgets (or a broken one): text and HTML only
    ipw = None

__all__ = ["RoundStepper", "CompareRuns", "Quiz", "Progress", "show_report", "show", "Rich"]

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


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
    except Exception:  # noqa: BLE001
        print(obj)
        return
    display(obj)


class _Base:
    """What every widget here shares: ``.widget``, ``.html``, ``.text`` and rich display."""

    widget = None

    @property
    def html(self):
        raise NotImplementedError

    @property
    def text(self):
        raise NotImplementedError

    @property
    def value(self):
        """Same as ``.html``: what is displayed now."""
        return self.html

    def _repr_mimebundle_(self, include=None, exclude=None):
        data = {"text/plain": self.text, "text/html": self.html}
        if self.widget is not None and getattr(self.widget, "comm", None) is not None:
            data[WIDGET_MIME] = {"version_major": 2, "version_minor": 0, "model_id": self.widget.model_id}
        return data

    def __repr__(self):
        return self.text

    __str__ = __repr__


def _button(description, tooltip, handler, icon=""):
    button = ipw.Button(description=description, tooltip=tooltip, icon=icon,
                        layout=ipw.Layout(width="auto"))
    button.on_click(lambda _b: handler())
    return button


def _check_index(i, n, what="step"):
    if isinstance(i, bool) or not isinstance(i, int):
        raise TypeError(f"a {what} number must be a whole number, not {type(i).__name__}")
    if not -n <= i < n:
        raise IndexError(f"{what} {i} does not exist: there are {what}s 0 to {n - 1}"
                         if n else f"there are no {what}s")
    return i % n


# ---------------------------------------------------------------- round stepper

class RoundStepper(_Base):
    """Step through a supervised run (or a seed-000 protocol log), one trace event at a time.

    ``RoundStepper(result)`` takes what :func:`agent_team.supervisor.supervise`
    returns (or its trace); ``RoundStepper.from_log(log)`` takes a protocol log
    (or run_team's ``(code, log)``). ``.next()``, ``.previous()`` and ``.go(i)``
    move exactly like the buttons and the slider; ``.index`` is the step shown
    (0-based); ``.html`` and ``.text`` are what is shown.
    """

    def __init__(self, result, *, start=0, interval=1500):
        if is_log(result):
            self._setup("log", log_of(result), start, interval)
        else:
            self._setup("trace", trace_of(result), start, interval)

    @classmethod
    def from_log(cls, log, *, start=0, interval=1500):
        """A stepper over a seed-000 protocol log: ``[(role, output), ...]`` or ``(code, log)``."""
        self = cls.__new__(cls)
        self._setup("log", log_of(log), start, interval)
        return self

    def _setup(self, kind, items, start, interval):
        self._kind, self._items = kind, items
        self._rounds = log_rounds(items) if kind == "log" else None  # once, not per step
        self._n = len(items)
        self._index, self._html, self._syncing = 0, None, False
        if ipw is not None:
            self._build(interval)
        if self._n:
            self.go(start)
        else:
            self._show()

    # -- controls
    def _build(self, interval):
        last = max(self._n, 1)
        self._prev_button = _button("previous", "Go to the previous step", self.previous, "step-backward")
        self._next_button = _button("next", "Go to the next step", self.next, "step-forward")
        self._play = ipw.Play(value=1, min=1, max=last, step=1, interval=interval,
                              description="play", tooltip="Play the run step by step", show_repeat=False)
        self._slider = ipw.IntSlider(value=1, min=1, max=last, step=1, description="step",
                                     continuous_update=True, readout=False,
                                     layout=ipw.Layout(width="min(60%, 420px)"))
        self._counter = ipw.Label(value="")
        self._view = ipw.HTML(value="")
        self._play.observe(self._on_value, names="value")
        self._slider.observe(self._on_value, names="value")
        controls = ipw.HBox([self._prev_button, self._play, self._slider, self._next_button, self._counter],
                            layout=ipw.Layout(flex_flow="row wrap", align_items="center"))
        self.widget = ipw.VBox([controls, self._view])
        disabled = self._n < 2
        for control in (self._prev_button, self._next_button, self._play, self._slider):
            control.disabled = disabled

    def _on_value(self, change):
        if self._syncing or not self._n:
            return
        self.go(int(change["new"]) - 1)

    # -- the Python API
    @property
    def index(self):
        """The step shown now, from 0."""
        return self._index

    @property
    def steps(self):
        """How many steps there are."""
        return self._n

    def __len__(self):
        return self._n

    def next(self):
        """One step forward (stays on the last step). Returns the new index."""
        return self.go(min(self._index + 1, max(self._n - 1, 0))) if self._n else 0

    def previous(self):
        """One step back (stays on the first step). Returns the new index."""
        return self.go(max(self._index - 1, 0)) if self._n else 0

    def go(self, i):
        """Show step ``i`` (from 0; negative counts from the end). Returns the new index."""
        self._index = _check_index(i, self._n)
        self._show()
        return self._index

    def _show(self):
        if not self._n:
            self._html = wrap(tag("p", "There is nothing to step through: the run is empty."))
        elif self._kind == "log":
            self._html = log_step_html(self._items, self._index, self._rounds)
        else:
            self._html = step_html(self._items, self._index)
        if self.widget is not None:
            self._syncing = True
            try:
                self._slider.value = self._play.value = self._index + 1
            finally:
                self._syncing = False
            self._prev_button.disabled = self._index == 0
            self._next_button.disabled = self._index >= self._n - 1
            self._counter.value = f"{self._index + 1} / {self._n}" if self._n else "0 / 0"
            self._view.value = self._html

    @property
    def html(self):
        return self._html

    @property
    def text(self):
        if not self._n:
            return "There is nothing to step through: the run is empty."
        if self._kind == "log":
            return log_step_text(self._items, self._index, self._rounds)
        return step_text(self._items, self._index)


# ---------------------------------------------------------------- comparing runs

class CompareRuns(_Base):
    """Two runs side by side, aligned by round, the first divergence marked.

    ``.round`` is the round shown in full below the overview (the first
    divergent one to begin with); ``.go(round)``, ``.next()`` and
    ``.previous()`` move like the slider; ``.divergence`` is
    ``{"round", "a", "b"}`` (trace indexes) or None when the runs agree.
    """

    def __init__(self, a, b, labels=("run A", "run B")):
        self.labels = tuple(str(x) for x in labels)
        if len(self.labels) != 2:
            raise ValueError("labels must be two names, one per run")
        self._al = Alignment(a, b)
        self.rounds = list(self._al.rounds) or [0]
        self._overview = compare_overview_html(self._al, self.labels)  # once: it covers every round
        div = self._al.divergence
        self._round = div["round"] if div else self.rounds[0]
        self._syncing = False
        if ipw is not None:
            self._slider = ipw.SelectionSlider(options=[(str(r), r) for r in self.rounds], value=self._round,
                                               description="round", continuous_update=True,
                                               layout=ipw.Layout(width="min(60%, 420px)"))
            self._slider.observe(self._on_value, names="value")
            self._prev_button = _button("previous", "Show the previous round", self.previous, "step-backward")
            self._next_button = _button("next", "Show the next round", self.next, "step-forward")
            self._view = ipw.HTML(value="")
            controls = ipw.HBox([self._prev_button, self._slider, self._next_button],
                                layout=ipw.Layout(flex_flow="row wrap", align_items="center"))
            self.widget = ipw.VBox([controls, self._view])
        self.go(self._round)

    def _on_value(self, change):
        if not self._syncing:
            self.go(change["new"])

    @property
    def divergence(self):
        return self._al.divergence

    @property
    def round(self):  # noqa: A003 -- the course's word
        return self._round

    def go(self, rnd):
        """Show round ``rnd`` in full. Returns it."""
        if rnd not in self.rounds:
            raise IndexError(f"round {rnd!r} is in neither run; the rounds are {self.rounds[0]} to {self.rounds[-1]}")
        self._round = rnd
        self._html = wrap(tag("h3", f"{self.labels[0]} and {self.labels[1]}, side by side"), self._overview,
                          tag("h4", f"Round {rnd} in full"),
                          compare_round_html(self._al, rnd, self.labels), label="two runs compared")
        if self.widget is not None:
            self._syncing = True
            try:
                self._slider.value = rnd
            finally:
                self._syncing = False
            pos = self.rounds.index(rnd)
            self._prev_button.disabled = pos == 0
            self._next_button.disabled = pos == len(self.rounds) - 1
            self._view.value = self._html
        return rnd

    def next(self):
        pos = self.rounds.index(self._round)
        return self.go(self.rounds[min(pos + 1, len(self.rounds) - 1)])

    def previous(self):
        pos = self.rounds.index(self._round)
        return self.go(self.rounds[max(pos - 1, 0)])

    @property
    def html(self):
        return self._html

    @property
    def text(self):
        return compare_text(self._al, None, self.labels)


# ---------------------------------------------------------------- quiz

LETTERS = "abcdefghijklmnopqrstuvwxyz"


class Quiz(_Base):
    """A multiple-choice question: pick a choice, press Check, read why.

    ``answer`` is the right choice (its index or its text); ``explanation``
    says why it is right; ``explanations`` (a list aligned with ``choices``,
    or a dict from choice index or text) says why each wrong choice is wrong,
    and is shown when that choice is checked. Python API: ``.choose(choice)``,
    ``.check()`` (True when right), ``.feedback``, ``.html``, ``.text``.
    """

    def __init__(self, question, choices, answer, explanation, *, explanations=None):
        self.question, self.choices = str(question), [str(c) for c in choices]
        if len(self.choices) < 2:
            raise ValueError("a quiz needs at least two choices")
        self.answer = self._find(answer)
        self.explanation = str(explanation)
        self.explanations = self._explain(explanations)
        self.selected, self.correct, self.feedback = None, None, ""
        self._syncing = False
        if ipw is not None:
            self._question = ipw.HTML(value=str(tag("div", tag("b", _inline(self.question)))))
            self._radio = ipw.RadioButtons(options=[(f"{LETTERS[i]}) {c}", i) for i, c in enumerate(self.choices)],
                                           value=None, layout=ipw.Layout(width="auto"))
            self._radio.observe(self._on_pick, names="value")
            self._check_button = ipw.Button(description="Check", tooltip="Check your answer",
                                            button_style="primary", icon="check")
            self._check_button.on_click(lambda _b: self.check())
            self._feedback = ipw.HTML(value="")
            self.widget = ipw.VBox([self._question, self._radio, self._check_button, self._feedback])
        self._show()

    def _find(self, choice):
        if isinstance(choice, bool):
            raise TypeError("a choice is its index (0, 1, ...) or its text, not a bool")
        if isinstance(choice, int):
            if not 0 <= choice < len(self.choices):
                raise IndexError(f"choice {choice} does not exist; there are {len(self.choices)} choices")
            return choice
        if isinstance(choice, str):
            if choice in self.choices:
                return self.choices.index(choice)
            if len(choice) == 1 and choice.lower() in LETTERS[:len(self.choices)]:
                return LETTERS.index(choice.lower())
        raise ValueError(f"{choice!r} is not one of the choices")

    def _explain(self, explanations):
        out = [None] * len(self.choices)
        if explanations is None:
            return out
        if isinstance(explanations, dict):
            for key, text in explanations.items():
                out[self._find(key)] = None if text is None else str(text)
        else:
            items = list(explanations)
            if len(items) != len(self.choices):
                raise ValueError("explanations must have one entry per choice (None for none)")
            out = [None if t is None else str(t) for t in items]
        return out

    def _on_pick(self, change):
        if not self._syncing and change["new"] is not None:
            self.choose(change["new"])

    def choose(self, choice):
        """Select a choice (its index, text or letter), like clicking it. Clears old feedback."""
        self.selected = self._find(choice)
        self.correct, self.feedback = None, ""
        self._show()
        return self.selected

    def check(self):
        """Check the selected choice, like pressing Check; True when it is right."""
        if self.selected is None:
            self.correct, self.feedback = None, "Pick an answer first."
        elif self.selected == self.answer:
            self.correct = True
            lines = [f"Right: {self.explanation}"]
            others = [(i, t) for i, t in enumerate(self.explanations) if t and i != self.answer]
            if others:
                lines.append("Why not the others:")
                lines += [f"{LETTERS[i]}) {t}" for i, t in others]
            self.feedback = "\n".join(lines)
        else:
            self.correct = False
            why = self.explanations[self.selected] or "That is not it. Read the idea above again."
            self.feedback = f"Not quite: {why} Try another answer."
        self._show()
        return bool(self.correct)

    def _feedback_html(self):
        if not self.feedback:
            return Safe("")
        if self.correct is None:
            return tag("div", self.feedback, class_="at-hint", role="status")
        head, *rest = self.feedback.split("\n")
        cls = "at-decision" if self.correct else "at-refused"
        body = [tag("p", "✓ " if self.correct else "✗ ", _inline(head))]
        if rest:
            body.append(tag("p", rest[0]))
            body.append(tag("ul", *(tag("li", _inline(line)) for line in rest[1:])))
        return tag("div", *body, class_=cls, role="status", aria_live="polite")

    def _show(self):
        if self.widget is not None:
            self._syncing = True
            try:
                self._radio.value = self.selected
            finally:
                self._syncing = False
            self._feedback.value = wrap(self._feedback_html()) if self.feedback else ""

    @property
    def html(self):
        """The question as static HTML: choices, then the answer behind a 'show' toggle (or the feedback)."""
        items = [tag("li", tag("b", f"{LETTERS[i]}) "), _inline(c),
                     " ◀ your choice" if i == self.selected else "") for i, c in enumerate(self.choices)]
        parts = [tag("p", tag("b", _inline(self.question))), tag("ul", *items, style="list-style:none")]
        if self.feedback:
            parts.append(self._feedback_html())
        else:
            why = [tag("li", tag("b", f"{LETTERS[i]}) "), _inline(t))
                   for i, t in enumerate(self.explanations) if t and i != self.answer]
            parts.append(tag("details", tag("summary", "Show the answer"),
                             tag("p", tag("b", f"{LETTERS[self.answer]}) "), _inline(self.choices[self.answer]),
                                 " — ", _inline(self.explanation)),
                             tag("ul", *why) if why else ""))
        return wrap(*parts, label="quiz")

    @property
    def text(self):
        lines = [self.question]
        lines += [f"  {LETTERS[i]}) {c}" for i, c in enumerate(self.choices)]
        if self.feedback:
            lines.append(f"Your answer: {LETTERS[self.selected]})" if self.selected is not None else "")
            lines.append(self.feedback)
        else:
            lines.append("(Run this cell in Jupyter to answer; the answer and why are shown after you check.)")
        return "\n".join(line for line in lines if line)


# ---------------------------------------------------------------- reports and progress

def show_report(report):
    """Display a grader's report: rich HTML in a notebook, plain text elsewhere."""
    show(Rich(report_html(report), report_text(report)))


class Progress(_Base):
    """Every part's exercises as done / not yet, read from the progress file. ``.refresh()`` re-reads it."""

    def __init__(self, file=None):
        self.file = file
        if ipw is not None:
            self._view = ipw.HTML(value="")
            self._refresh_button = _button("refresh", "Read the progress file again", self.refresh, "refresh")
            self.widget = ipw.VBox([self._view, self._refresh_button])
        self.refresh()

    def refresh(self):
        from . import progress
        self.parts = progress.status(self.file)
        self._html = progress_html(self.parts)
        if self.widget is not None:
            self._view.value = self._html
        return self

    @property
    def html(self):
        return self._html

    @property
    def text(self):
        return progress_text(self.parts)
