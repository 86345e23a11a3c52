"""Grader for exercise 5.1: the reviewer gate, written by the learner, one rule per check.

The learner writes ``gate(outcomes) -> {"passed": bool, "action": str | None, "step": id | None}``.
Every sentence of the exercise is a rule, and every rule is a check:

| the exercise says | check |
|---|---|
| return `{"passed": ..., "action": ..., "step": ...}` (a dict; other keys are ignored) | shape |
| when every step succeeded, `passed` is True and the other two are None | success passes |
| a failed step blocks: `retry_step` on it | failed |
| a cancelled step blocks: `resume_plan` from it | cancelled |
| a skipped step blocks: `user_decision` on it | skipped |
| an empty list blocks, with `"user_decision"` and step None | empty list |
| risk never changes the answer | risk does not block |
| several kinds: failed, then cancelled, then skipped | precedence |
| the first step of that kind *in list order* (not the smallest or first-sorted id) | first in list order |
| step ids are any unique str or int, in any order; `step` is the id as given | ids as given |
| every outcome counts, however long the list | every outcome counts |

Named cases, grouped by the rule they test, run first and in that order, so the first
failing line names the rule; then, if every named case passed, 300 random lists (0 to 12
steps, ids that are not positional, statuses in any order) are checked against the reference
:func:`agent_team.realteam.gate.review_gate`, and a disagreement is charged to the rule it breaks.
Each call gets a fresh deep copy of its outcomes; a returned value is read only after its
exact type is checked, so nothing a gate returns can make the grader raise; the first hang
stops grading.

Measured by tests/grading/test_ex_5_1_*.py (wrong gates written from the exercise text, each
rejected with the right first failing check; correct ones in other styles accepted; mutants of
the notebook's solution and of ``review_gate``); the counts are there.
"""

import functools
import random

from ..clip import safe_repr
from ..realteam.contracts import ACTIONS, STEP_STATUSES
from ..realteam.gate import review_gate
from .core import Report, call_learner, grading_run
from .shapes import fresh, kind

__all__ = ["grade_gate", "expected_gate", "gate_cases"]

RISKS = ("read", "write", "execute")
KIND = {"retry_step": "failed", "resume_plan": "cancelled", "user_decision": "skipped"}


def _o(step, status, risk="read"):
    return {"step": step, "status": status, "risk": risk}


def _run(*pairs, risk="read"):
    """``_run("S1 success", "S2 failed")`` -> outcomes (ids that are digits become ints)."""
    out = []
    for pair in pairs:
        step, status = pair.rsplit(" ", 1)
        out.append(_o(int(step) if step.isdigit() else step, status, risk))
    return out


def gate_cases():
    """``(check, requirement, [(case name, outcomes), ...])`` in report order, built fresh each call."""
    long_ok = [_o(f"S{i}", "success") for i in range(1, 13)]
    return (
        ("success passes", "when every step succeeded: passed True, action None, step None", [
            ("one success", _run("S1 success")),
            ("three successes", _run("S1 success", "S2 success", "S3 success")),
        ]),
        ("failed", "a failed step blocks and proposes retry_step on it", [
            ("S2 failed", _run("S1 success", "S2 failed")),
            ("only S1, failed", _run("S1 failed")),
        ]),
        ("cancelled", "a cancelled step blocks and proposes resume_plan from it", [
            ("S3 cancelled", _run("S1 success", "S2 success", "S3 cancelled")),
        ]),
        ("skipped", "a skipped step blocks and proposes user_decision on it", [
            ("S1 skipped", _run("S1 skipped", "S2 success")),
        ]),
        ("empty list", "no outcomes at all: blocked, user_decision, step None", [
            ("no outcomes", []),
        ]),
        ("risk does not block", "risk never changes the answer; only the statuses count", [
            ("a write and an execute step, both successful", [_o("S1", "success", "write"),
                                                             _o("S2", "success", "execute")]),
            ("a risky success before a failure", [_o("S1", "success", "execute"), _o("S2", "failed", "write")]),
            ("a skipped write step", [_o("S1", "success"), _o("S2", "skipped", "write")]),
        ]),
        ("precedence", "failed before cancelled before skipped", [
            ("S1 skipped, S2 failed", _run("S1 skipped", "S2 failed")),
            ("S1 cancelled, S2 failed", _run("S1 cancelled", "S2 failed")),
            ("S1 skipped, S2 cancelled", _run("S1 skipped", "S2 cancelled")),
            ("all four kinds", _run("S1 skipped", "S2 cancelled", "S3 failed", "S4 success")),
        ]),
        ("first in list order", "the proposal is on the first step of that kind in list order", [
            ("S4 and S3 failed, in that order", _run("S4 failed", "S3 failed", "S5 success")),
            ("S9 and S10 failed", _run("S9 failed", "S10 failed")),
            ("S6 cancelled, then S4", _run("S2 success", "S6 cancelled", "S4 cancelled", "S7 skipped")),
            ("steps 7 and 2 skipped", _run("7 skipped", "2 skipped")),
        ]),
        ("ids as given", "step is the blocked step's id exactly as given (any str or int)", [
            ("build ok, lint failed", _run("build success", "lint failed")),
            ("S5 then S6 skipped", _run("S5 success", "S6 skipped")),
            ("int ids 10 and 20", _run("10 success", "20 cancelled")),
            ("S2 then S1 failed", _run("S2 success", "S1 failed")),
            ("b and a failed", _run("b failed", "a failed")),
            ("step 0 failed", _run("1 success", "0 failed")),
            # ids of digits are still str ids: '7' is not 7 (nor '007' 7)
            ("str ids of digits, two skipped", [_o("10", "success"), _o("7", "skipped"), _o("2", "skipped")]),
            ("the str id 007 failed", [_o("1", "success"), _o("007", "failed")]),
        ]),
        ("every outcome counts", "every outcome counts, however long the list", [
            ("twelve successes", long_ok),
            ("eight successes, then a failure", long_ok[:8] + [_o("S9", "failed")]),
            ("a skip first, a failure last of ten", _run("S1 skipped", *[f"S{i} success" for i in range(2, 10)],
                                                         "S10 failed")),
            ("eleven steps, the last cancelled", long_ok[:10] + [_o("S11", "cancelled")]),
            # thousands: a gate that reads only a first slice, or recurses once per outcome, fails here
            ("1,500 successes, then a failure", [_o(f"S{i}", "success") for i in range(1, 1501)]
             + [_o("S1501", "failed")]),
            # a window, at either end, fails one of these: the blocker first of 1,501, or last of 2,501
            ("a skip, then 1,500 successes", [_o("S1", "skipped")] + [_o(f"S{i}", "success") for i in range(2, 1502)]),
            ("2,500 successes, then a failure", [_o(f"S{i}", "success") for i in range(1, 2501)]
             + [_o("S2501", "failed")]),
        ]),
    )


