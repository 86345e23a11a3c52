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
