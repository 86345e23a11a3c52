"""Widgets (ipywidgets 8): step through a run, compare runs, quizzes, hints, predictions, reports, progress.

This package only wires controls to the pure renderers in
:mod:`agent_team.render`. Every widget keeps its state in plain Python and
has the same Python API whether or not a widget front end exists, so tests,
notebooks under nbval and plain ``python`` all see the same thing:

* ``.html`` is what the widget displays right now (an HTML string);
* ``str(widget)`` / ``repr(widget)`` is the same content as readable text;
* in Jupyter the widget itself shows; where widgets cannot render, the
  notebook shows the HTML (or the text) instead.

Without ipywidgets installed the classes still work; they just have no
controls (``.widget`` is None). This is the only package that imports
ipywidgets (in :mod:`.base`); ``ipw`` and ``show`` below are read from here
at call time, so assigning ``agent_team.widgets.ipw = None`` switches the
controls off everywhere.
"""

from .base import WIDGET_MIME, Rich, ipw, show, show_table  # noqa: F401 -- ipw is the switch described above
from .compare import CompareRuns
from .connect import Connect
from .hints import Hints
from .predict import Predict
from .progress import Progress, show_report
from .quiz import Quiz
from .stepper import RoundStepper

__all__ = ["RoundStepper", "CompareRuns", "Connect", "Quiz", "Progress", "Hints", "Predict", "show_report", "show",
           "show_table", "Rich"]
