"""Exercise 6.1: grade a fault of the learner's own, ``{"name", "kwargs", "expect", "evidence"}``.

Requirements (each sentence of the exercise text, and the check that grades it):

=====================================================================  =============================
the exercise says                                                      check
=====================================================================  =============================
a dict with four keys: name, kwargs (for supervise), expect            ``shape``
(``"pass"`` or ``"budget"``), evidence (a function)
keyword arguments for ``supervise(...)`` that inject it                ``runs``
(it really injects something: the run differs from a healthy one)      ``a real fault``
using a policy or hook you write, not one of part 4's faults          ``new``
(nor a wrapper or a retyped copy of one: its run is compared)
the status the team must still reach                                   ``expected status``
the run ... replays identically                                        ``replayable``
evidence ... finds the proof in the trace                              ``evidence found``
and finds nothing in a healthy run (None: a blank str is not "none")  ``evidence is specific``
=====================================================================  =============================

``kwargs`` may hold ``seconds`` (as in exercise 4.1): a policy that hangs, part 5's busy model, is
a fault like any other, graded once each hung turn is cut short. The fault runs twice (the replay)
within the grader's time, so ``seconds`` times the rounds is capped (``MAX_HUNG_SECONDS``).

Measured (tests/grading/test_ex_6_1_grader.py, test_ex_6_1_mutants.py): the worked fault and
other right styles (a hanging coder with a small ``seconds``) pass; each named mistake (wrong
status, evidence everywhere, evidence nowhere, ``""`` for none, a part 4 policy, wrapped or
retyped, no fault at all, a drifting policy, bad shapes) fails its own check.
"""

import copy
import functools

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
SUPERVISE_KEYS = tuple(k for k in KEYWORDS if k not in ("goal", "repo"))
RUN_SECONDS = 2.0        # one run of the learner's fault (it runs twice: the replay)
MAX_HUNG_SECONDS = 1.0   # seconds x rounds: the longest a fault whose policy hangs may wait per run
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
    seconds, rounds = kwargs.get("seconds", 2.0), kwargs.get("max_rounds", 4)
    if "seconds" in kwargs and (type(seconds) not in (int, float) or not seconds > 0):
        return f"'seconds' is {safe_repr(seconds)}; it is each turn's time limit, a number > 0 such as 0.05."
    if "seconds" in kwargs and type(rounds) is int and seconds * max(rounds, 1) > MAX_HUNG_SECONDS:
        return (f"'seconds' is {seconds:g} with max_rounds={rounds}: a hung turn would cost up to "
                f"{seconds * max(rounds, 1):g} s per run, and the grader runs your fault twice; keep "
                f"seconds x max_rounds at most {MAX_HUNG_SECONDS:g} (e.g. 'seconds': 0.05).")
    if type(fault["expect"]) is not str or fault["expect"] not in RUN_STATUSES:
        return (f"'expect' is {kind(fault['expect'])}, {safe_repr(fault['expect'])}; "
                f"write {' or '.join(map(repr, RUN_STATUSES))}.")
    if not callable(fault["evidence"]):
        return "'evidence' must be a function run -> a string (the evidence) or None."
    return None


def _evidence(report, fault, run, which, check="evidence found"):
    call = call_learner(fault["evidence"], run, what="your evidence function")
    if not call.ok:
        report.fail(check, f"On the {which} run: {call.problem}")
        return None
    if call.value is not None and type(call.value) is not str:
        report.fail(check, f"On the {which} run it returned {safe_repr(call.value)}; return a str or None.")
        return None
    if type(call.value) is str and not call.value.strip():
        check = "evidence is specific" if which == "healthy" else "evidence found"
        report.fail(check, f"On the {which} run it returned {call.value!r}, a blank str. When there is no "
                           "evidence, return None (a blank str is neither evidence nor None); when there "
                           "is, return it in words.")
        return _BLANK
    return call.value


_BLANK = object()  # a blank str, already reported


@functools.lru_cache(maxsize=8)  # deterministic runs, the same few budgets at every grading
def _part_4_runs(max_rounds, require_plan):
    """``((fault name, actions of its run), ...)`` for every fault of part 4 at this budget."""
    return tuple((name, actions(supervise(max_rounds=max_rounds, require_plan=require_plan, **f.kwargs).trace))
                 for name, f in FAULTS.items())


