"""Exercise 1.1: wrong readings an unseen corpus and a learner walk found accepted or puzzling,
each now rejected by the check of its sentence with a message that names it.

| the text says | wrong reading | mutant |
|---|---|---|
| `exec` the source into a fresh dict | one dict kept between calls, emptied of `fizzbuzz` only | ``keeps_the_rest`` |
| (same) | the caller's own dict, `globals()` | ``into_globals`` |
| (same) | a cache of answers by source (state kept between calls) | ``cache_by_source`` |
| a result counts if it is exactly the expected str (type first) | `got == want` first, no try | ``compares_first`` |
| every exception named by its type (its text may be empty) | the text, `str(err)`, names it | ``text_only`` |

``cache_by_source`` is kept as a *right* style: a source always runs the same, so a cache keyed by
its whole text cannot change an answer (the grader has no case that tells it apart, and needs none).
Measured: before, ``keeps_the_rest``, ``into_globals`` and ``compares_first`` were accepted (3 of
4 wrong readings; ``text_only`` was rejected with a puzzling message); now all 4 are rejected.
Also: no grader source opens with a class any more unless its case needs one, so a correct
``fizzbuzz`` of the grader passes the course's own oracle.
"""

import pytest
from grader_helpers import assert_accepted, assert_rejected_by

from agent_team import progress
from agent_team.grading import grade_run_tests
from agent_team.grading.ex_run_tests import NAMED, RANDOM, source
from agent_team.oracle import CASES
from agent_team.oracle import run_tests as oracle
from agent_team.repo import SRC_PATH, initial_repo


def judge(fizzbuzz, compare_first=False):
    errors, passed = [], 0
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
            ok = (got == want and type(got) is str) if compare_first else None
        except Exception as err:  # noqa: BLE001 -- learner code, as learners write it
            errors.append(f"fizzbuzz({n}) raised {type(err).__name__}: {err}")
            continue
        if not compare_first:
            ok = type(got) is str and got == want
        if ok:
            passed += 1
        else:
            errors.append(f"fizzbuzz({n}) returned {got!r}")
    return {"ok": not errors, "passed": passed, "failed": len(CASES) - passed, "errors": errors}


def load(text, namespace, describe=lambda err: f"{type(err).__name__}: {err}"):
    try:
        exec(text, namespace)
        return namespace["fizzbuzz"], None
    except Exception as err:  # noqa: BLE001 -- learner code, as learners write it
        return None, {"ok": False, "passed": 0, "failed": 4, "errors": [f"could not load: {describe(err)}"]}


KEPT = {}


def keeps_the_rest(repo):
    KEPT.pop("fizzbuzz", None)  # "fresh" enough: the old fizzbuzz is gone, its helpers stay
    fizzbuzz, failed = load(repo.get(SRC_PATH, ""), KEPT)
    return failed or judge(fizzbuzz)


def into_globals(repo):
    globals().pop("fizzbuzz", None)
    fizzbuzz, failed = load(repo.get(SRC_PATH, ""), globals())
    return failed or judge(fizzbuzz)


def compares_first(repo):
    fizzbuzz, failed = load(repo.get(SRC_PATH, ""), {})
    if failed:
        return failed
    errors, passed = [], 0
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:  # noqa: BLE001 -- learner code, as learners write it
            errors.append(f"fizzbuzz({n}) raised {type(err).__name__}: {err}")
            continue
        if got == want and type(got) is str:  # == first: it runs the result's own code, outside the try
            passed += 1
        else:
            errors.append(f"fizzbuzz({n}) returned {got!r}")
    return {"ok": not errors, "passed": passed, "failed": 4 - passed, "errors": errors}


def text_only(repo):
    fizzbuzz, failed = load(repo.get(SRC_PATH, ""), {}, describe=str)
    if failed:
        return failed
    out = judge(fizzbuzz)
    return out


CACHE = {}


def cache_by_source(repo):
    text = repo.get(SRC_PATH, "")
    if text not in CACHE:
        fizzbuzz, failed = load(text, {})
        CACHE[text] = failed or judge(fizzbuzz)
    return {**CACHE[text], "errors": list(CACHE[text]["errors"])}


WRONG = {
    "keeps_the_rest": (keeps_the_rest, "one fresh dict", "earlier"),
    "into_globals": (into_globals, "one fresh dict", "your own"),
    "compares_first": (compares_first, "type before ==", "=="),
    "text_only": (text_only, "errors explain", "type(err).__name__"),
}


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_reading_is_rejected_by_its_sentence(name):
    fn, check, words = WRONG[name]
    report = grade_run_tests(fn)
    assert_rejected_by(report, check)
    assert words in report.check(check).detail, report.check(check).detail


def test_a_cache_keyed_by_the_whole_source_is_a_right_style():
    assert_accepted(grade_run_tests(cache_by_source))


def test_the_graders_correct_fizzbuzz_passes_the_courses_own_oracle():
    assert oracle({**initial_repo(), SRC_PATH: source({})})["ok"]
    named = dict(NAMED)
    assert oracle({**initial_repo(), SRC_PATH: named["a correct fizzbuzz"]})["ok"]
    classless = [text for _, text in NAMED + RANDOM if "Oops" not in text and "class" in text]
    assert not classless, classless[0]  # a class only where its case needs one


def test_the_closing_hint_is_the_one_for_the_first_failing_check(tmp_path, monkeypatch):
    # A shared dict fails "one fresh dict": hint 2 says to make a new dict on every call, hint 1
    # (compile, missing fizzbuzz, raising cases) would send the learner to the wrong sentence. The
    # ladder is never skipped, so before the nudge is seen the report only points at the hints.
    monkeypatch.setenv("AGENT_TEAM_PROGRESS", str(tmp_path / "progress.json"))
    report = grade_run_tests(keeps_the_rest)
    assert '"show hint 1 of 3"' in report.hint and "Three things" not in report.hint, report.hint
    progress.record_hint("1.1", 1)
    report = grade_run_tests(keeps_the_rest)
    assert "new dict inside `run_tests` on every call" in report.hint, report.hint
    assert "one fresh dict" in report.hint and "hint 2" in report.hint, report.hint
    assert "one fresh dict" in str(report).split("Hint:")[-1]


SHARED = {}


def one_dict_for_all(repo):
    # The walk's attempt 4: one module-level dict, never emptied, so a grading run starts with
    # whatever fizzbuzz the last call left in it.
    try:
        exec(repo.get(SRC_PATH, ""), SHARED)
        fizzbuzz = SHARED["fizzbuzz"]
    except Exception as err:  # noqa: BLE001 -- learner code, as learners write it
        return {"ok": False, "passed": 0, "failed": 4, "errors": [f"could not load: {type(err).__name__}"]}
    return judge(fizzbuzz)


def test_a_dict_kept_from_before_the_grading_run_is_explained_not_just_counted():
    SHARED.clear()
    one_dict_for_all({SRC_PATH: source({5: "str(n)", 15: "'Fizz'"})})  # an earlier run in the notebook
    report = grade_run_tests(one_dict_for_all)
    assert_rejected_by(report, "one fresh dict")
    detail = report.check("one fresh dict").detail
    # "scored 2 of 4" alone reads oddly for a source with nothing to run: say what it should score.
    assert "must score 0 of 4" in detail and "earlier call" in detail, detail


def test_the_oops_a_message_names_is_said_to_be_the_sources_own_exception():
    named = [what for what, text in NAMED if "Oops" in what]
    assert named and all("exception class" in what and "bare" not in what for what in named), named
