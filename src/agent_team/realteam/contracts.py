"""Role contracts: the typed records the roles hand each other.

    planner  --Plan-->  supervisor  --ExecutorContract (one per step)-->  coder
    coder    --step outcomes-->  reviewer gate  --ReviewReport-->  the user
    every role, when it passes the floor on  --Handoff-->  the next role

Every record becomes a plain JSON-able dict and comes back exactly:
``Record.from_dict(record.to_dict()) == record``, also through
``json.dumps``/``json.loads``. Reading is strict on purpose: a missing,
unknown or mistyped field raises ``ValueError`` naming the field by its path
(``Plan.steps[1].risk``), so a bad record fails where it is read, not three
roles later where it is used. Constructors check the same rules.
"""

import dataclasses
import difflib
import functools
import types
import typing
from dataclasses import dataclass, field

from ..clip import safe_repr
from ..roles import ROLES

__all__ = ["RISKS", "RISK_WORDS", "STEP_STATUSES", "PLAN_RUN_STATUSES", "ACTIONS", "PlanStep", "Plan",
           "ExecutorContract", "StepOutcome", "RetryProposal", "GateDecision", "ReviewReport",
           "Handoff", "final_status"]

RISKS = ("read", "write", "execute")                         # what a step may do to the world
RISK_WORDS = {"write": "writes files", "execute": "runs code"}  # the risks worth a note, in words
STEP_STATUSES = ("success", "failed", "skipped", "cancelled")  # how a step (or a turn) ended
PLAN_RUN_STATUSES = ("success", "failed", "cancelled")             # how a whole planned run ended
ACTIONS = ("retry_step", "user_decision", "resume_plan")      # what a retry proposal recommends


def final_status(execution_status, gate_passed):
    """The run's status after review: the gate can turn a success into a failure, never the reverse."""
    return "failed" if execution_status == "success" and not gate_passed else execution_status


def _type_name(hint):
    return " or ".join(_type_name(a) for a in typing.get_args(hint)) if _is_union(hint) else \
        getattr(hint, "__name__", str(hint)).replace("NoneType", "null")


def _is_union(hint):
    return typing.get_origin(hint) in (typing.Union, types.UnionType)


@functools.cache
def _shape(hint):
    """What an annotation is (``union``, ``list``, ``record`` or ``plain``) and its arguments, worked out
    once per annotation: typing's helpers are Python code, slow under a grader's line tracer."""
    if _is_union(hint):
        return "union", typing.get_args(hint)
    if typing.get_origin(hint) is list:
        return "list", typing.get_args(hint)
    if isinstance(hint, type) and issubclass(hint, _Record):
        return "record", ()
    return "plain", ()


def _convert(where, hint, value, loading):
    """Check ``value`` against the annotation ``hint``; return it (lists copied, dicts read when loading)."""
    kind, args = _shape(hint)
    if kind == "plain":  # the common case first: bool is an int in Python, but never a step number or a round
        if isinstance(value, hint) and not (hint is int and isinstance(value, bool)):
            return value
        raise ValueError(f"{where} must be {_type_name(hint)}, not {type(value).__name__} {safe_repr(value, 60)}")
    if kind == "union":
        options = [a for a in args if a is not type(None)]
        if value is None and len(options) < len(args):
            return None
        if len(options) == 1:  # X | None: let X's own message through, it names the inner field
            return _convert(where, options[0], value, loading)
        for option in options:
            try:
                return _convert(where, option, value, loading)
            except ValueError:
                continue
        raise ValueError(f"{where} must be {_type_name(hint)}, not {type(value).__name__} {safe_repr(value, 60)}")
    if kind == "list":
        if not isinstance(value, (list, tuple)):
            raise ValueError(f"{where} must be a list, not {type(value).__name__}; write [] for none")
        (item,) = args
        return [_convert(f"{where}[{i}]", item, v, loading) for i, v in enumerate(value)]
    if isinstance(value, hint):  # a record
        return value
    if loading and isinstance(value, dict):
        return hint.from_dict(value, where)
    raise ValueError(f"{where} must be a {hint.__name__}{' (a JSON object)' if loading else ''}, "
                     f"not {type(value).__name__}")