def _same_as_part_4(kwargs, run):
    """The name of the part 4 fault whose run this one repeats event for event, or None: a wrapper
    around a part 4 policy, or its code typed in again, is not a fault of the learner's own."""
    key = (kwargs.get("max_rounds", 4), kwargs.get("require_plan", True))
    if type(key[0]) is not int or type(key[1]) is not bool:
        return None
    mine = actions(run.trace)
    return next((name for name, theirs in _part_4_runs(*key) if theirs == mine), None)


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
    report.tried("shape")
    kwargs = dict(fault["kwargs"])
    call = call_learner(lambda: supervise(**copy.copy(kwargs)), seconds=RUN_SECONDS, what="supervise with your fault")
    if not call.ok and call.timed_out:
        report.fail("runs", f"supervise with your fault did not return within {RUN_SECONDS:g} s. A policy "
                            "that hangs is a fine fault (a busy model), but each hung turn waits `seconds` "
                            f"({kwargs.get('seconds', 2.0):g} s here): add \"seconds\": 0.05 to 'kwargs' so "
                            "each hung turn is cut short. (If no policy of yours is meant to hang, look for "
                            "a `while` whose condition never changes.)")
        return report.finish(ran=False)
    if not call.ok:
        report.fail("runs", call.problem + " Check the values in 'kwargs': each must be what supervise expects.")
        return report.finish(ran=False)
    run = call.value
    healthy = supervise(max_rounds=kwargs.get("max_rounds", 4))
    if actions(run.trace) == actions(healthy.trace):  # what a fault can change, as exercise 4.1 compares it
        report.fail("a real fault", "the run went exactly like the healthy team's: same turns, same tests, "
                                    "same ending. Make your policy misbehave in a way the trace shows.")
    if kwargs and all(id(v) in _COURSE_POLICIES or k in ("max_rounds", "require_plan", "seconds")
                      for k, v in kwargs.items()):
        report.fail("new", "every injected piece comes from agent_team.faults; write a policy or hook of your own.")
    copied = _same_as_part_4(kwargs, run)
    if copied:
        report.fail("new", f"your run goes event for event like part 4's fault {copied!r}: a wrapper around "
                           "a part 4 policy, or its code typed in again, is that fault, not a new one. Make "
                           "your policy misbehave in a way of its own.")
    if run.status != fault["expect"]:
        report.fail("expected status", f"you expected {fault['expect']!r}, but the run ended {run.status!r}: "
                                        f"{run.stop_reason}.")
    again = call_learner(lambda: supervise(**copy.copy(kwargs)), seconds=RUN_SECONDS, what="supervise with your fault")
    if not again.ok or again.value.trace != run.trace:
        report.fail("replayable", "a second run gave a different trace. Does your policy use randomness, the "
                                  "clock, or state kept between calls? An eval must give the same answer every time.")
    found = _evidence(report, fault, run, "faulty")
    if found is None and report.check("evidence found").passed is None:
        report.fail("evidence found", "it returned None on the faulty run; search the trace for the event that "
                                      "shows the fault (a refusal, an override, an oracle error...).")
    also = _evidence(report, fault, healthy, "healthy")
    if also is not None and also is not _BLANK:
        report.fail("evidence is specific", f"it also reports evidence on a healthy run ({safe_repr(also, 120)}), "
                                            "so it would pass whatever happened. Look for something only your "
                                            "fault causes.")
    elif also is None:  # any healthy run, also one whose budget allows no coder turn at all
        _no_coder_turn(report, fault)
    return report.finish()


_NO_CODER = "healthy (max_rounds=0: the planner only, no coder turn; return None there too)"


def _no_coder_turn(report, fault):
    also = _evidence(report, fault, supervise(max_rounds=0), _NO_CODER, check="evidence is specific")
    if type(also) is str and also.strip():
        report.fail("evidence is specific", f"On the {_NO_CODER} run it reports evidence ({safe_repr(also, 120)}): "
                                            "what it looks for is also true of a run where nothing went wrong. "
                                            "Look for an event only your fault causes (a refusal, an override...).")
