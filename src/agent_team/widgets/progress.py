"""How the learner is doing: a grader's report, and every exercise's progress."""

from .. import progress, tally
from ..render.progress import progress_html, progress_text
from ..render.report import report_html, report_text
from .base import Base, Rich, button, controls, package_attr
from .download import DownloadWork

__all__ = ["show_report", "Progress"]


def show_report(report):
    """Display a grader's report (rich HTML in a notebook, plain text elsewhere); being shown, it
    counts toward the learner's progress, as a report a cell displays does."""
    report.record_progress()
    package_attr("show")(Rich(report_html(report), report_text(report)))


class Progress(Base):
    """Every part's exercises as done / not yet, read from the progress file. ``.refresh()`` re-reads it."""

    def __init__(self, file=None):
        self.file = file
        ipw = controls()
        if ipw is not None:
            self._view = ipw.HTML(value="")
            self._refresh_button = button("refresh", "Read the progress file again", self.refresh, "refresh")
            # In an HBox the button keeps its own width; a VBox would stretch it across the output.
            self.widget = ipw.VBox([self._view, ipw.HBox([self._refresh_button]), DownloadWork().widget])
        self.refresh()

    def refresh(self):
        self.parts = progress.status(self.file)
        self.hints, self.predictions = progress.hints(self.file), progress.predictions(self.file)
        # Each part's line and the next unfinished part, counted as the home page counts them.
        self.tallies = [{**row, "line": tally.line(row)} for row in tally.by_part(self.file)]
        self.next_part = tally.next_part(self.tallies)
        self._put(progress_html(*self._shown))
        return self

    @property
    def _shown(self):
        title = next((row["title"] for row in self.tallies if row["part"] == self.next_part), "")
        return self.parts, self.hints, self.predictions, self.tallies, title

    @property
    def text(self):
        return progress_text(*self._shown)
