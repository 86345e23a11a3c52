"""Predict, then run: what a learner is asked before a run, and what the run then shows.

A prediction is a few questions, each with a fixed set of answers. After the
run, the real answers come from the run itself (never typed in by hand), so
the explanation a learner reads after a wrong guess is always about the run
they just watched. For part 4's faults, :func:`fault_answers` says how the run
ended, which layer of the team stopped the fault (read from the trace by the
layers' definitions, :mod:`agent_team.layers`), the event that shows it, and
the fault's own explanation (its ``why`` in the faults table).
"""

from . import faults
from .layers import DEFINITIONS, stopped_by
from .supervisor import RUN_STATUSES

__all__ = ["LAYER_WORDS", "FAULT_QUESTIONS", "layer_words", "fault_answers"]

LAYER_WORDS = tuple(DEFINITIONS[layer][0] for layer in faults.LAYERS)  # a layer without a row fails here

FAULT_QUESTIONS = (
    ("How does the run end?", RUN_STATUSES),
    ("Which layer stops the fault?", LAYER_WORDS),
)


def layer_words(layer):
    """The learner's words for a layer of the faults table (``"oracle"`` -> ``"the oracle"``)."""
    if layer not in DEFINITIONS:
        raise KeyError(f"{layer!r} is not a layer; the layers are {', '.join(faults.LAYERS)}")
    return DEFINITIONS[layer][0]


def fault_answers(run, name):
    """``(answers, why)`` for :data:`FAULT_QUESTIONS` after ``run_fault(name)``: the status the run
    reached and the layer its trace shows (:func:`agent_team.layers.stopped_by`), then, in words,
    the event that shows it, the fault's own explanation and the run's stop reason."""
    fault = faults.fault(name)
    layer, seen = stopped_by(run)
    if layer is None:  # a run no layer had to stop: say so rather than name one
        return (run.status, "none"), f"no layer had to stop anything in this run. {run.stop_reason}."
    words = DEFINITIONS[layer][0]
    why = f"the trace shows {words} at work ({seen}). The reason: {fault.why}."
    if run.stop_reason not in seen:
        why += f" The run's stop reason: {run.stop_reason}."
    return (run.status, words), why