WHY = {
    "success passes": "every step succeeded, so passed is True and action and step are None",
    "failed": "a failed step blocks, and the proposal is retry_step on that step",
    "cancelled": "a cancelled step blocks, and the proposal is resume_plan from that step",
    "skipped": "a skipped step blocks, and the proposal is user_decision on that step",
    "empty list": "an empty list blocks (nothing shows the work was done): user_decision, step None",
    "risk does not block": "risk never changes the answer: only the statuses count",
    "precedence": "when several kinds block, failed comes first, then cancelled, then skipped",
    "first in list order": "the proposal is on the FIRST step of that kind in the list, whatever its id",
    "ids as given": "step is the id exactly as the outcome gives it (same value, same type), not a "
                    "position or a number you make up",
    "every outcome counts": "every outcome counts, however long the list",
}




def expected_gate(outcomes):
    """What the learner's gate should return, from the reference gate."""
    decision = review_gate(outcomes)
    proposal = decision.proposal
    return {"passed": decision.passed, "action": proposal.action if proposal else None,
            "step": proposal.step if proposal else None}


@functools.lru_cache(maxsize=1024)
def _expected(key):
    """The reference's answer for outcomes given as a tuple of (step, status, risk) (immutable, so
    nothing a learner does can change a remembered answer; the reference validates its input
    with care and is slow, and the same cases come back at every grading)."""
    want = expected_gate([_o(*o) for o in key])
    return want["passed"], want["action"], want["step"]


def _want(outcomes):
    passed, action, step = _expected(tuple((o["step"], o["status"], o["risk"]) for o in outcomes))
    return {"passed": passed, "action": action, "step": step}


def random_cases(n=300, seed=5):
    """Random outcome lists: 0 to 12 steps, unique ids that are not positional, any order."""
    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        size = rng.choice(range(13)) if rng.random() < 0.5 else rng.randint(1, 4)
        style = rng.choice(("S", "shuffled", "names", "ints"))
        ids = {"S": [f"S{i}" for i in range(1, size + 1)],
               "shuffled": rng.sample([f"S{i}" for i in range(1, 20)], size),
               "names": rng.sample(["build", "lint", "test", "docs", "deploy", "a", "b", "S1", "S2", "x9",
                                    "pack", "sign", "ship"], size),
               "ints": rng.sample(range(0, 40), size)}[style]
        statuses = rng.choice((STEP_STATUSES, ("success", "success", "success", "failed", "skipped",
                                                "cancelled")))
        cases.append([_o(step, rng.choice(statuses), rng.choice(RISKS)) for step in ids])
    return cases


def _id(step):
    """An id as a learner reads it: S1 bare, but '7' (a str of digits) quoted, so it is not read as 7."""
    return repr(step) if type(step) is str and (step.strip() != step or step.isdigit() or not step) else str(step)


def _describe(outcomes, most=12):
    shown = ", ".join(f"{_id(o['step'])} {o['status']}" for o in outcomes[:most])
    more = f", ... {len(outcomes) - most:,} more" if len(outcomes) > most else ""
    return f"[{shown}{more}]"


