"""Renderers: pure functions from traces, logs and reports to HTML (and plain text).

Standard library only, no ipywidgets: :mod:`agent_team.widgets` wires controls
to these. Every string a learner or a policy can influence is escaped.
"""

from .compare import Alignment, compare_html, compare_text, first_divergence
from .diagram import PROTOCOL, SUPERVISOR, diagram_text, state_svg
from .event import event_html, event_summary, event_text
from .html import esc
from .log import log_step_html, log_step_text
from .progress import progress_html, progress_text
from .report import divergence_html, report_html, report_text
from .step import step_html, step_text
from .tests_table import tests_html

__all__ = [
    "Alignment", "compare_html", "compare_text", "first_divergence",
    "PROTOCOL", "SUPERVISOR", "diagram_text", "state_svg", "esc",
    "log_step_html", "log_step_text", "progress_html", "progress_text",
    "divergence_html", "report_html", "report_text",
    "event_html", "event_summary", "event_text", "step_html", "step_text", "tests_html",
]
