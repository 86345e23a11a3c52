"""Two runs side by side, aligned by round, with the first divergence marked."""

from ..render.compare import Alignment, compare_overview_html, compare_round_html, compare_text
from ..render.html import tag, wrap
from .base import ROW_LAYOUT, Base, button, controls

__all__ = ["CompareRuns"]


class CompareRuns(Base):
    """Two runs side by side, aligned by round, the first divergence marked.

    ``.round`` is the round shown in full below the overview (the first
    divergent one to begin with); ``.go(round)``, ``.next()`` and
    ``.previous()`` move like the round list; ``.divergence`` is
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
        ipw = controls()
        if ipw is not None:
            # A labelled drop-down, not a slider: its name is read out, and it fits a narrow notebook.
            self._list = ipw.Dropdown(options=[(str(r), r) for r in self.rounds], value=self._round,
                                      description="round", style={"description_width": "initial"},
                                      layout=ipw.Layout(width="auto", flex="0 0 auto"))
            self._list.observe(self._on_value, names="value")
            self._prev_button = button("previous", "Show the previous round", self.previous, "step-backward")
            self._next_button = button("next", "Show the next round", self.next, "step-forward")
            self._view = ipw.HTML(value="")
            row = ipw.HBox([self._prev_button, self._list, self._next_button], layout=ROW_LAYOUT())
            self.widget = ipw.VBox([row, self._view])
        self.go(self._round)

    def _on_value(self, change):
        if not self._syncing:
            self.go(change["new"])

    @property
    def divergence(self):
        return self._al.divergence

    @property
    def round(self):
        return self._round

    def go(self, rnd):
        """Show round ``rnd`` in full. Returns it."""
        if rnd not in self.rounds:
            raise IndexError(f"round {rnd!r} is in neither run; the rounds are {self.rounds[0]} to {self.rounds[-1]}")
        self._round = rnd
        self._put(wrap(tag("h3", f"{self.labels[0]} and {self.labels[1]}, side by side"), self._overview,
                       tag("h4", f"Round {rnd} in full"),
                       compare_round_html(self._al, rnd, self.labels), label="two runs compared"))
        if self.widget is not None:
            self._syncing = True
            try:
                self._list.value = rnd
            finally:
                self._syncing = False
            pos = self.rounds.index(rnd)
            self._prev_button.disabled = pos == 0
            self._next_button.disabled = pos == len(self.rounds) - 1
        return rnd

    def next(self):
        pos = self.rounds.index(self._round)
        return self.go(self.rounds[min(pos + 1, len(self.rounds) - 1)])

    def previous(self):
        pos = self.rounds.index(self._round)
        return self.go(self.rounds[max(pos - 1, 0)])

    @property
    def text(self):
        return compare_text(self._al, None, self.labels)

