"""Exercise 1.1: the wrong readings of the wave-4 corpus (issue 35, item 5), written from the text
(notebooks/source/01_architecture.py, exercise 1.1 and its check table), each rejected by the check
of its row, first; and right ones in other styles, accepted.

| the row says | wrong reading | mutant |
|---|---|---|
| `type before ==`: exactly a `str` | `isinstance`: a `str` subclass whose `==` lies scores 4/4 | ``isinstance_check`` |
| `one fresh dict`: a new dict every call | one dict per source text, reused | ``dict_per_source`` |
| (same) | one module dict, cleared and reused | ``cleared_and_reused`` |
| `errors explain`: named by its type | its text, its type only when the text is empty | ``text_when_any`` |

Measured: before this file's grader changes all 4 were accepted; now all 4 are rejected by their
row first. The 4 right styles (a module's fresh ``__dict__``, a dict with ``__name__``, a missing
``fizzbuzz`` found with ``.get`` and told in words, a ``callable`` check) pass before and after.
"""

import types

import pytest
from grader_helpers import assert_accepted, assert_rejected_by
from test_ex_1_1_wrong_readings import judge, load

from agent_team.grading import grade_run_tests
from agent_team.oracle import CASES
from agent_team.repo import SRC_PATH


def isinstance_check(repo):
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
        if isinstance(got, str) and got == want:
            passed += 1
        else:
            errors.append(f"fizzbuzz({n}) returned {got!r}")
    return {"ok": not errors, "passed": passed, "failed": 4 - passed, "errors": errors}


PER_SOURCE = {}


def dict_per_source(repo):
    text = repo.get(SRC_PATH, "")
    fizzbuzz, failed = load(text, PER_SOURCE.setdefault(text, {}))
    return failed or judge(fizzbuzz)


MODULE_DICT = {}


def cleared_and_reused(repo):
    MODULE_DICT.clear()
    fizzbuzz, failed = load(repo.get(SRC_PATH, ""), MODULE_DICT)
    return failed or judge(fizzbuzz)


def text_when_any(repo):
    fizzbuzz, failed = load(repo.get(SRC_PATH, ""), {}, describe=lambda err: str(err) or type(err).__name__)
    if failed:
        return failed
    errors, passed = [], 0
    for n, want in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:  # noqa: BLE001 -- learner code, as learners write it
            errors.append(f"fizzbuzz({n}) failed: {str(err) or type(err).__name__}")
            continue
        if type(got) is str and got == want:
            passed += 1
        else:
            errors.append(f"fizzbuzz({n}) returned {got!r}")
    return {"ok": not errors, "passed": passed, "failed": 4 - passed, "errors": errors}


WRONG = {
    "isinstance_check": (isinstance_check, "type before =="),
    "dict_per_source": (dict_per_source, "one fresh dict"),
    "cleared_and_reused": (cleared_and_reused, "one fresh dict"),
    "text_when_any": (text_when_any, "errors explain"),
}


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_reading_is_rejected_by_its_row_first(name):
    fn, check = WRONG[name]
    assert_rejected_by(grade_run_tests(fn), check)


def module_dict(repo):
    fizzbuzz, failed = load(repo.get(SRC_PATH, ""), types.ModuleType("learner_source").__dict__)
    return failed or judge(fizzbuzz)


def named_dict(repo):
    fizzbuzz, failed = load(repo.get(SRC_PATH, ""), {"__name__": "fizzbuzz_source"})
    return failed or judge(fizzbuzz)


def told_in_words(repo):
    namespace = {}
    try:
        exec(repo.get(SRC_PATH, ""), namespace)
    except Exception as err:  # noqa: BLE001 -- learner code, as learners write it
        return {"ok": False, "passed": 0, "failed": 4, "errors": [f"could not load: {type(err).__name__}: {err}"]}
    fizzbuzz = namespace.get("fizzbuzz")
    if not callable(fizzbuzz):
        return {"ok": False, "passed": 0, "failed": 4, "errors": ["the source defines no fizzbuzz function"]}
    return judge(fizzbuzz)


RIGHT = {"a module's fresh __dict__": module_dict, "a dict with __name__": named_dict,
         "a missing or uncallable fizzbuzz told in words": told_in_words}


@pytest.mark.parametrize("name", RIGHT)
def test_a_right_reading_in_another_style_passes(name):
    assert_accepted(grade_run_tests(RIGHT[name]))
