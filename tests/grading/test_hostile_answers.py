"""Graders 1.1, 2.1, 4.1, 4.2 (and 6.1, 6.2 below) never raise and are never poisoned: hostile return values are a
failing check with a message, and the reference still passes right after each hostile input."""

import pytest
from grader_helpers import GOOD
from hostile import (Boom, HOSTILE_VALUES, Exploding, ExplodingDict, ExplodingInt, ExplodingKey, ExplodingList,
                     ExplodingStr, boom)

from agent_team.realteam.gated import run_outcomes as reference_outcomes
from agent_team.grading import (grade_fault_eval, grade_hardening, grade_my_fault, grade_nits_reviewer,
                                grade_run_outcomes, grade_run_tests)
from agent_team.grading.ex_hardening import reference_no_exec
from agent_team.grading.ex_run_tests import reference_run_tests
from agent_team.policies import fake_coder, nits_reviewer
from agent_team.repo import PLAN_PATH, SRC_PATH


def returning(value):
    def learner(*args):
        return value
    return learner


def run_tests_with(**fields):
    """A run_tests that is right except that one field holds a hostile value."""
    def learner(repo):
        return {**reference_run_tests(repo), **fields}
    return learner


def _ids(value):
    return type(value).__name__


def assert_failing_report(report):
    assert not report.passed
    failing = [c for c in report.checks if c.passed is False]
    assert failing and failing[0].detail.strip(), str(report)
    str(report)  # renders without raising
    report._repr_html_()


def test_run_tests_reference_passes():
    assert grade_run_tests(reference_run_tests).passed


@pytest.mark.parametrize("value", HOSTILE_VALUES, ids=_ids)
def test_run_tests_hostile_return_values(value):
    assert_failing_report(grade_run_tests(returning(value)))
    assert grade_run_tests(reference_run_tests).passed


@pytest.mark.parametrize("field", ["ok", "passed", "failed", "errors"])
@pytest.mark.parametrize("value", [Exploding(), ExplodingStr("x"), ExplodingInt(1), ExplodingList()], ids=_ids)
def test_run_tests_hostile_fields(field, value):
    assert_failing_report(grade_run_tests(run_tests_with(**{field: value})))
    assert grade_run_tests(reference_run_tests).passed


def test_run_tests_that_wrecks_its_repo_poisons_nothing():
    def wrecker(repo):
        result = reference_run_tests(repo)
        repo.clear()
        repo[SRC_PATH] = "def fizzbuzz(n):\n    return 'poison'\n"
        return result
    assert grade_run_tests(wrecker).passed  # scribbling on its own copy is not against the text
    assert grade_run_tests(reference_run_tests).passed


def nits_with(**fields):
    def learner(goal, view):
        return {**nits_reviewer(goal, view), **fields}
    return learner


@pytest.mark.parametrize("value", HOSTILE_VALUES, ids=_ids)
def test_nits_hostile_return_values(value):
    assert_failing_report(grade_nits_reviewer(returning(value)))
    assert grade_nits_reviewer(nits_reviewer).passed


@pytest.mark.parametrize("field", ["role", "thought", "patches", "message"])
@pytest.mark.parametrize("value", [Exploding(), ExplodingStr("reviewer"), ExplodingList(),
                                   [ExplodingDict(path="REVIEW.json")], [{"path": ExplodingStr("REVIEW.json"),
                                                                         "content": "{}"}]], ids=_ids)
def test_nits_hostile_fields(field, value):
    assert_failing_report(grade_nits_reviewer(nits_with(**{field: value})))
    assert grade_nits_reviewer(nits_reviewer).passed


def test_a_reviewer_that_scribbles_on_its_view_poisons_nothing():
    def scribbler(goal, view):
        out = nits_reviewer(goal, view)
        view["past_verdicts"].extend(["request_changes"] * 5)
        if view["last_tests"] is not None:
            view["last_tests"]["ok"] = True
            view["last_tests"]["errors"].clear()
        return out
    assert grade_nits_reviewer(scribbler).passed
    assert grade_nits_reviewer(nits_reviewer).passed


REFERENCE_EVAL = GOOD  # the worked solution's rows


class EqualsExploding:
    """Only its == raises: what a repo comparison would touch."""
    __eq__ = boom
    __hash__ = object.__hash__


class ExplodingTuple(tuple):
    __len__ = __iter__ = __getitem__ = __eq__ = boom


HOSTILE_EVALS = [
    Exploding(), ExplodingList(), ExplodingDict(), [Exploding()], [ExplodingTuple(("a", {}, "pass"))],
    [(ExplodingStr("n"), {"max_rounds": 1}, "budget")], [("n", ExplodingDict(max_rounds=1), "budget")],
    [("n", {"max_rounds": 1}, ExplodingStr("budget"))], [("n", {"max_rounds": ExplodingInt(1)}, "budget")],
    [("n", {ExplodingKey("max_rounds"): 1}, "budget")], [("n", {"seconds": ExplodingInt(1)}, "budget")],
    [("n", {"repo": {SRC_PATH: ExplodingStr("x")}}, "budget")], [("n", {"coder": Exploding()}, "budget")],
    [("n", {"rules": Exploding()}, "budget")], [("n", {"rules": [Exploding()]}, "budget")],
    [("n", {"goal": ExplodingStr("g")}, "budget")], 42, "EVAL", [("a", {}, "pass")] * 1000,
    GOOD + [("hostile tamper", {"tamper": lambda repo, r: {**repo, SRC_PATH: EqualsExploding()}}, "budget")],
]


