"""The trace: the supervisor's ordered list of events, and the one definition of an event.

Every event is a plain dict (so notebooks, graders and widgets read it as ``e["role"]`` and it
dumps to JSON) with a ``type``, one of :data:`KINDS`, and the fields that kind lists in
:data:`FIELDS`. :func:`event` is the only way the engine makes one: it refuses a field the
table does not list and a missing required one, so an event is complete when it is logged and
nothing writes into it afterwards. Readers (:func:`turns`, :func:`last`, :func:`of_kind`...)
are how code finds events; they skip anything that is not an event, because a trace can reach
them from a learner's hands.
"""

__all__ = ["KINDS", "FIELDS", "event", "kind_of", "of_kind", "turns", "last", "oracle_reports"]

# What each field means, in the order an event lists them. A new field is one row here,
# then one line in the kind that records it (and, to show it, a section in render/event.py).
FIELDS = {
    "type": "the event's kind: one of KINDS",
    "round": "the round it belongs to; 0 before the first coder turn",
    "state": "the state of the machine (supervisor.py) it happened in",
    "goal": "what the team is asked to do (start)",
    "max_rounds": "the budget in coder turns (start)",
    "role": "who took the turn",
    "view": "what the role was shown (a copy, views.py)",
    "thought": "the role's private note",
    "message": "what the role said",
    "patches": "what the role proposed to write: [{path, content}]",
    "applied": "True when its patches landed (all or none)",
    "error": "why the turn (or fault) did not land, or a problem with it, in words; None if none",
    "failure": "why it did not land, as data: one of turn.FAILURES; None when it landed",
    "changes": "every path whose text changed: [{path, before, after}]",
    "seconds": "the time limit the role ran out of (failure 'timeout')",
    "attempts": "the model slot's record of each model call",
    "ignored": "keys of the role's output that are not part of an output (a test report of its own, say): "
               "the supervisor read none of them",
    "refused_by": "what refused the patches (failure 'refused'): one of repo.PATCH_CHECKS, or 'hardening'",
    "rule": "the name of the hardening rule that refused them (refused_by 'hardening')",
    "verdict": "the reviewer's {verdict, notes} left this turn, or None",
    "override": "True: the reviewer's request_changes was overridden because the tests are green",
    "escalated": "True: the reviewer asked for a person to step in",
    "tests": "the oracle's report: {ok, passed, failed, errors, cases}",
    "status": "how the run ended: one of supervisor.RUN_STATUSES",
    "stop_reason": "why it ended, in words",
    "decision": "what the supervisor does next, and why, in words",
}

# Each kind: (its required fields, its optional ones). Optional fields appear only when they
# say something (``override`` and ``escalated`` only when True).
KINDS = {
    "start": (("round", "state", "goal", "max_rounds", "decision"), ()),
    "turn": (("round", "state", "role", "view", "thought", "message", "patches", "applied", "error", "failure",
              "changes", "decision"),
             ("seconds", "attempts", "ignored", "refused_by", "rule", "verdict", "override", "escalated")),
    "tests": (("round", "state", "tests", "decision"), ()),
    "tamper": (("round", "state", "error", "changes"), ("failure", "decision")),
    "stop": (("round", "state", "status", "stop_reason", "decision"), ()),
}


def event(kind, **fields):
    """A complete event of ``kind``, its fields in the table's order; a wrong field is a clear error."""
    if kind not in KINDS:
        raise ValueError(f"no event kind {kind!r}; the kinds are {', '.join(KINDS)}")
    required, optional = KINDS[kind]
    missing = [name for name in required if name not in fields]
    unknown = [name for name in fields if name not in required and name not in optional]
    if missing or unknown:
        raise ValueError(f"a {kind} event " + "; ".join(
            ([f"needs {', '.join(missing)}"] if missing else []) +
            ([f"has no field {', '.join(unknown)} (add it to trace.FIELDS and KINDS)"] if unknown else [])))
    return {"type": kind, **{name: fields[name] for name in FIELDS if name in fields}}


def kind_of(item):
    """The kind of a trace item (``"turn"``...), or None when it is not an event at all."""
    return item.get("type") if isinstance(item, dict) else None


def of_kind(trace, kind):
    """Every event of ``kind`` in the trace, oldest first."""
    if kind not in KINDS:
        raise ValueError(f"no event kind {kind!r}; the kinds are {', '.join(KINDS)}")
    return [e for e in trace if kind_of(e) == kind]


def turns(trace, role=None):
    """Every turn in the trace, oldest first; only ``role``'s when one is given."""
    return [e for e in of_kind(trace, "turn") if role is None or e.get("role") == role]


def last(trace, kind, role=None):
    """The latest event of ``kind`` (of ``role``'s turns, if given), or None if there is none."""
    if role is not None and kind != "turn":
        raise ValueError(f"only turns have a role; call last(trace, {kind!r}) without one")
    found = turns(trace, role) if kind == "turn" else of_kind(trace, kind)
    return found[-1] if found else None


def oracle_reports(trace):
    """The oracle's report of every test run in the trace, oldest first."""
    return [e.get("tests") or {} for e in of_kind(trace, "tests")]
