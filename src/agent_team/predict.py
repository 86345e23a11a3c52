"""Predict, then run: what a learner is asked before a run, and what the run then shows.

A prediction is a few questions, each with a fixed set of answers. After the
run, the real answers come from the run itself (never typed in by hand), so
the explanation a learner reads after a wrong guess is always about the run
they just watched. For part 4's faults, :func:`fault_answers` reads a run's
trace and says how it ended and which layer of the team caught the fault.
"""

__all__ = ["LAYERS", "FAULT_QUESTIONS", "caught_by", "fault_answers"]

# The layers of the team, in the order a turn meets them. The names are the course's words.
LAYERS = ("the allowlist", "the supervisor's rules", "the oracle", "only the budget")

FAULT_QUESTIONS = (
    ("How does the run end?", ("pass", "budget")),
    ("Which layer stops the fault?", LAYERS),
)

_WHY = {
    "the allowlist": "a patch to a path outside the role's allowlist was refused, whole turn and all",
    "the supervisor's rules": "the supervisor's own rules handled it: a refused output, a skipped turn, "
                              "a re-plan after the plan was emptied, or an overridden review on green tests",
    "the oracle": "the code landed, but the oracle refused to run it or stopped it, so no case passed",
    "only the budget": "every turn was legal and nothing was refused; the tests simply stayed red "
                       "until the rounds ran out",
}

# Words the oracle uses when it refuses to run code or stops a case (oracle.py, sandbox/).
_SANDBOX = ("is not allowed", "was stopped")


def _events(run):
    return run.trace if hasattr(run, "trace") else run["trace"]


def caught_by(run):
    """Which layer caught a fault in this run, read from its trace: one of :data:`LAYERS`."""
    events = _events(run)
    turns = [e for e in events if e.get("type") == "turn"]
    if any(not e.get("applied") and "may not write" in str(e.get("error") or "") for e in turns):
        return "the allowlist"
    if (any(e.get("type") == "tamper" and e.get("changes") for e in events)
            or any(e.get("override") or e.get("error") for e in turns)):
        return "the supervisor's rules"
    errors = [err for e in events if e.get("type") == "tests" for err in e["tests"]["errors"]]
    if any(word in str(err) for err in errors for word in _SANDBOX):
        return "the oracle"
    return "only the budget"


def fault_answers(run):
    """``(answers, why)`` for :data:`FAULT_QUESTIONS`: the run's status and layer, and why in words."""
    layer = caught_by(run)
    status = run.status if hasattr(run, "status") else run["status"]
    return (status, layer), f"{layer}: {_WHY[layer]}. The run's stop reason: {_stop_reason(run)}."


def _stop_reason(run):
    return run.stop_reason if hasattr(run, "stop_reason") else run.get("stop_reason", "")
