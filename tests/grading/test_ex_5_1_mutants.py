"""Exercise 5.1: wrong gates a learner might write, each rejected by the check for the rule it breaks;
correct gates in other styles accepted; hostile gates never break the grader.

Written from the exercise text (notebooks/source/05_real_team.py, exercise 5.1 and its
requirements table), not from the reference.

Measured (a test below keeps it true): 36 wrong gates rejected, each with the right first
failing check (and 4 more named in test_ex_5_1_grader.py); 9 correct ones in other styles accepted.
"""

import pytest
from grader_helpers import first_failing

from agent_team.grading.gate import grade_gate, expected_gate
from hostile import Exploding, ExplodingDict, ExplodingKey

ACTION = {"failed": "retry_step", "cancelled": "resume_plan", "skipped": "user_decision"}
ORDER = ("failed", "cancelled", "skipped")


def blocked(action, step):
    return {"passed": False, "action": action, "step": step}


OK = {"passed": True, "action": None, "step": None}
EMPTY = blocked("user_decision", None)


def make(pick=lambda outcomes, kind: next(o["step"] for o in outcomes if o["status"] == kind),
         order=ORDER, actions=ACTION, empty=EMPTY, view=lambda outcomes: outcomes,
         blocks=lambda o: o["status"] != "success"):
    """A learner's gate whose only mistake is in one argument (the defaults are right)."""
    def gate(outcomes):
        if not outcomes:
            return dict(empty)
        seen = view(outcomes)
        if not any(blocks(o) for o in seen):
            return dict(OK)
        kind = next(k for k in order if any(o["status"] == k for o in seen))
        return blocked(actions[kind], pick(seen, kind))
    return gate


min_id = make(pick=lambda outs, kind: min(o["step"] for o in outs if o["status"] == kind))
max_id = make(pick=lambda outs, kind: max(o["step"] for o in outs if o["status"] == kind))
last_of_kind = make(pick=lambda outs, kind: [o["step"] for o in outs if o["status"] == kind][-1])
position_id = make(pick=lambda outs, kind: f"S{[o['status'] for o in outs].index(kind) + 1}")
position_number = make(pick=lambda outs, kind: [o["status"] for o in outs].index(kind) + 1)
id_as_str = make(pick=lambda outs, kind: str(next(o["step"] for o in outs if o["status"] == kind)))
id_as_number = make(pick=lambda outs, kind: int(str(next(o["step"] for o in outs if o["status"] == kind))
                                               .lstrip("S")))
sorted_first = make(view=lambda outs: sorted(outs, key=lambda o: str(o["step"])))
first_six = make(view=lambda outs: outs[:6])
first_five = make(view=lambda outs: outs[:5])
all_but_last = make(view=lambda outs: outs[:-1] or outs)
reversed_view = make(view=lambda outs: outs[::-1])
skipped_first = make(order=("skipped", "cancelled", "failed"))
cancelled_first = make(order=("cancelled", "failed", "skipped"))
skipped_before_cancelled = make(order=("failed", "skipped", "cancelled"))
empty_passes = make(empty=OK)
empty_without_action = make(empty=blocked(None, None))
empty_retries = make(empty=blocked("retry_step", None))
skips_pass = make(blocks=lambda o: o["status"] in ("failed", "cancelled"),
                  order=("failed", "cancelled", "skipped"))
cancels_pass = make(blocks=lambda o: o["status"] in ("failed", "skipped"))
skip_resumes = make(actions={**ACTION, "skipped": "resume_plan"})
cancel_retries = make(actions={**ACTION, "cancelled": "retry_step"})
failure_asks_user = make(actions={**ACTION, "failed": "user_decision"})


def risk_blocks(outcomes):
    if any(o["risk"] in ("write", "execute") and o["status"] == "success" for o in outcomes):
        return blocked("user_decision", outcomes[0]["step"])
    return make()(outcomes)


def execute_blocks(outcomes):
    risky = [o for o in outcomes if o["risk"] == "execute"]
    return blocked("user_decision", risky[0]["step"]) if risky else make()(outcomes)


def skipped_write_is_a_failure(outcomes):
    fixed = [dict(o, status="failed") if o["status"] == "skipped" and o["risk"] == "write" else o
             for o in outcomes]
    return make()(fixed)


def crashes_on_empty(outcomes):
    first = outcomes[0]                                # an empty list blocks, it is not an error
    return make()(outcomes) if first else None


def first_not_success(outcomes):
    for o in outcomes:
        if o["status"] != "success":
            return blocked(ACTION[o["status"]], o["step"])
    return dict(OK) if outcomes else dict(EMPTY)


def passed_as_text(outcomes):
    answer = make()(outcomes)
    return dict(answer, passed="yes" if answer["passed"] else "no")