class _Record:
    """Shared by every contract: checking on construction, ``to_dict`` and strict ``from_dict``."""

    _choices = {}  # field -> the values it may take

    def __post_init__(self):
        names = [f.name for f in _fields(type(self))]
        checked = self._values({n: getattr(self, n) for n in names}, type(self).__name__, loading=False)
        for name, value in checked.items():
            setattr(self, name, value)

    @classmethod
    def _values(cls, raw, where, loading):
        hints = _hints(cls)
        out = {}
        for f in _fields(cls):
            at = f"{where}.{f.name}"
            if f.name not in raw:
                if _required(f):
                    needed = [x.name for x in dataclasses.fields(cls) if _required(x)]
                    raise ValueError(f"{at} is missing; a {cls.__name__} needs at least {', '.join(needed)}")
                continue  # the dataclass fills in its default
            value = _convert(at, hints[f.name], raw[f.name], loading)
            allowed = cls._choices.get(f.name)
            if allowed and value not in allowed:
                meant = value.strip().lower() if isinstance(value, str) else None
                hint = f"did you mean {meant!r}? " if meant in allowed else ""
                raise ValueError(f"{at} is {safe_repr(value, 40)}; {hint}write one of {', '.join(map(repr, allowed))}")
            out[f.name] = value
        cls._check(out, where)
        return out

    @classmethod
    def _check(cls, values, where):
        """Rules across fields; a subclass overrides it."""

    def to_dict(self):
        """A plain dict of JSON types (str, int, bool, None, list, dict)."""
        return {f.name: _dump(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data, where=None):
        """Read a record back from :meth:`to_dict`'s output; ``ValueError`` names the first bad field."""
        where = where or cls.__name__
        if not isinstance(data, dict):
            raise ValueError(f"{where} must be a dict (a JSON object), not {type(data).__name__}")
        names = [f.name for f in _fields(cls)]
        for key in data:
            if key not in names:
                near = difflib.get_close_matches(str(key), names, n=1)
                hint = f"did you mean {near[0]!r}? " if near else ""
                raise ValueError(f"{where} has no field {key!r}; {hint}its fields are {', '.join(names)}")
        return cls._built(cls._values(data, where, loading=True))

    @classmethod
    def _built(cls, values):
        """The record holding ``values``, which ``_values`` has just checked (``cls(**values)`` would
        check them all again: half the cost of a read, and the gate reads every outcome)."""
        record = cls.__new__(cls)
        for f in _fields(cls):
            if f.name in values:
                setattr(record, f.name, values[f.name])
            else:
                setattr(record, f.name, f.default if f.default is not dataclasses.MISSING else f.default_factory())
        return record


@functools.cache
def _fields(cls):
    """A record's fields, once per class (``dataclasses.fields`` builds the tuple again on every call)."""
    return dataclasses.fields(cls)


@functools.cache
def _hints(cls):
    """A record's field annotations, resolved once per class (resolving them is most of a read's cost)."""
    return typing.get_type_hints(cls)


def _required(f):
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


def _dump(value):
    if isinstance(value, _Record):
        return value.to_dict()
    if isinstance(value, list):
        return [_dump(v) for v in value]
    return value


def _need_text(values, name, where):
    if name in values and not values[name].strip():
        raise ValueError(f"{where}.{name} is empty; write a short id such as 'S1'")


@dataclass
class PlanStep(_Record):
    """One step of a plan: what to do, how risky it is, and how to check it afterwards."""

    id: str
    title: str
    risk: str = "read"
    suggested_checks: list[str] = field(default_factory=list)
    _choices = {"risk": RISKS}

    @classmethod
    def _check(cls, values, where):
        _need_text(values, "id", where)


@dataclass
class Plan(_Record):
    """The planner's output: a one-line summary and ordered steps with unique ids."""

    summary: str
    steps: list[PlanStep] = field(default_factory=list)

    @classmethod
    def _check(cls, values, where):
        seen = set()
        for i, step in enumerate(values.get("steps", [])):
            if step.id in seen:
                raise ValueError(f"{where}.steps[{i}].id {step.id!r} is used twice; give every step its own id")
            seen.add(step.id)

    def step(self, step_id):
        """The step with this id."""
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(f"the plan has no step {step_id!r}; its steps are {', '.join(s.id for s in self.steps)}")

    def contracts(self, goal):
        """One :class:`ExecutorContract` per step, in plan order."""
        return [ExecutorContract.for_step(goal, step) for step in self.steps]

    def to_markdown(self):
        """The plan as the bullets of PLAN.md."""
        return "".join(f"- {s.id} [{s.risk}] {s.title}\n" for s in self.steps)


@dataclass
class ExecutorContract(_Record):
    """What the coder is asked to do on one step, and nothing more."""

    goal: str
    step_id: str
    title: str
    risk: str
    instructions: str
    _choices = {"risk": RISKS}

    @classmethod
    def for_step(cls, goal, step, instructions=None):
        """The contract for one :class:`PlanStep`; the default instructions say to stop after it."""
        if not isinstance(step, PlanStep):
            raise TypeError(f"step must be a PlanStep, not {type(step).__name__}; take it from plan.steps")
        checks = "".join(f"\n- {c}" for c in step.suggested_checks)
        text = instructions if instructions is not None else (
            f"Do step {step.id} only: {step.title}. Stop after it and say what you changed."
            + (f"\nAfterwards these checks should pass:{checks}" if checks else ""))
        return cls(goal=goal, step_id=step.id, title=step.title, risk=step.risk, instructions=text)


@dataclass
class StepOutcome(_Record):
    """How one step ended: the input of the reviewer gate (which reads every outcome through this record)."""

    step: str | int
    status: str
    risk: str = "read"
    detail: str = ""
    suggested_checks: list[str] = field(default_factory=list)
    _choices = {"status": STEP_STATUSES, "risk": RISKS}

    @classmethod
    def _check(cls, values, where):
        if isinstance(values.get("step"), str) and not values["step"].strip():
            raise ValueError(f"{where}.step is empty; give it the id of the plan step it reports on, such as 'S1'")


@dataclass
class RetryProposal(_Record):
    """A read-only recommendation; nothing retries until a person says so.

    ``command`` is the call that would carry it out, as text for a person to
    run (None when there is nothing to run); any command requires approval.
    """

    action: str
    step: str | int | None
    text: str
    command: str | None = None
    requires_approval: bool = False
    _choices = {"action": ACTIONS}

    @classmethod
    def _check(cls, values, where):
        if values.get("command") is not None and not values.get("requires_approval"):
            raise ValueError(f"{where}.requires_approval must be true when there is a command: "
                             "a proposal never runs anything without a person's approval")


@dataclass
class GateDecision(_Record):
    """The reviewer gate's decision; a proposal exists exactly when the gate blocks."""

    passed: bool
    reasons: list[str] = field(default_factory=list)
    risk_notes: list[str] = field(default_factory=list)
    suggested_checks: list[str] = field(default_factory=list)
    proposal: RetryProposal | None = None

    @classmethod
    def _check(cls, values, where):
        passed, proposal = values.get("passed"), values.get("proposal")
        if passed and proposal is not None:
            raise ValueError(f"{where}.proposal must be null when the gate passed; there is nothing to retry")
        if passed is False and proposal is None:
            raise ValueError(f"{where}.proposal is missing; a blocking gate always proposes a next step")


@dataclass
class ReviewReport(_Record):
    """The reviewer's report on a planned run: the gate decision and the final status it implies."""

    execution_status: str
    status: str
    decision: GateDecision
    reason: str = ""
    next_action: str = ""
    _choices = {"execution_status": PLAN_RUN_STATUSES, "status": PLAN_RUN_STATUSES}

    @classmethod
    def _check(cls, values, where):
        if "decision" in values:
            want = final_status(values["execution_status"], values["decision"].passed)
            if values["status"] != want:
                raise ValueError(f"{where}.status is {values['status']!r}, but execution said "
                                 f"{values['execution_status']!r} and the gate "
                                 f"{'passed' if values['decision'].passed else 'blocked'}, so it must be {want!r}")

    def handoff(self):
        """The reviewer's handoff to the user."""
        verdict = "the gate passed" if self.decision.passed else "the gate blocked: " + "; ".join(self.decision.reasons)
        return Handoff(role="reviewer", summary=verdict, status=self.status, next_action=self.next_action,
                       risk_summary="; ".join(self.decision.risk_notes))


@dataclass
class Handoff(_Record):
    """What one role tells the next when it passes the floor on."""

    role: str
    summary: str
    status: str
    next_action: str
    round: int = 0
    risk_summary: str = ""  # what the work handed on may do to the world, e.g. "S2 writes files"
    _choices = {"role": ROLES, "status": STEP_STATUSES}

    @classmethod
    def _check(cls, values, where):
        if values.get("round", 0) < 0:
            raise ValueError(f"{where}.round is {values['round']}; rounds count from 0")
