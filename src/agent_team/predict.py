"""Predict, then run: what a learner is asked before a run, and what the run then shows.

A prediction is a few questions, each with a fixed set of answers. After the
run, the real answers come from the run itself (never typed in by hand), so
the explanation a learner reads after a wrong guess is always about the run
they just watched. For part 4's faults, :func:`fault_answers` says how the run
ended and which layer of the team stopped the fault (the faults table's row,
which a test checks against the trace).
"""

from . import faults

__all__ = ["LAYERS", "FAULT_QUESTIONS", "layer_words", "fault_answers"]

# The layers of the team as the learner reads them, one per layer of the faults table
# (faults.LAYERS), in the order a turn meets them.
_WORDS = {"allowlist": "the allowlist", "supervisor": "the supervisor's rules", "oracle": "the oracle",
          "budget": "only the budget"}
LAYERS = tuple(_WORDS[layer] for layer in faults.LAYERS)

FAULT_QUESTIONS = (
    ("How does the run end?", ("pass", "budget")),
    ("Which layer stops the fault?", LAYERS),
)

_WHY = {
    "the allowlist": "a patch to a path outside the role's allowlist was refused, whole turn and all",
    "the supervisor's rules": "the supervisor's own rules handled it: a refused output, a skipped turn, "
                              "a re-plan after the plan was emptied, or an overridden review on green tests",
    "the oracle": "the code landed, but the oracle, which tests the shared repo itself, refused it, stopped "
                  "it or failed it, whatever a role claimed",
    "only the budget": "every turn was legal and nothing was refused or claimed; the code was simply wrong, "
                       "and the tests stayed red until the rounds ran out",
}


def layer_words(layer):
    """The learner's words for a layer of the faults table (``"oracle"`` -> ``"the oracle"``)."""
    if layer not in _WORDS:
        raise KeyError(f"{layer!r} is not a layer; the layers are {', '.join(faults.LAYERS)}")
    return _WORDS[layer]


def fault_answers(run, name):
    """``(answers, why)`` for :data:`FAULT_QUESTIONS` after a run of fault ``name``: the status the run
    reached, the layer the faults table names (a test checks the trace shows that layer at work),
    and why in words."""
    layer = layer_words(faults.FAULTS[name].layer)
    status = run.status if hasattr(run, "status") else run["status"]
    return (status, layer), f"{layer}: {_WHY[layer]}. The run's stop reason: {_stop_reason(run)}."


def _stop_reason(run):
    return run.stop_reason if hasattr(run, "stop_reason") else run.get("stop_reason", "")
