"""Exercise 4.2, a hardening rule: wrong rules written from the exercise text (each breaks one
sentence of it) are rejected by the check naming that sentence; correct ones are accepted.

Measured (the test below keeps it true): 33 of 33 wrong rules rejected with the right first check, 8 of 8
correct ones accepted."""

import re

import pytest
from grader_helpers import assert_accepted, assert_rejected_by

from agent_team.grading import grade_hardening


def token_exec_call(role, patch):
    if role == "coder" and ("exec(" in patch["content"] or "__import__(" in patch["content"]):
        return "no exec"
    return None


def word_boundaries(role, patch):
    if role == "coder" and re.search(r"\b(exec|__import__)\b", patch["content"]):
        return "no exec"
    return None


def split_tokens(role, patch):
    words = patch["content"].split()
    if role == "coder" and ("exec" in words or "__import__" in words):
        return "no exec"
    return None


def refuses_every_import(role, patch):
    if role == "coder" and ("exec" in patch["content"] or "import" in patch["content"]):
        return "no imports, no exec"
    return None


def refuses_eval_too(role, patch):
    if role == "coder" and any(w in patch["content"] for w in ("exec", "__import__", "eval")):
        return "no dynamic code"
    return None


def refuses_exe_prefix(role, patch):
    if role == "coder" and ("exe" in patch["content"] or "__import__" in patch["content"]):
        return "no exec"
    return None


def ignores_case(role, patch):
    text = patch["content"].lower()
    if role == "coder" and ("exec" in text or "__import__" in text):
        return "no exec"
    return None


def checks_the_path_too(role, patch):
    if role == "coder" and ("exec" in patch["content"] + patch["path"] or "__import__" in patch["content"]):
        return "no exec"
    return None


def any_role(role, patch):
    if "exec" in patch["content"] or "__import__" in patch["content"]:
        return f"{role} may not use exec"
    return None


def every_role_but_the_planner(role, patch):
    if role != "planner" and ("exec" in patch["content"] or "__import__" in patch["content"]):
        return "no exec"
    return None


def coder_and_tester(role, patch):
    if role in ("coder", "tester") and ("exec" in patch["content"] or "__import__" in patch["content"]):
        return "no exec"
    return None


def python_files(role, patch):
    if patch["path"].endswith(".py") and ("exec" in patch["content"] or "__import__" in patch["content"]):
        return "no exec in Python files"
    return None


def the_source_file(role, patch):
    if patch["path"] == "src/fizzbuzz.py" and ("exec" in patch["content"] or "__import__" in patch["content"]):
        return "no exec in the source"
    return None


def coder_python_files_only(role, patch):
    if role == "coder" and patch["path"].endswith(".py") and (
            "exec" in patch["content"] or "__import__" in patch["content"]):
        return "no exec"
    return None


def exec_only(role, patch):
    if role == "coder" and "exec" in patch["content"]:
        return "no exec"
    return None


def import_only(role, patch):
    if role == "coder" and "__import__" in patch["content"]:
        return "no __import__"
    return None


def returns_true(role, patch):
    return True if role == "coder" and ("exec" in patch["content"] or "__import__" in patch["content"]) else None


def returns_empty_reason(role, patch):
    return "" if role == "coder" and ("exec" in patch["content"] or "__import__" in patch["content"]) else None


def returns_blank_reason(role, patch):
    return "   " if role == "coder" and ("exec" in patch["content"] or "__import__" in patch["content"]) else None


def returns_false_to_allow(role, patch):
    if role == "coder" and ("exec" in patch["content"] or "__import__" in patch["content"]):
        return "no exec"
    return False


def returns_empty_to_allow(role, patch):
    if role == "coder" and ("exec" in patch["content"] or "__import__" in patch["content"]):
        return "no exec"
    return ""


def returns_a_list(role, patch):
    found = [w for w in ("exec", "__import__") if w in patch["content"]]
    return found if role == "coder" and found else None


def quotes_the_whole_patch(role, patch):
    if role == "coder" and ("exec" in patch["content"] or "__import__" in patch["content"]):
        return f"refused: {patch['content']}"
    return None


def first_line_only(role, patch):
    first = patch["content"].split("\n", 1)[0]
    if role == "coder" and ("exec" in first or "__import__" in first):
        return "no exec"
    return None


def first_hundred_characters(role, patch):
    head = patch["content"][:100]
    if role == "coder" and ("exec" in head or "__import__" in head):
        return "no exec"
    return None


def skips_comments(role, patch):
    code = "\n".join(line.split("#", 1)[0] for line in patch["content"].splitlines())
    if role == "coder" and ("exec" in code or "__import__" in code):
        return "no exec"
    return None


def only_when_called_twice(role, patch):
    if role == "coder" and (patch["content"].count("exec") > 1 or "__import__" in patch["content"]):
        return "no exec"
    return None


def starts_with(role, patch):
    text = patch["content"].lstrip()
    if role == "coder" and (text.startswith("exec") or "__import__" in text):
        return "no exec"
    return None


def dunder_and_import(role, patch):
    text = patch["content"]
    if role == "coder" and ("exec" in text or ("__" in text and "import" in text)):
        return "no exec"
    return None


