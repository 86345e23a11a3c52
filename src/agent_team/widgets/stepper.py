"""Step through a supervised run (or a seed-000 protocol log), one trace event at a time.

Buttons and a drop-down of step numbers move one index; every move re-renders
just that step with :func:`agent_team.render.step_html` (or the log's
renderer), so a long run steps as fast as a short one.
"""

from ..render.diagram import SUPERVISOR
from ..render.html import tag, wrap
from ..render.log import is_log, log_of, log_rounds, log_step_html, log_step_text
from ..render.step import step_html, step_text
from ..render.trace import field, trace_of
from .base import ROW_LAYOUT, Base, button, check_step, controls

__all__ = ["RoundStepper"]


class RoundStepper(Base):
    """Step through a supervised run (or a seed-000 protocol log), one trace event at a time.

    ``RoundStepper(result)`` takes what :func:`agent_team.supervisor.supervise`
    returns (or its trace); ``RoundStepper.from_log(log)`` takes a protocol log
    (or run_team's ``(code, log)``). ``.next()``, ``.previous()`` and ``.go(step)``
    move exactly like the buttons and the step list. Steps are numbered from 1, as
    the header, the step list and the counter show them: ``.go(5)`` shows "Step 5",
    and ``.step`` is the number shown (``.index``, the position in the trace, is
    one less). ``.html`` and ``.text`` are what is shown.
    """

    def __init__(self, result, *, start=1):
        if is_log(result):
            self._setup("log", log_of(result), start)
        else:
            self._setup("trace", trace_of(result), start)

    @classmethod
    def from_log(cls, log, *, start=1):
        """A stepper over a seed-000 protocol log: ``[(role, output), ...]`` or ``(code, log)``."""
        self = cls.__new__(cls)
        self._setup("log", log_of(log), start)
        return self

    def _setup(self, kind, items, start):
        self._kind, self._items = kind, items
        self._rounds = log_rounds(items) if kind == "log" else None  # once, not per step
        # FAULT is drawn only for runs that have one: it is explained in part 4, not before.
        faulty = kind == "trace" and any(field(items[i], "state") == "FAULT" for i in range(len(items)))
        self._machine = SUPERVISOR if faulty else SUPERVISOR.without("FAULT")
        self._n = len(items)
        self._index, self._syncing = 0, False
        if controls() is not None:
            self._build()
        if self._n:
            self.go(start)
        else:  # an empty run: nothing to go to, whatever start says
            self._show()

    # -- controls
    def _build(self):
        # Buttons with words and a labelled drop-down of step numbers: every control has a name a
        # screen reader can say (ipywidgets' play buttons and slider handles have none), and the row
        # fits in a 380 px notebook. There is no play control, so no autoplay interval either.
        ipw = controls()
        last = max(self._n, 1)
        self._prev_button = button("previous", "Go to the previous step", self.previous, "step-backward")
        self._next_button = button("next", "Go to the next step", self.next, "step-forward")
        self._list = ipw.Dropdown(options=[(str(i), i) for i in range(1, last + 1)], value=1, description="step",
                                  style={"description_width": "initial"},
                                  layout=ipw.Layout(width="auto", flex="0 0 auto"))
        self._counter = ipw.Label(value="", layout=ipw.Layout(min_width="3.5em", flex="0 0 auto"))
        self._view = ipw.HTML(value="")
        self._list.observe(self._on_value, names="value")
        row = ipw.HBox([self._prev_button, self._list, self._next_button, self._counter], layout=ROW_LAYOUT())
        self.widget = ipw.VBox([row, self._view])
        disabled = self._n < 2
        for control in (self._prev_button, self._next_button, self._list):
            control.disabled = disabled

    def _on_value(self, change):
        if self._syncing or not self._n:
            return
        self.go(int(change["new"]))

    # -- the Python API
    @property
    def index(self):
        """Where the step shown stands in the trace (or log), from 0: ``step - 1``."""
        return self._index

    @property
    def step(self):
        """The number of the step shown, from 1, as its header says ("Step 5 of 9")."""
        return self._index + 1

    @property
    def steps(self):
        """How many steps there are."""
        return self._n

    def __len__(self):
        return self._n

    def next(self):
        """One step forward (stays on the last step). Returns the new step number."""
        return self._move(min(self._index + 1, max(self._n - 1, 0))) if self._n else 0

    def previous(self):
        """One step back (stays on the first step). Returns the new step number."""
        return self._move(max(self._index - 1, 0)) if self._n else 0

    def go(self, step):
        """Show step number ``step``, counted from 1 as the header shows it (``go(5)`` shows "Step 5";
        negative counts from the end: ``go(-1)`` is the last). Returns the step number shown."""
        return self._move(check_step(step, self._n))

    def _move(self, index):
        self._index = index
        self._show()
        return self.step

    def _show(self):
        if not self._n:
            self._put(wrap(tag("p", "There is nothing to step through: the run is empty.")))
        elif self._kind == "log":
            self._put(log_step_html(self._items, self._index, self._rounds))
        else:
            self._put(step_html(self._items, self._index, self._machine))
        if self.widget is not None:
            self._syncing = True
            try:
                self._list.value = self._index + 1
            finally:
                self._syncing = False
            self._prev_button.disabled = self._index == 0
            self._next_button.disabled = self._index >= self._n - 1
            self._counter.value = f"{self._index + 1} / {self._n}" if self._n else "0 / 0"

    @property
    def text(self):
        if not self._n:
            return "There is nothing to step through: the run is empty."
        if self._kind == "log":
            return log_step_text(self._items, self._index, self._rounds)
        return step_text(self._items, self._index)

