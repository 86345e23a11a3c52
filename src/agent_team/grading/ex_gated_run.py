"""Exercise 6.2: grade ``run_outcomes(run)``, a finished run read as four step outcomes.

Requirements (each sentence of the exercise text, and the check that grades it):

=====================================================================  =============================
the exercise says                                                      check
=====================================================================  =============================
the four outcomes as dicts ``{"step", "status", "risk"}``, in the      ``shape``
order plan, code, tests, review (a "detail" may be added; the gate
refuses any other key)
plan: PLAN.md holds a plan at the end (else failed)                    ``plan step``
code: a coder turn landed a patch (none: failed; no turn: skipped)     ``code step``
tests: the last run green (red: failed; never ran: skipped)            ``tests step``
review: the last review left a verdict (none: failed; no turn:         ``review step``
skipped)
the status the gate then gives each run                                ``gated status``
=====================================================================  =============================

Scenarios: healthy runs with 0, 1 and 4 rounds, every fault of part 4, and runs made so that
each plausible wrong reading of a sentence gives another answer than the right one (``SPLITS``:
the last coder turn refused after one landed, a verdict and then none, a refused first plan, a
plan wiped with no re-plan; fault 12's coder lands turns with no patch), compared step by step
with :func:`agent_team.realteam.gated.run_outcomes`. Measured (tests/grading/test_ex_6_2_*.py): the
reference and other right styles pass; every wrong reading of the mutant suite fails its step.
"""

import copy
import functools

from ..clip import safe_repr
from ..realteam.contracts import StepOutcome
from ..faults import FAULTS, garbage_reviewer, greedy_planner, run_fault, test_editing_coder, wipe_plan
from ..realteam.gated import STEPS, gated
from ..realteam.gated import run_outcomes as reference_outcomes
from ..policies import fake_coder, fake_planner, fake_reviewer, output
from ..repo import PLAN_PATH, REVIEW_PATH
from ..supervisor import supervise
from .core import Report, call_learner, grading_run
from .shapes import kind

__all__ = ["grade_run_outcomes"]

REQUIREMENTS = (
    ("shape", "four dicts with step, status and risk, for plan, code, tests, review in order"),
    *((f"{step} step", f"the {step} step has the right status, and risk {risk!r}") for step, risk in STEPS),
    ("gated status", "with your outcomes, the gate gives every run the right status"),
    ("returns", "run_outcomes returns on every run, healthy or faulty: it never raises"),
)


def _first_then(first, then):
    """A policy that plays ``first`` on its first turn and ``then`` after (used once: runs are made once)."""
    calls = []

    def policy(goal, view):
        calls.append(1)
        return (first if len(calls) == 1 else then)(goal, view)
    return policy


def _splits():
    """Runs where a wrong reading of one sentence meets a different answer than the right one."""
    return (
        ("the coder lands once, then every turn is refused",     # last coder turn vs any
         supervise(coder=_first_then(fake_coder, test_editing_coder))),
        ("a verdict, then a review with none",                   # any review vs the last
         supervise(reviewer=_first_then(fake_reviewer, garbage_reviewer))),
        ("the first plan refused, the next one written",         # the first planner turn vs PLAN.md
         supervise(planner=_first_then(greedy_planner, fake_planner))),
        ("the plan wiped, with no re-plan",                      # a planner turn landed vs PLAN.md at the end
         supervise(tamper=wipe_plan, require_plan=False)),
        ("a plan of blank lines",                                # PLAN.md not "" vs holding a plan
         supervise(planner=_blank_planner)),
        ("PLAN.md deleted, with no re-plan",                     # a missing file is no plan (and no KeyError)
         supervise(tamper=_delete_plan, require_plan=False)),
        ("a reviewer whose REVIEW.json is prose",                # a turn that landed vs one that left a verdict
         supervise(reviewer=_prose_reviewer)),
    )