def returns_a_tuple(outcomes):
    answer = make()(outcomes)
    return answer["passed"], answer["action"], answer["step"]


def forgets_step_key(outcomes):
    answer = make()(outcomes)
    return {"passed": answer["passed"], "action": answer["action"]}


def action_name_typo(outcomes):
    answer = make()(outcomes)
    return dict(answer, action="retry") if answer["action"] == "retry_step" else answer


def success_names_last_step(outcomes):
    answer = make()(outcomes)
    return dict(answer, step=outcomes[-1]["step"]) if answer["passed"] else answer


def success_action_text(outcomes):
    answer = make()(outcomes)
    return dict(answer, action="user_decision") if answer["passed"] and len(outcomes) > 2 else answer


def truthy_step(outcomes):
    first_bad = next((o["step"] for o in outcomes if o["status"] == "failed"), None)
    if first_bad:                                      # step 0 is a step id too
        return blocked("retry_step", first_bad)
    return make(order=("cancelled", "skipped"))(outcomes) if outcomes else dict(EMPTY)


def loops_on_empty(outcomes):
    while not outcomes:
        pass
    return make()(outcomes)


WRONG = [
    (min_id, "first in list order"), (max_id, "first in list order"), (last_of_kind, "first in list order"),
    (position_id, "ids as given"), (position_number, "ids as given"), (id_as_str, "ids as given"),
    (id_as_number, "ids as given"), (sorted_first, "first in list order"),
    (first_six, "every outcome counts"), (first_five, "every outcome counts"),
    (all_but_last, "failed"), (reversed_view, "first in list order"),
    (skipped_first, "precedence"), (cancelled_first, "precedence"), (skipped_before_cancelled, "precedence"),
    (first_not_success, "precedence"),
    (empty_passes, "empty list"), (empty_without_action, "empty list"), (empty_retries, "empty list"),
    (crashes_on_empty, "empty list"), (loops_on_empty, "empty list"),
    (skips_pass, "skipped"), (cancels_pass, "cancelled"), (skip_resumes, "skipped"),
    (cancel_retries, "cancelled"), (failure_asks_user, "failed"),
    (risk_blocks, "risk does not block"), (execute_blocks, "risk does not block"),
    (skipped_write_is_a_failure, "risk does not block"),
    (passed_as_text, "shape"), (returns_a_tuple, "shape"), (forgets_step_key, "shape"),
    (action_name_typo, "shape"), (success_names_last_step, "success passes"),
    (success_action_text, "success passes"),
    (truthy_step, "ids as given"),
]


@pytest.mark.parametrize("gate, check", WRONG, ids=[f"{i} {c}" for i, (g, c) in enumerate(WRONG)])
def test_each_wrong_gate_fails_first_the_rule_it_breaks(gate, check, request):
    if gate is loops_on_empty:
        request.getfixturevalue("short_caps")  # a hang costs a fifth of a second, not 2 s
    report = grade_gate(gate)
    first = first_failing(report)
    assert not report.passed and first is not None, str(report)
    assert first.name == check, str(report)
    first_line = next(line for line in str(report).splitlines() if line.startswith("[FAIL]"))
    assert first_line.startswith(f"[FAIL] {check}:") and first.detail


def test_there_are_enough_different_wrong_gates_and_the_grader_says_how_many():
    assert len({id(g) for g, _ in WRONG}) == len(WRONG) >= 30
    assert f"{len(WRONG)} wrong gates rejected" in " ".join(__doc__.split())
    assert f"{len(CORRECT)} correct ones" in " ".join(__doc__.split())


def test_the_first_line_explains_the_rule_in_its_own_words():
    detail = first_failing(grade_gate(min_id)).detail
    assert "S4 and S3 failed" in detail and "'S4'" in detail and "FIRST step of that kind" in detail
    detail = first_failing(grade_gate(first_six)).detail
    assert "however long the list" in detail
    detail = first_failing(grade_gate(position_id)).detail
    assert "exactly as the outcome gives it" in detail


# --- correct gates in other styles ------------------------------------------------------------

def with_loops(outcomes):
    if len(outcomes) == 0:
        return {"passed": False, "action": "user_decision", "step": None}
    for kind, action in (("failed", "retry_step"), ("cancelled", "resume_plan"), ("skipped", "user_decision")):
        for outcome in outcomes:
            if outcome["status"] == kind:
                return {"passed": False, "action": action, "step": outcome["step"]}
    return {"passed": True, "action": None, "step": None}


def with_a_rank(outcomes):
    rank = {"failed": 0, "cancelled": 1, "skipped": 2}
    bad = [(rank[o["status"]], i, o["step"]) for i, o in enumerate(outcomes) if o["status"] in rank]
    if not outcomes or bad:
        if not bad:
            return {"passed": False, "action": "user_decision", "step": None}
        r, _, step = min(bad)
        return {"passed": False, "action": ("retry_step", "resume_plan", "user_decision")[r], "step": step}
    return {"passed": True, "action": None, "step": None}


