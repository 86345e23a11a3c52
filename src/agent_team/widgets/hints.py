"""Graduated hints for one exercise: revealed one at a time, each reveal kept in the progress file."""

from .. import progress
from ..hints import hints_for
from ..render.hints import hints_html, hints_text
from .base import Base, button, controls

__all__ = ["Hints"]


class Hints(Base):
    """The hints of one exercise (from :data:`agent_team.hints.HINTS`), revealed one at a time.

    ``Hints("3.1")`` starts with as many hints shown as the progress file says
    this learner has already revealed (none on a first visit). ``.reveal()``
    shows the next one, like the button, and records it; ``.revealed`` is how
    many are shown. ``file`` is passed to :mod:`agent_team.progress`.
    """

    def __init__(self, exercise_id, *, file=None):
        self.exercise_id = str(exercise_id)
        self.hints = hints_for(self.exercise_id)
        self.file = file
        self.revealed = min(progress.hints(file).get(self.exercise_id, 0), len(self.hints))
        ipw = controls()
        if ipw is not None:
            self._view = ipw.HTML(value="")
            self._button = button("show the next hint", "Reveal one more hint for this exercise",
                                  self.reveal, "lightbulb-o")
            self.widget = ipw.VBox([self._view, ipw.HBox([self._button])])
        self._show()

    def reveal(self):
        """Show the next hint (if any is left) and record it. Returns how many are shown."""
        recorded = min(progress.hints(self.file).get(self.exercise_id, 0), len(self.hints))
        if recorded > self.revealed:
            # A grader's report shown since this cell ran showed (and counted) the hint this button
            # offers: show it here too, as the button said, and count nothing more.
            self.revealed = recorded
        elif self.revealed < len(self.hints):
            self.revealed += 1
            progress.record_hint(self.exercise_id, self.revealed, self.file)
        self._show()
        return self.revealed

    def _show(self):
        if self.widget is not None:
            self._view.value = self.html
            left = len(self.hints) - self.revealed
            self._button.disabled = not left
            self._button.description = (f"show hint {self.revealed + 1} of {len(self.hints)}" if left
                                         else "no more hints")

    @property
    def html(self):
        return hints_html(self.exercise_id, self.hints, self.revealed)

    @property
    def text(self):
        return hints_text(self.exercise_id, self.hints, self.revealed)
