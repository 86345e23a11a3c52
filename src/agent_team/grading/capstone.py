"""Graders for part 6, "your own team": a fault of the learner's own (6.1) and a run judged by the gate (6.2).

6.1: the learner describes a fault as data, ``{"name", "kwargs", "expect", "evidence"}``:
keyword arguments for ``supervise``, the status the team must still reach, and
``evidence(run) -> str | None``, which points at the trace event that shows the
fault being caught. The grader runs it, checks that it really misbehaves, is not
one of part 4's ten, ends as promised, replays identically, and that the
evidence is found in the faulty run and not in a healthy one.

6.2: the learner writes ``run_outcomes(run)``, the run's work as four step
outcomes (plan, code, tests, review); it is compared step by step with
:func:`agent_team.gated.run_outcomes` over healthy runs and every fault of part 4.
"""

import copy
import inspect

from .. import faults
from ..faults import FAULTS, run_fault
from ..gated import STEPS, gated
from ..gated import run_outcomes as reference_outcomes
from ..supervisor import supervise
from .core import Report, call_learner, show

__all__ = ["check_my_fault", "check_run_outcomes", "FAULT_KEYS"]

FAULT_KEYS = ("name", "kwargs", "expect", "evidence")
SUPERVISE_KEYS = tuple(p for p in inspect.signature(supervise).parameters if p not in ("goal", "repo", "seconds"))
_COURSE_POLICIES = {id(v) for f in FAULTS.values() for v in f.kwargs.values()} | {
    id(v) for v in vars(faults).values() if callable(v)}


def _what_happened(run):
    """A run without its words: states, roles, whether turns landed, test counts, and the ending."""
    return [(e.get("state"), e.get("role"), e.get("applied"), bool(e.get("error")),
             (e.get("tests") or {}).get("passed")) for e in run.trace] + [(run.status, run.rounds)]


def _shape(fault):
    if not isinstance(fault, dict) or set(fault) != set(FAULT_KEYS):
        return f"MY_FAULT is {show(fault)}; make it a dict with exactly the keys {', '.join(FAULT_KEYS)}."
    if not isinstance(fault["name"], str) or not fault["name"].strip():
        return "'name' must be a short description, like 'coder writes an empty file'."
    kwargs = fault["kwargs"]
    if not isinstance(kwargs, dict) or not kwargs:
        return "'kwargs' must be a non-empty dict of keyword arguments for supervise(...)."
    unknown = [k for k in kwargs if k not in SUPERVISE_KEYS]
    if unknown:
        return f"'kwargs' has {', '.join(map(repr, unknown))}; supervise takes {', '.join(SUPERVISE_KEYS)}."
    if fault["expect"] not in ("pass", "budget"):
        return f"'expect' is {show(fault['expect'])}; write 'pass' or 'budget'."
    if not callable(fault["evidence"]):
        return "'evidence' must be a function run -> a string (the evidence) or None."
    return None


def _evidence(report, fault, run, which):
    call = call_learner(fault["evidence"], run, what="your evidence function")
    if not call.ok:
        report.fail("evidence found", f"On the {which} run: {call.problem}")
        return None
    if call.value is not None and not isinstance(call.value, str):
        report.fail("evidence found", f"On the {which} run it returned {show(call.value)}; return a str or None.")
        return None
    return call.value or None


