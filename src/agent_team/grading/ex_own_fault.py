"""Exercise 6.1: grade a fault of the learner's own, ``{"name", "kwargs", "expect", "evidence"}``.

Requirements (each sentence of the exercise text, and the check that grades it):

=====================================================================  =============================
the exercise says                                                      check
=====================================================================  =============================
a dict with four keys: name, kwargs (for supervise), expect            ``shape``
(``"pass"`` or ``"budget"``), evidence (a function)
keyword arguments for ``supervise(...)`` that inject it                ``runs``
(it really injects something: the run differs from a healthy one)      ``a real fault``
using a policy or hook you write, not one of part 4's ten              ``new``
the status the team must still reach                                   ``expected status``
the run ... replays identically                                        ``replayable``
evidence ... finds the proof in the trace                              ``evidence found``
and finds nothing in a healthy run                                     ``evidence is specific``
=====================================================================  =============================

Measured (tests/grading/test_ex_6_1_grader.py): the worked fault passes; each named
mistake (wrong status, evidence everywhere, evidence nowhere, a part 4 policy,
no fault at all, a drifting policy, bad shapes) fails its own check.
"""

import copy

from .. import faults
from ..clip import safe_repr
from ..faults import FAULTS
from ..supervisor import RUN_STATUSES, supervise
from .core import Report, call_learner, grading_run
from .ex_fault_eval import KEYWORDS, actions
from .shapes import kind

__all__ = ["grade_my_fault", "FAULT_KEYS"]

FAULT_KEYS = ("name", "kwargs", "expect", "evidence")
# supervise()'s keywords (its named parameters and one per role), less those the grader sets itself.
SUPERVISE_KEYS = tuple(k for k in KEYWORDS if k not in ("goal", "repo", "seconds"))
_COURSE_POLICIES = {id(v) for f in FAULTS.values() for v in f.kwargs.values()} | {
    id(v) for v in vars(faults).values() if callable(v)}


REQUIREMENTS = (
    ("shape", "a dict with name, kwargs (for supervise), expect ('pass' or 'budget') and evidence"),
    ("runs", "supervise(**kwargs) runs to the end with your fault injected"),
    ("a real fault", "the run differs from a healthy run with the same budget"),
    ("new", "it is not one of part 4's faults (use a policy or hook of your own)"),
    ("expected status", "the run ends with the status you expected"),
    ("replayable", "running it again gives the same trace, event for event"),
    ("evidence found", "your evidence function finds the fault in the faulty run"),
    ("evidence is specific", "and finds nothing in a healthy run"),
)


def _shape(fault):
    """What is wrong with MY_FAULT's shape, in words, or None. Exact types first (see shapes.py)."""
    if type(fault) is not dict or not all(type(k) is str for k in fault) or set(fault) != set(FAULT_KEYS):
        return f"MY_FAULT is {safe_repr(fault)}; make it a dict with exactly the keys {', '.join(FAULT_KEYS)}."
    if type(fault["name"]) is not str or not fault["name"].strip():
        return "'name' must be a short description, like 'coder writes an empty file'."
    kwargs = fault["kwargs"]
    if type(kwargs) is not dict or not kwargs or not all(type(k) is str for k in kwargs):
        return "'kwargs' must be a non-empty dict of keyword arguments for supervise(...), with plain str keys."
    unknown = [k for k in kwargs if k not in SUPERVISE_KEYS]
    if unknown:
        return f"'kwargs' has {', '.join(map(repr, unknown))}; supervise takes {', '.join(SUPERVISE_KEYS)}."
    if type(fault["expect"]) is not str or fault["expect"] not in RUN_STATUSES:
        return (f"'expect' is {kind(fault['expect'])}, {safe_repr(fault['expect'])}; "
                f"write {' or '.join(map(repr, RUN_STATUSES))}.")
    if not callable(fault["evidence"]):
        return "'evidence' must be a function run -> a string (the evidence) or None."
    return None


def _evidence(report, fault, run, which):
    call = call_learner(fault["evidence"], run, what="your evidence function")
    if not call.ok:
        report.fail("evidence found", f"On the {which} run: {call.problem}")
        return None
    if call.value is not None and type(call.value) is not str:
        report.fail("evidence found", f"On the {which} run it returned {safe_repr(call.value)}; return a str or None.")
        return None
    return call.value or None


@grading_run(remember_hangs=False)  # a looping policy is part of what a fault may do
def grade_my_fault(fault):
    """Grade exercise 6.1: a fault of the learner's own, with its expected status and trace evidence."""
    report = Report(exercise="6.1")
    report.declare_all(REQUIREMENTS)
    if fault is None:
        report.outcome_override = "not implemented"
        return report.finish(ran=False)
    problem = _shape(fault)
    if problem:
        report.fail("shape", problem)
        return report.finish(ran=False)
    kwargs = dict(fault["kwargs"])
    call = call_learner(lambda: supervise(**copy.copy(kwargs)), seconds=5.0, what="supervise with your fault")
    if not call.ok:
        report.fail("runs", call.problem + " Check the values in 'kwargs': each must be what supervise expects.")
        return report.finish(ran=False)
    run = call.value
    healthy = supervise(max_rounds=kwargs.get("max_rounds", 4))
    if actions(run.trace) == actions(healthy.trace):  # what a fault can change, as exercise 4.1 compares it
        report.fail("a real fault", "the run went exactly like the healthy team's: same turns, same tests, "
                                    "same ending. Make your policy misbehave in a way the trace shows.")
    if kwargs and all(id(v) in _COURSE_POLICIES or k in ("max_rounds", "require_plan") for k, v in kwargs.items()):
        report.fail("new", "every injected piece comes from agent_team.faults; write a policy or hook of your own.")
    if run.status != fault["expect"]:
        report.fail("expected status", f"you expected {fault['expect']!r}, but the run ended {run.status!r}: "
                                        f"{run.stop_reason}.")
    again = call_learner(lambda: supervise(**copy.copy(kwargs)), seconds=5.0, what="supervise with your fault")
    if not again.ok or again.value.trace != run.trace:
        report.fail("replayable", "a second run gave a different trace. Does your policy use randomness, the "
                                  "clock, or state kept between calls? An eval must give the same answer every time.")
    found = _evidence(report, fault, run, "faulty")
    if found is None and report.check("evidence found").passed is None:
        report.fail("evidence found", "it returned None on the faulty run; search the trace for the event that "
                                      "shows the fault (a refusal, an override, an oracle error...).")
    if _evidence(report, fault, healthy, "healthy") is not None:
        report.fail("evidence is specific", "it also reports evidence on a healthy run, so it would pass whatever "
                                            "happened. Look for something only your fault causes.")
    return report.finish()