def crashes_on_other_roles(role, patch):
    assert role == "coder", "only coder patches are checked"
    if "exec" in patch["content"] or "__import__" in patch["content"]:
        return "no exec"
    return None


def sanitises_instead(role, patch):
    if role == "coder":
        patch["content"] = patch["content"].replace("exec", "").replace("__import__", "")
    return None


SEEN = set()


def remembers_what_it_refused(role, patch):
    """Refuses each content once; the same patch again goes through."""
    if role == "coder" and ("exec" in patch["content"] or "__import__" in patch["content"]):
        if patch["content"] not in SEEN:
            SEEN.add(patch["content"])
            return "no exec"
    return None


def import_with_paren(role, patch):
    if role == "coder" and ("exec" in patch["content"] or "__import__(" in patch["content"]):
        return "no exec"
    return None


MUTANTS = {
    token_exec_call: "refuses exec",
    word_boundaries: "refuses exec",
    split_tokens: "refuses exec",
    refuses_every_import: "allows the rest",
    refuses_eval_too: "allows the rest",
    refuses_exe_prefix: "allows the rest",
    ignores_case: "allows the rest",
    checks_the_path_too: "allows the rest",
    any_role: "other roles",
    every_role_but_the_planner: "other roles",
    coder_and_tester: "other roles",
    python_files: "refuses exec",
    the_source_file: "refuses exec",
    coder_python_files_only: "refuses exec",
    exec_only: "refuses __import__",
    import_only: "refuses exec",
    returns_true: "refuses exec",
    returns_empty_reason: "refuses exec",
    returns_blank_reason: "refuses exec",
    returns_false_to_allow: "allows the rest",
    returns_empty_to_allow: "allows the rest",
    returns_a_list: "refuses exec",
    quotes_the_whole_patch: "refuses exec",
    first_line_only: "refuses exec",
    first_hundred_characters: "refuses exec",
    skips_comments: "refuses exec",
    only_when_called_twice: "refuses exec",
    starts_with: "refuses exec",
    dunder_and_import: "allows the rest",
    crashes_on_other_roles: "other roles",
    sanitises_instead: "refuses exec",
    remembers_what_it_refused: "refuses exec",
    import_with_paren: "refuses __import__",
}


# -- correct, in different styles ---------------------------------------------------------------

def with_any(role, patch):
    if role != "coder":
        return None
    return "exec and __import__ are not allowed" if any(w in patch["content"] for w in ("exec", "__import__")) else None


def with_regex(role, patch):
    match = re.search(r"exec|__import__", patch["content"])
    if role == "coder" and match:
        return f"found {match.group()!r} at character {match.start()}"
    return None


def with_find(role, patch):
    text = patch["content"]
    if role == "coder" and (text.find("exec") >= 0 or text.find("__import__") != -1):
        return "refused: dynamic code"
    return None


def with_count(role, patch):
    hits = patch["content"].count("exec") + patch["content"].count("__import__")
    return "no exec or __import__ in code" if role == "coder" and hits else None


with_lambda = lambda role, patch: ("no exec" if role == "coder" and ("exec" in patch["content"]  # noqa: E731 -- a lambda is the style under test
                                                                   or "__import__" in patch["content"]) else None)


class Rule:
    banned = ("exec", "__import__")

    def __call__(self, role, patch):
        if role == "coder":
            for word in self.banned:
                if word in patch["content"]:
                    return f"the coder used {word}"
        return None


def early_exit(role, patch):
    if role != "coder":
        return
    content = patch["content"]
    if "exec" in content:
        return "exec is not allowed"
    if "__import__" in content:
        return "__import__ is not allowed"


def partition_style(role, patch):
    if role == "coder":
        for word in ("exec", "__import__"):
            if patch["content"].partition(word)[1]:
                return word + " is refused"
    return None


CORRECT = [with_any, with_regex, with_find, with_count, with_lambda, Rule(), early_exit, partition_style]


@pytest.mark.parametrize("fn", list(MUTANTS), ids=lambda f: f.__name__)
def test_every_wrong_rule_is_rejected_by_the_rule_it_breaks(fn):
    assert_rejected_by(grade_hardening(fn), MUTANTS[fn])


@pytest.mark.parametrize("fn", CORRECT, ids=lambda f: getattr(f, "__name__", type(f).__name__))
def test_every_correct_rule_is_accepted(fn):
    assert_accepted(grade_hardening(fn))


def test_the_suites_are_big_enough():
    assert len(MUTANTS) >= 30 and len(CORRECT) >= 8
    assert re.search(rf"{len(MUTANTS)} of {len(MUTANTS)} wrong .* {len(CORRECT)} of {len(CORRECT)}\s+correct",
                     __doc__, re.S)


def test_a_wrong_rule_leaves_the_supervisor_check_not_run_not_passed():
    report = grade_hardening(lambda role, patch: None)  # right on the other roles, never refuses
    status = {c.name: c.passed for c in report.checks}
    assert status == {"refuses exec": False, "refuses __import__": False, "allows the rest": True,
                      "other roles": True, "in the supervisor": None}
    assert report.outcome == "not yet"