def _delete_plan(repo, round_):
    return {path: text for path, text in repo.items() if path != PLAN_PATH}


def _prose_reviewer(goal, view):
    return output("reviewer", "in words", [{"path": REVIEW_PATH, "content": "Looks good to me: approve."}], "approve")


def _blank_planner(goal, view):
    return output("planner", "a plan to come", [{"path": PLAN_PATH, "content": "\n  \n"}], "planned")


@functools.cache  # 23 deterministic runs: made at the first grading, not again at each one (nor at import)
def grading_runs():
    """``((name, run), ...)``: healthy runs at three budgets, every fault of part 4, and the splits.

    Shared by every grading, so never handed to learner code: it gets a deep copy."""
    runs = [(f"healthy team, max_rounds={b}", supervise(max_rounds=b)) for b in (0, 1, 4)]
    return tuple(runs + [(name, run_fault(name)) for name in FAULTS] + list(_splits()))


_FIELDS = tuple(f for f in StepOutcome.__dataclass_fields__)  # what the gate reads; any other key it refuses


def _outcome_shape(value):
    """What is wrong with the outcomes' shape, in words, or None. Exact types first (see shapes.py)."""
    if type(value) not in (list, tuple) or len(value) != len(STEPS):
        return f"it returned {kind(value)}, {safe_repr(value)}; return a list of {len(STEPS)} outcomes, one per step."
    for i, (item, (step, _)) in enumerate(zip(value, STEPS)):
        if type(item) is not dict or not all(type(k) is str for k in item) \
                or not all(type(item.get(k)) is str for k in ("step", "status", "risk")):
            return (f"outcome {i} is {kind(item)}, {safe_repr(item)}; each is a plain dict with 'step', 'status' and "
                    "'risk' (each a str).")
        extra = [k for k in item if k not in _FIELDS]
        if extra:
            return (f"outcome {i} has the key {extra[0]!r}; an outcome holds 'step', 'status' and 'risk' "
                    f"(optionally {', '.join(repr(f) for f in _FIELDS[3:])}), and the gate refuses any other key.")
        if item["step"] != step:
            return f"outcome {i} is for step {safe_repr(item['step'])}; the steps are, in order: " + \
                   ", ".join(s for s, _ in STEPS) + "."
    return None


@grading_run
def grade_run_outcomes(fn):
    """Grade exercise 6.2: ``run_outcomes(run)`` against the reference over healthy and faulty runs."""
    report = Report(exercise="6.2")
    report.declare_all(REQUIREMENTS)
    ran = crashed = False
    for name, run in grading_runs():
        call = call_learner(fn, copy.deepcopy(run), what="your run_outcomes")
        if call.not_implemented:
            report.outcome_override = "not implemented"
            return report.finish(ran=False)
        if not call.ok:  # a crash on one run: the steps it would have judged are not passes anywhere
            # its own check: outcomes of the wrong shape are not what happened (a crash returns none)
            report.fail("returns", f"On '{name}': {call.problem} run_outcomes must return outcomes for "
                                   "every run, a faulty one too: look for a value that can be missing "
                                   "(a review with no verdict, a run with no test report).")
            crashed = True
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
                            f"{safe_repr(got['status'])} with risk {safe_repr(got['risk'])}; it should be "
                            f"{ref['status']!r}{why}, risk {ref['risk']!r}.")
        call_gate = call_learner(lambda: gated(run, [dict(o) for o in call.value]),  # noqa: B023 -- called at once
                                 what="the gate on your outcomes")
        expected = gated(run).status
        if not call_gate.ok or call_gate.value.status != expected:
            got_status = call_gate.value.status if call_gate.ok else call_gate.problem
            report.fail("gated status", f"On '{name}' the gate on your outcomes gives {safe_repr(got_status)}; "
                                        f"it should be {expected!r}.")
    if crashed:
        report.unjudge_passes()
    return report.finish(ran=False if crashed else ran)