def check_my_fault(fault):
    """Grade exercise 6.1: a fault of the learner's own, with its expected status and trace evidence."""
    report = Report("Exercise 6.1: a fault of your own", exercise="6.1",
                    hint="Start from part 4: replace one role with a function that misbehaves in a way none of "
                         "the ten faults does (an empty file, a plan that says 'done', a reviewer that edits "
                         "the plan...). Run supervise(**kwargs) yourself, look at the trace, then write evidence "
                         "as a search for the one event that shows the fault being caught.")
    for name, requirement in (
            ("shape", "a dict with name, kwargs (for supervise), expect ('pass' or 'budget') and evidence"),
            ("runs", "supervise(**kwargs) runs to the end with your fault injected"),
            ("a real fault", "the run differs from a healthy run with the same budget"),
            ("new", "it is not one of part 4's faults (use a policy or hook of your own)"),
            ("expected status", "the run ends with the status you expected"),
            ("replayable", "running it again gives the same trace, event for event"),
            ("evidence found", "your evidence function finds the fault in the faulty run"),
            ("evidence is specific", "and finds nothing in a healthy run")):
        report.check(name, requirement)
    if fault is None:
        report.status_override = "not implemented"
        return report.finish(ran=False)
    problem = _shape(fault)
    if problem:
        report.fail("shape", problem)
        return report.finish(ran=False)
    kwargs = dict(fault["kwargs"])
    call = call_learner(lambda: supervise(**copy.copy(kwargs)), seconds=30.0, what="supervise with your fault")
    if not call.ok:
        report.fail("runs", call.problem + " Check the values in 'kwargs': each must be what supervise expects.")
        return report.finish(ran=False)
    run = call.value
    healthy = supervise(max_rounds=kwargs.get("max_rounds", 4))
    if _what_happened(run) == _what_happened(healthy):
        report.fail("a real fault", "the run went exactly like the healthy team's: same turns, same tests, "
                                    "same ending. Make your policy misbehave in a way the trace shows.")
    if kwargs and all(id(v) in _COURSE_POLICIES or k in ("max_rounds", "require_plan") for k, v in kwargs.items()):
        report.fail("new", "every injected piece comes from agent_team.faults; write a policy or hook of your own.")
    if run.status != fault["expect"]:
        report.fail("expected status", f"you expected {fault['expect']!r}, but the run ended {run.status!r}: "
                                        f"{run.stop_reason}.")
    again = call_learner(lambda: supervise(**copy.copy(kwargs)), seconds=30.0, what="supervise with your fault")
    if not again.ok or again.value.trace != run.trace:
        report.fail("replayable", "a second run gave a different trace. Does your policy use randomness, the "
                                  "clock, or state kept between calls? An eval must give the same answer every time.")
    found = _evidence(report, fault, run, "faulty")
    if found is None and report.check("evidence found", "").passed is None:
        report.fail("evidence found", "it returned None on the faulty run; search the trace for the event that "
                                      "shows the fault (a refusal, an override, an oracle error...).")
    if _evidence(report, fault, healthy, "healthy") is not None:
        report.fail("evidence is specific", "it also reports evidence on a healthy run, so it would pass whatever "
                                            "happened. Look for something only your fault causes.")
    return report.finish()


def grading_runs():
    """``[(name, run)]``: healthy runs at three budgets and every fault of part 4."""
    runs = [(f"healthy team, max_rounds={b}", supervise(max_rounds=b)) for b in (0, 1, 4)]
    return runs + [(name, run_fault(name)) for name in FAULTS]


def _outcome_shape(value):
    if not isinstance(value, (list, tuple)) or len(value) != len(STEPS):
        return f"it returned {show(value)}; return a list of {len(STEPS)} outcomes, one per step."
    for i, (item, (step, _)) in enumerate(zip(value, STEPS)):
        if not isinstance(item, dict) or not {"step", "status", "risk"} <= set(item):
            return f"outcome {i} is {show(item)}; each is a dict with 'step', 'status' and 'risk'."
        if item["step"] != step:
            return f"outcome {i} is for step {show(item['step'])}; the steps are, in order: " + \
                   ", ".join(s for s, _ in STEPS) + "."
    return None


def check_run_outcomes(fn):
    """Grade exercise 6.2: ``run_outcomes(run)`` against the reference over healthy and faulty runs."""
    report = Report("Exercise 6.2: a whole run through the gate", exercise="6.2",
                    hint="Look at the run's trace and final repo: PLAN.md at the end (plan), whether any coder "
                         "turn was applied (code), the last tests event (tests), the last reviewer turn's verdict "
                         "(review). No turn or no test run at all means 'skipped'.")
    report.check("shape", "four dicts with step, status and risk, for plan, code, tests, review in order")
    for step, risk in STEPS:
        report.check(f"{step} step", f"the {step} step has the right status, and risk {risk!r}")
    report.check("gated status", "with your outcomes, the gate gives every run the right status")
    ran = False
    for name, run in grading_runs():
        call = call_learner(fn, copy.deepcopy(run), what="your run_outcomes")
        if call.not_implemented:
            report.status_override = "not implemented"
            return report.finish(ran=False)
        if not call.ok:
            report.fail("shape", f"On '{name}': {call.problem}")
            continue
        problem = _outcome_shape(call.value)
        if problem:
            report.fail("shape", f"On '{name}': {problem}")
            continue
        ran = True
        want = reference_outcomes(run)
        for got, ref in zip(call.value, want):
            if (got["status"], got["risk"]) != (ref["status"], ref["risk"]):
                why = f" ({ref['detail']})" if ref["detail"] else ""
                report.fail(f"{ref['step']} step", f"On '{name}' your {ref['step']} step is "
                            f"{show(got['status'])} with risk {show(got['risk'])}; it should be "
                            f"{ref['status']!r}{why}, risk {ref['risk']!r}.")
        call_gate = call_learner(lambda: gated(run, [dict(o) for o in call.value]), what="the gate on your outcomes")
        expected = gated(run).status
        if not call_gate.ok or call_gate.value.status != expected:
            got_status = call_gate.value.status if call_gate.ok else call_gate.problem
            report.fail("gated status", f"On '{name}' the gate on your outcomes gives {show(got_status)}; "
                                        f"it should be {expected!r}.")
    return report.finish(ran=ran)