def with_first_of_each_kind(outcomes):
    first = {}
    for o in outcomes:
        first.setdefault(o["status"], o["step"])
    for kind, action in zip(ORDER, ("retry_step", "resume_plan", "user_decision")):
        if kind in first:
            return dict(passed=False, action=action, step=first[kind])
    if outcomes:
        return dict(passed=True, action=None, step=None)
    return dict(passed=False, action="user_decision", step=None)


def with_all_and_filter(outcomes):
    if outcomes and all(o["status"] == "success" for o in outcomes):
        return {"passed": True, "action": None, "step": None}
    for kind in ORDER:
        hits = list(filter(lambda o: o["status"] == kind, outcomes))
        if hits:
            return {"passed": False, "action": ACTION[kind], "step": hits[0]["step"]}
    return {"passed": False, "action": "user_decision", "step": None}


def with_sorted_by_index(outcomes):
    blocked_ = sorted((ORDER.index(o["status"]), n) for n, o in enumerate(outcomes) if o["status"] in ORDER)
    if blocked_:
        kind, n = blocked_[0]
        return {"passed": False, "action": ACTION[ORDER[kind]], "step": outcomes[n]["step"]}
    return {"passed": bool(outcomes), "action": None if outcomes else "user_decision", "step": None}


def with_extra_keys(outcomes):
    answer = with_loops(outcomes)
    return {**answer, "reason": "all good" if answer["passed"] else "blocked"}


def with_a_match(outcomes):
    found = {}
    for o in reversed(outcomes):
        match o["status"]:
            case "failed" | "cancelled" | "skipped" as kind:
                found[kind] = o["step"]
            case _:
                pass
    for kind in ORDER:
        if kind in found:
            return {"passed": False, "action": ACTION[kind], "step": found[kind]}
    return {"passed": bool(outcomes), "action": None if outcomes else "user_decision", "step": None}


def with_the_reference_gate(outcomes):
    return expected_gate(outcomes)


CORRECT = [make(), with_loops, with_a_rank, with_first_of_each_kind, with_all_and_filter,
           with_sorted_by_index, with_extra_keys, with_a_match, with_the_reference_gate]


@pytest.mark.parametrize("gate", CORRECT, ids=range(len(CORRECT)))
def test_a_correct_gate_in_any_style_passes(gate):
    report = grade_gate(gate)
    assert report.passed, str(report)
    assert all(c.passed is True for c in report.checks)


# --- hostile gates: a failing report, never a raise; the reference still passes after ------------

def mutates_its_input(outcomes):
    answer = with_loops(outcomes)
    for o in outcomes:
        o["status"] = "success"
    outcomes.clear()
    return answer


HOSTILE = [
    lambda outcomes: Exploding(),
    lambda outcomes: {"passed": Exploding(), "action": None, "step": None},
    lambda outcomes: {"passed": False, "action": Exploding(), "step": None},
    lambda outcomes: {"passed": False, "action": "retry_step", "step": Exploding()},
    lambda outcomes: {ExplodingKey("passed"): True, "action": None, "step": None},
    lambda outcomes: ExplodingDict(passed=True, action=None, step=None),
    lambda outcomes: {"passed": 1, "action": None, "step": None},
    lambda outcomes: {"passed": False, "action": "retry_step", "step": True},
    lambda outcomes: (_ for _ in ()).throw(SystemExit("bye")),
]


@pytest.mark.parametrize("gate", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_gate_fails_with_words_and_the_reference_still_passes_after(gate):
    report = grade_gate(gate)
    assert not report.passed
    assert first_failing(report).detail
    assert grade_gate(with_loops).passed


def test_a_gate_that_empties_its_input_changes_nothing_for_the_next_case_or_the_next_grading():
    assert grade_gate(mutates_its_input).passed  # its answers are right: each case got its own copy
    assert grade_gate(with_loops).passed


def test_a_gate_that_never_returns_passes_no_check(short_caps):
    def hangs(outcomes):
        while True:
            pass
    report = grade_gate(hangs)
    assert not report.passed
    assert [c.name for c in report.checks if c.passed is False] == ["success passes"]
    assert all(c.passed is None for c in report.checks if c.name != "success passes")
    assert "did not return" in first_failing(report).detail


def test_a_gate_that_hangs_later_stops_grading_at_that_hang(short_caps):
    def hangs_on_long_lists(outcomes):
        while len(outcomes) > 6:
            pass
        return with_loops(outcomes)
    report = grade_gate(hangs_on_long_lists)
    failed = [c.name for c in report.checks if c.passed is False]
    assert failed == ["every outcome counts"] and report.checks[0].passed is True
