"""Which layer of the team stopped a fault, read from the run's trace by a stated definition.

Part 4 asks, for every fault, which layer stops it. The answer is not a label typed next to the
fault: each layer has a definition in words (:data:`DEFINITIONS`, the sentences part 4 prints)
and a test of the trace that says whether the run meets it (:func:`evidence`). The layer that
stopped a fault is the first of :data:`LAYERS`, in that order, whose definition the trace meets
(:func:`stopped_by`): a coder refused by the allowlist still ends on its budget, but the
allowlist is what stopped the fault. The faults table keeps its ``layer`` column, and
tests/engine/test_faults.py holds it equal to this derivation for every row.
"""

from .roles import roles_at
from .trace import of_kind, turns

__all__ = ["LAYERS", "DEFINITIONS", "evidence", "layers_seen", "stopped_by"]

LAYERS = ("allowlist", "supervisor", "oracle", "budget")

# Each layer: the learner's words for it, and what the trace must show for it to have stopped a fault.
DEFINITIONS = {
    "allowlist": ("the allowlist",
                  "a turn was refused because one of its patches wrote a path outside the role's allowlist "
                  "(all or nothing: the whole turn is refused)"),
    "supervisor": ("the supervisor's rules",
                   "the supervisor's own rules acted on a turn: it skipped a turn that timed out or raised, "
                   "refused an output that is not one, or a turn a patch check or a hardening rule refused, ignored "
                   "what a role returned beyond its thought, patches and message, sent the planner again "
                   "because the plan was empty, overrode a review on green tests, or escalated"),
    "oracle": ("the oracle",
               "the code landed, but the oracle refused to run it or had to stop it: a case it did not run "
               "or stopped, not merely a wrong answer"),
    "budget": ("only the budget",
               "none of the above: nothing was refused, skipped or stopped, the code ran and was simply "
               "wrong, and the tests stayed red until the rounds ran out"),
}

# The oracle's own words for a case it did not judge on a returned value (oracle.py): it refused
# the source, the module did not load, or the step budget stopped a case and the rest.
_NOT_JUDGED = "not run"
_STOPPED = " was stopped: "


def _skipped_or_refused(e):
    if e.get("failure") in ("timeout", "error"):
        return f"the {e['role']}'s turn in round {e['round']} was skipped: {e['error']}"
    if e.get("failure") == "bad output" or (e.get("failure") == "refused" and e.get("refused_by") != "allowlist"):
        return f"round {e['round']}: {e['error']}"
    return None


def _supervisor(run):
    planners = roles_at("plan")
    for e in turns(run.trace):
        said = _skipped_or_refused(e)
        if said:
            return said
        if e.get("ignored"):
            return (f"the {e['role']}'s output in round {e['round']} carried {', '.join(map(repr, e['ignored']))}, "
                    f"which is not part of an output; the supervisor ignored it")
        if e.get("role") in planners and e.get("round", 0) > 0:
            return f"round {e['round']}: {e['decision']}"
        if e.get("override"):
            return f"round {e['round']}: the {e['role']}'s request_changes on green tests was overridden"
        if e.get("escalated"):
            return f"round {e['round']}: the {e['role']} escalated to a person"
    return None


def _oracle(run):
    for e in of_kind(run.trace, "tests"):
        errors = [case.get("error") or "" for case in e["tests"].get("cases", ())]
        stopped = next((error for error in errors if _STOPPED in error), None)
        if stopped:
            return f"round {e['round']}: the oracle stopped the code: {stopped}"
        if any(error.startswith(_NOT_JUDGED) for error in errors):
            first = e["tests"]["errors"][0] if e["tests"].get("errors") else errors[0]
            return f"round {e['round']}: the oracle refused to run the code: {first}"
    return None


def evidence(run):
    """``{layer: the first event that meets its definition, in words}`` for every layer the trace shows."""
    found = {}
    for e in turns(run.trace):
        if e.get("refused_by") == "allowlist":
            found["allowlist"] = f"the {e['role']}'s turn in round {e['round']} was refused: {e['error']}"
            break
    said = _supervisor(run)
    if said:
        found["supervisor"] = said
    said = _oracle(run)
    if said:
        found["oracle"] = said
    if run.status == "budget" and not found:
        reports = [e["tests"] for e in of_kind(run.trace, "tests")]
        first = next((t["errors"][0] for t in reversed(reports) if t.get("errors")), "")
        found["budget"] = run.stop_reason + (f"; the oracle's first error: {first}" if first else "")
    return found


def layers_seen(run):
    """The layers whose definition the run's trace meets: a subset of :data:`LAYERS`."""
    return set(evidence(run))


def stopped_by(run):
    """``(layer, evidence)``: the first of :data:`LAYERS` whose definition the trace meets, and the
    event that meets it, in words; ``(None, "")`` for a run no layer had to stop (a healthy pass)."""
    found = evidence(run)
    for layer in LAYERS:
        if layer in found:
            return layer, found[layer]
    return None, ""
