"""Exercise 4.2: the wave-4 corpus's wrong readings (issue 35, item 5), written from the text
(notebooks/source/04_failure_injection.py, exercise 4.2 and its check table): what a rule refuses
beyond its sentence, and a role compared by identity. Each is rejected by its row, first.

| the row says | wrong reading | mutant |
|---|---|---|
| allows the rest: None for any other coder patch | also refuses other risky words | ``also refuses ...``, 7 |
| (same) | refuses a coder patch outside src/ | ``refuses_outside_src`` |
| other roles: judged by the role | the role compared with ``is`` (holds while interned) | ``role ... identity`` |

Measured: before this file's grader changes, 8 of these 9 were accepted (all but the path one);
now all 9 are rejected by their row first, the identity one with a message that names ``is``. Two
right rules in other styles pass before and after.
"""

import pytest
from grader_helpers import assert_accepted, assert_rejected_by

from agent_team.grading import grade_hardening
from agent_team.repo import SRC_PATH


def rule(refuse_also=(), role_is=lambda role: role == "coder", path_ok=lambda path: True):
    def no_exec(role, patch):
        content = patch["content"]
        if not role_is(role):
            return None
        for word in ("exec", "__import__", *refuse_also):
            if word in content:
                return f"coder patches may not use {word}"
        if not path_ok(patch["path"]):
            return "coder patches stay in src/"
        return None
    return no_exec


CODER = "coder"  # a learner's literal: the same object as the grader's own "coder", until it is not
WORDS = ("subprocess", "os.system", "open(", "__builtins__", "getattr", "globals", "breakpoint")
WRONG = {
    **{f"also refuses {w!r}": (rule(refuse_also=(w,)), "allows the rest") for w in WORDS},
    "refuses a coder patch outside src/": (rule(path_ok=lambda path: path.startswith("src/")), "allows the rest"),
    "the role compared by identity": (rule(role_is=lambda role: role is CODER), "refuses exec"),
}


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_reading_is_rejected_by_its_row_first(name):
    fn, check = WRONG[name]
    assert_rejected_by(grade_hardening(fn), check)


def any_style(role, patch):
    if role != "coder":
        return None
    text = str(patch.get("content", ""))
    hits = [w for w in ("exec", "__import__") if w in text]
    return f"refused: {hits[0]} in {patch.get('path', SRC_PATH)}" if hits else None


RIGHT = {"the default rule": rule(), "any style": any_style}


@pytest.mark.parametrize("name", RIGHT)
def test_a_right_rule_in_another_style_passes(name):
    assert_accepted(grade_hardening(RIGHT[name]))