def _read(value):
    """The three fields of what a gate returned, or a problem in words. Exact types only, so a
    value whose ``==``, ``len`` or lookup runs learner code is a wrong shape, never a crash."""
    if type(value) is not dict:
        return None, (f"it returned {kind(value)}, {safe_repr(value)}; return a dict with 'passed', 'action' "
                      "and 'step' (a plain dict).")  # the type first: a dict subclass prints as a dict
    try:
        got = {key: value.get(key, KeyError) for key in ("passed", "action", "step")}
    except Exception:  # noqa: BLE001 -- a key whose __eq__ raises
        return None, "it returned a dict whose keys cannot be compared; use the str keys 'passed', 'action', 'step'."
    missing = [key for key, v in got.items() if v is KeyError]
    if missing:
        return None, f"it returned {safe_repr(value)}, with no {', '.join(map(repr, missing))}."
    if type(got["passed"]) is not bool:
        return None, f"'passed' is {safe_repr(got['passed'])}; it must be True or False."
    if got["action"] is not None and (type(got["action"]) is not str or got["action"] not in ACTIONS):
        return None, f"'action' is {safe_repr(got['action'])}; use None or one of {', '.join(map(repr, ACTIONS))}."
    if got["step"] is not None and type(got["step"]) not in (str, int):
        return None, f"'step' is {safe_repr(got['step'])}; use None or the step id from the outcomes."
    return got, ""


def _same(got, want):
    return all(type(got[k]) is type(want[k]) and got[k] == want[k] for k in want)


def _diagnose(outcomes, want, got):
    """The rule a wrong answer (or a crash: ``got`` None) on a random list breaks."""
    if want["passed"]:
        return "risk does not block" if any(o["risk"] != "read" for o in outcomes) else "success passes"
    if not outcomes:
        return "empty list"
    kind = KIND[want["action"]]
    if got is not None and got["passed"]:
        first_blocked = next(i for i, o in enumerate(outcomes) if o["status"] != "success")
        return "every outcome counts" if first_blocked >= 6 else kind
    others = {o["status"] for o in outcomes} - {"success", kind}
    return "precedence" if got is not None and KIND.get(got["action"]) in others else kind


def _rule(group, outcomes, want, got, precedence_broken=False):
    """The check a wrong answer is charged to: its case's group, except that the right decision
    on the wrong step is a matter of order (another step of that kind) or of ids (anything else)."""
    if outcomes and not want["passed"] and got["passed"] is False and got["action"] == want["action"]:
        same_kind = [o["step"] for o in outcomes if o["status"] == KIND[want["action"]]]
        return "first in list order" if any(_same({"s": got["step"]}, {"s": s}) for s in same_kind) \
            else "ids as given"
    if (precedence_broken and outcomes and not want["passed"] and got["passed"] is False
            and got["action"] != want["action"] and KIND.get(got["action"]) in {o["status"] for o in outcomes}):
        return "precedence"  # the same mistake its own cases showed: not charged to this case's rule too
    return group or _diagnose(outcomes, want, got)


@grading_run
def grade_gate(fn):
    """Grade a learner's ``gate(outcomes)`` against the reference reviewer gate; never raises."""
    cases = gate_cases()
    shape = ("shape", "returns a dict with passed (bool), action (None or a proposal action) and step")
    report = Report(exercise="5.1").declare_all(
        [shape] + [(name, requirement) for name, requirement, _ in cases])
    named = [(check_name, f"'{name}'", outcomes) for check_name, _, group in cases for name, outcomes in group]
    randoms = [(None, f"random case {i}", outcomes) for i, outcomes in enumerate(random_cases(), 1)]
    for check_name, name, outcomes in named + randoms:
        if check_name is None and any(c.passed is False for c in report.checks):
            break  # random lists back the named cases up; they never speak over them
        call = call_learner(fn, fresh(outcomes), what="your gate")
        if call.not_implemented:
            report.outcome_override = "not implemented"
            return report.finish(ran=False)
        want = _want(outcomes)
        if not call.ok:
            rule = check_name or _diagnose(outcomes, want, None)
            report.fail(rule, f"On {name} {_describe(outcomes)}: {call.problem} It should return "
                              f"{safe_repr(want)}: {WHY[rule]}.")
            continue
        got, problem = _read(call.value)
        report.tried("shape")
        if problem:
            report.fail("shape", f"On {name} {_describe(outcomes)}: {problem}")
            continue
        rule = _rule(check_name, outcomes, want, got, report.check("precedence").passed is False)
        if not _same(got, want):
            report.fail(rule, f"On {name} {_describe(outcomes)} your gate returned {safe_repr(got)}, but it "
                              f"should be {safe_repr(want)}: {WHY[rule]}.")
        if check_name:
            report.tried(check_name)
    return report.finish(ran=False)
