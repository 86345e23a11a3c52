"""Exercise 4.2: the wrong reading an unseen corpus found accepted: the forbidden word inside a
string literal ("that is only text, not a use").

| the text says | wrong reading | mutant |
|---|---|---|
| the content contains `exec` (plain text, anywhere) | a string literal is data: skip it | ``skips_string_literals`` |
| (same) | only names count: the word as a whole token outside strings | ``names_and_comments_only`` |

Measured: before, ``skips_string_literals`` was accepted (1 of 2; ``names_and_comments_only`` was
already refused by other cases); now both are rejected by ``refuses exec`` or ``refuses __import__``.
"""

import io
import re
import tokenize

import pytest
from grader_helpers import assert_rejected_by

from agent_team.grading import grade_hardening

STRINGS = re.compile(r"(\"\"\"|'''|\"|')(?:\\.|(?!\1).)*\1", re.S)


def skips_string_literals(role, patch):
    content = patch.get("content")
    if role != "coder" or type(content) is not str:
        return None
    code = STRINGS.sub("''", content)
    for word in ("exec", "__import__"):
        if word in code:
            return f"coder patches may not use {word}"
    return None


def names_and_comments_only(role, patch):
    content = patch.get("content")
    if role != "coder" or type(content) is not str:
        return None
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(content).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None  # not Python: nothing to judge, it says
    for tok in tokens:
        if tok.type in (tokenize.NAME, tokenize.COMMENT) and ("exec" in tok.string or "__import__" in tok.string):
            return f"coder patches may not use {tok.string}"
    return None


WRONG = {
    "skips_string_literals": (skips_string_literals, ("refuses exec", "refuses __import__")),
    "names_and_comments_only": (names_and_comments_only, ("refuses exec", "refuses __import__")),
}


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_reading_is_rejected(name):
    fn, checks = WRONG[name]
    report = grade_hardening(fn)
    assert not report.passed, str(report)
    first = next(c for c in report.checks if c.passed is False)
    assert first.name in checks, str(report)
    assert_rejected_by(report, first.name)


def brackets_only(role, patch):
    content = patch.get("content")
    if role == "coder" and isinstance(content, str) and ("exec(" in content or "__import__(" in content):
        return "no exec"
    return None


def raises_to_refuse(role, patch):
    if role == "coder" and "exec" in str(patch.get("content")):
        raise PermissionError("exec not allowed")
    return None


def word_bounded(role, patch):
    import re
    content = patch.get("content")
    if role == "coder" and isinstance(content, str) and re.search(r"\b(exec|__import__)\b", content):
        return "no exec"
    return None


def test_none_returned_is_said_as_letting_the_patch_through_not_as_a_nonetype():
    detail = grade_hardening(brackets_only).check("refuses exec").detail
    assert "NoneType" not in detail and "returned None, which lets the patch through" in detail, detail


def test_a_raised_refusal_is_told_why_a_reason_is_returned_as_a_str():
    detail = grade_hardening(raises_to_refuse).check("refuses exec").detail
    assert "PermissionError" in detail and "return the reason as a str" in detail, detail
    assert "fails closed" in detail, detail  # and that the supervisor refuses the turn anyway


def test_a_random_case_says_it_is_one_so_its_content_does_not_look_like_a_bug():
    report = grade_hardening(word_bounded)
    detail = next(c.detail for c in report.checks if c.passed is False and "random" in c.detail)
    assert "a random patch" in detail and "pieces" in detail, detail
