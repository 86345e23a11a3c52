"""The advisory reviewer: a model's suggestion beside the deterministic gate, never instead of it.

    outcomes --review_run--> ReviewReport (the gate: decides)  --advise(report, model)--> Advice (suggests)

The model reads the gate's own summary and may recommend one of
:data:`ADVICE_ACTIONS` (``accept`` and ``inspect`` besides the gate's three),
add risk notes and suggested tests. Its advice is kept next to the report and
shown to the person deciding; it never changes the report's status, never
runs a tool and never retries a step. A model that raises, hangs or answers
nonsense gives advice with an ``error`` and no action, and the gate stands.

:func:`compare_reviewers` is the eval the two are judged by: the same cases
through the gate and through the model, and where they disagree.
"""

from dataclasses import dataclass, field

from ..clip import safe_repr
from .contracts import ReviewReport, _Record
from .gate import review_run
from .llm import _decode, call_model

__all__ = ["ADVICE_ACTIONS", "Advice", "advice_prompt", "advise", "gate_action", "compare_reviewers", "agreement"]

ADVICE_ACTIONS = ("accept", "retry_step", "resume_plan", "user_decision", "inspect")

_SYSTEM = ("You are the reviewer's adviser. The reviewer gate below has already decided, and your "
           "answer cannot change that. Recommend what the person should do next.")


@dataclass
class Advice(_Record):
    """A model's recommendation on a review; advisory only."""

    action: str | None
    notes: str = ""
    risk_notes: list[str] = field(default_factory=list)
    suggested_tests: list[str] = field(default_factory=list)
    error: str = ""  # why there is no usable advice (then action is None)
    _choices = {"action": (*ADVICE_ACTIONS, None)}


def advice_prompt(report):
    """What the model is shown: the gate's summary of the run, and the reply format."""
    if not isinstance(report, ReviewReport):
        raise TypeError(f"report must be a ReviewReport (from review_run), not {type(report).__name__}")
    d = report.decision
    lines = [_SYSTEM, "Role: reviewer (advisory)",
             f"Execution said: {report.execution_status}; after the gate: {report.status}",
             "Gate: " + ("passed" if d.passed else "blocked: " + "; ".join(d.reasons))]
    lines += [f"Risk note: {n}" for n in d.risk_notes] + [f"Suggested check: {c}" for c in d.suggested_checks]
    if d.proposal is not None:
        lines.append(f"Gate's proposal: {d.proposal.action} on {d.proposal.step}")
    lines.append('Reply with one JSON object: {"action": one of ' + ", ".join(ADVICE_ACTIONS) +
                 ', "notes": "...", "risk_notes": ["..."], "suggested_tests": ["..."]}')
    return "\n".join(lines)


def _read(reply):
    """Advice from a model's reply, or a ValueError saying what is wrong with it."""
    if not isinstance(reply, str):
        raise ValueError(f"the model returned {type(reply).__name__}, not text")
    try:
        data = _decode(reply)
    except (ValueError, RecursionError):
        raise ValueError("the reply is not a JSON object") from None
    if not isinstance(data, dict):
        raise ValueError(f"the reply is a JSON {type(data).__name__}, not an object")
    known = {"action", "notes", "risk_notes", "suggested_tests"}
    data = {k: v for k, v in data.items() if k in known}  # extra keys from a chatty model are ignored
    if data.get("action") is None:
        raise ValueError("the reply has no action; write one of " + ", ".join(ADVICE_ACTIONS))
    return Advice.from_dict(data, "the reply")


def advise(report, model, *, seconds=30.0):
    """Ask ``model(prompt) -> str`` for advice on ``report``; the report itself is never changed."""
    prompt = advice_prompt(report)
    if not callable(model):
        raise TypeError(f"model must be a function prompt -> str, not {type(model).__name__}")
    reply, failure, error = call_model(model, prompt, seconds)
    if failure is not None:
        return Advice(None, error=error)
    try:
        return _read(reply)
    except ValueError as err:
        return Advice(None, error=str(err))


def gate_action(report):
    """The gate's recommendation in the advice's words: ``accept`` when it passed, else its proposal."""
    return "accept" if report.decision.passed else report.decision.proposal.action


def compare_reviewers(cases, model, *, seconds=30.0):
    """The eval: each ``(name, execution_status, outcomes)`` through the gate and the model.

    Returns one row per case: ``{"case", "gate", "model", "agree", "status", "error"}``,
    where ``status`` is the final status, decided by the gate alone.
    """
    rows = []
    for case in cases:
        if not (isinstance(case, (list, tuple)) and len(case) == 3):
            raise ValueError(f"each case must be (name, execution_status, outcomes), not {safe_repr(case, 60)}")
        name, execution_status, outcomes = case
        report = review_run(execution_status, outcomes)
        advice, gate = advise(report, model, seconds=seconds), gate_action(report)
        rows.append({"case": name, "gate": gate, "model": advice.action, "agree": advice.action == gate,
                     "status": report.status, "error": advice.error})
    return rows


def agreement(rows):
    """The share of cases where the model recommended what the gate did, as a fraction."""
    return sum(r["agree"] for r in rows) / len(rows) if rows else 0.0

