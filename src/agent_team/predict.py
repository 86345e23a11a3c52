"""Predict, then run: what a learner is asked before a run, and what the run then shows.

A prediction is a few questions, each with a fixed set of answers. After the
run, the real answers come from the run itself (never typed in by hand), so
the explanation a learner reads after a wrong guess is always about the run
they just watched. For part 4's faults, :func:`fault_answers` says how the run
ended and which layer of the team stopped the fault (the faults table's row,
which a test checks against the trace).
"""

from . import faults
from .supervisor import RUN_STATUSES

__all__ = ["LAYER_WORDS", "FAULT_QUESTIONS", "layer_words", "fault_answers"]

# Each layer of the faults table (faults.LAYERS) as the learner reads it, and why a fault it
# stops ends the way it does.
_LAYERS = {
    "allowlist": ("the allowlist",
                  "a patch to a path outside the role's allowlist was refused, whole turn and all"),
    "supervisor": ("the supervisor's rules",
                   "the supervisor's own rules handled it: a refused output, a skipped turn, "
                   "a re-plan after the plan was emptied, or an overridden review on green tests"),
    "oracle": ("the oracle",
               "the code landed, but the oracle, which tests the shared repo itself, refused it, stopped "
               "it or failed it, whatever a role claimed"),
    "budget": ("only the budget",
               "every turn was legal and nothing was refused or claimed; the code was simply wrong, "
               "and the tests stayed red until the rounds ran out"),
}
LAYER_WORDS = tuple(_LAYERS[layer][0] for layer in faults.LAYERS)  # a layer without a row fails here

FAULT_QUESTIONS = (
    ("How does the run end?", RUN_STATUSES),
    ("Which layer stops the fault?", LAYER_WORDS),
)


def layer_words(layer):
    """The learner's words for a layer of the faults table (``"oracle"`` -> ``"the oracle"``)."""
    if layer not in _LAYERS:
        raise KeyError(f"{layer!r} is not a layer; the layers are {', '.join(faults.LAYERS)}")
    return _LAYERS[layer][0]


def fault_answers(run, name):
    """``(answers, why)`` for :data:`FAULT_QUESTIONS` after ``run_fault(name)``: the status the run
    reached, the layer the faults table names (a test checks the trace shows that layer at work),
    and why in words."""
    words, why = _LAYERS[faults.FAULTS[name].layer]
    return (run.status, words), f"{words}: {why}. The run's stop reason: {run.stop_reason}."