@pytest.mark.parametrize("rows", HOSTILE_EVALS, ids=_ids)
def test_fault_eval_hostile_rows(rows):
    assert_failing_report(grade_fault_eval(rows))
    assert grade_fault_eval(REFERENCE_EVAL).passed


def test_rows_whose_policies_scribble_poison_nothing():
    def scribbling_coder(goal, view):
        view["last_tests"] = {"ok": True, "passed": 4, "failed": 0, "errors": []}
        return fake_coder(goal, view)

    def scribbling_tamper(repo, round_):
        repo[PLAN_PATH] = ""
        return repo
    rows = REFERENCE_EVAL + [("scribbler", {"coder": scribbling_coder}, "budget"),
                             ("tamper in place", {"tamper": scribbling_tamper}, "pass")]
    kept = [(n, dict(k), e) for n, k, e in rows]
    assert grade_fault_eval(rows).passed
    assert [(n, dict(k), e) for n, k, e in rows] == kept  # the learner's EVAL is left as written
    assert grade_fault_eval(REFERENCE_EVAL).passed


@pytest.mark.parametrize("value", HOSTILE_VALUES + [ExplodingStr("no exec")], ids=_ids)
def test_hardening_hostile_return_values(value):
    def learner(role, patch):
        return value if role == "coder" else None
    assert_failing_report(grade_hardening(learner))
    assert grade_hardening(reference_no_exec).passed


def test_a_rule_that_scribbles_on_its_patch_poisons_nothing():
    def scribbler(role, patch):
        answer = reference_no_exec(role, patch)
        patch["content"], patch["path"] = "exec", "src/fizzbuzz.py"
        return answer
    assert grade_hardening(scribbler).passed
    assert grade_hardening(reference_no_exec).passed


@pytest.mark.parametrize("grader", [grade_run_tests, grade_nits_reviewer, grade_fault_eval, grade_hardening])
@pytest.mark.parametrize("value", [Exploding(), None, 42, "text", ExplodingStr("x")], ids=_ids)
def test_graders_take_anything_as_the_learners_answer(grader, value):
    report = grader(value)
    assert not report.passed
    str(report)


class CollidingKey:
    """Hashes like a name a grader looks up, so that lookup runs its __eq__ (once armed)."""

    armed = False

    def __init__(self, like):
        self.like = like

    def __hash__(self):
        return hash(self.like)

    def __eq__(self, other):
        if CollidingKey.armed:
            raise Boom("a hostile __eq__ ran")
        return False


@pytest.mark.parametrize("like", ["ok", "errors", "role", "patches", "path"])
def test_dict_keys_that_collide_with_the_names_a_grader_looks_up(like):
    def run_tests(repo):
        CollidingKey.armed = False
        result = {**reference_run_tests(repo), CollidingKey(like): 1}
        CollidingKey.armed = True
        return result

    def reviewer(goal, view):
        CollidingKey.armed = False
        out = nits_reviewer(goal, view)
        out[CollidingKey(like)] = 1
        out["patches"][0][CollidingKey(like)] = 1
        CollidingKey.armed = True
        return out
    try:
        assert_failing_report(grade_run_tests(run_tests))
        assert_failing_report(grade_nits_reviewer(reviewer))
    finally:
        CollidingKey.armed = False
    assert grade_run_tests(reference_run_tests).passed and grade_nits_reviewer(nits_reviewer).passed


# --- part 6: a hostile value is a wrong shape, never something the grader trips over -----------------

def outcomes_with(index, value):
    """A run_outcomes that is right except that outcome ``index`` is ``value`` (a function of it)."""
    def learner(run):
        outcomes = reference_outcomes(run)
        outcomes[index] = value(outcomes[index])
        return outcomes
    return learner


@pytest.mark.parametrize("value", [lambda o: ExplodingDict(o), lambda o: {**o, "status": ExplodingStr("success")},
                                   lambda o: {**o, "risk": Exploding()}], ids=["dict", "status", "risk"])
def test_run_outcomes_hostile_outcomes_fail_the_shape(value):
    report = grade_run_outcomes(outcomes_with(0, value))
    assert_failing_report(report)
    assert [c.name for c in report.checks if c.passed is False] == ["shape"], str(report)
    assert grade_run_outcomes(reference_outcomes).passed


def test_my_fault_hostile_values_fail_the_shape():
    def evidence(run):
        return None
    for fault in (ExplodingDict(name="x", kwargs={"max_rounds": 1}, expect="budget", evidence=evidence),
                  {"name": "x", "kwargs": {"max_rounds": 1}, "expect": ExplodingStr("budget"), "evidence": evidence}):
        report = grade_my_fault(fault)
        assert [c.name for c in report.checks if c.passed is False] == ["shape"], str(report)


def test_a_run_outcomes_that_wrecks_its_run_poisons_nothing():
    """The graded runs are made once and shared by every grading: the learner only ever gets a copy."""
    def wrecker(run):
        outcomes = reference_outcomes(run)
        run.trace.clear()
        run.repo.clear()
        return outcomes
    assert grade_run_outcomes(wrecker).passed
    assert grade_run_outcomes(wrecker).passed and grade_run_outcomes(reference_outcomes).passed
