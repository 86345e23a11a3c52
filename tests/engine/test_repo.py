"""The shared repo: allowlists, patch validation, all-or-nothing turns."""

import copy

import pytest

from agent_team import repo as R
from agent_team.repo import (ALLOWLIST, MAX_CONTENT, MAX_PATCHES, PLAN_PATH, REVIEW_PATH, SRC_PATH,
                             TESTS_PATH, PatchRejected, apply_turn, check_patch, check_path,
                             initial_repo, repo_problem)

OWN = {"planner": PLAN_PATH, "coder": SRC_PATH, "reviewer": REVIEW_PATH}


def patch(path, content="x"):
    return {"path": path, "content": content}


# --- the initial repo -------------------------------------------------------------------------

def test_initial_repo_has_the_four_files_and_the_stub():
    repo = initial_repo()
    assert set(repo) == {SRC_PATH, TESTS_PATH, PLAN_PATH, REVIEW_PATH}
    assert repo[SRC_PATH] == R.STUB_SOURCE
    assert repo[PLAN_PATH] == ""
    assert "READ ONLY" in repo[TESTS_PATH]


def test_initial_repo_is_fresh_each_time():
    a = initial_repo()
    a[SRC_PATH] = "changed"
    assert initial_repo()[SRC_PATH] == R.STUB_SOURCE


# --- allowlists -------------------------------------------------------------------------------

def test_allowlists_are_exactly_one_file_per_role():
    assert all(len(paths) == 1 for paths in ALLOWLIST.values())
    assert {role: set(ALLOWLIST[role]) for role in ("planner", "coder", "reviewer")} == {
        "planner": {PLAN_PATH}, "coder": {SRC_PATH}, "reviewer": {REVIEW_PATH}}


@pytest.mark.parametrize("role", sorted(OWN))
def test_each_role_may_write_its_own_file(role):
    repo = initial_repo()
    new, error = apply_turn(repo, role, [patch(OWN[role], "new text")])
    assert error is None
    assert new[OWN[role]] == "new text"
    assert {p: v for p, v in new.items() if p != OWN[role]} == {
        p: v for p, v in repo.items() if p != OWN[role]}


@pytest.mark.parametrize("role, path", [
    (role, path) for role in sorted(OWN)
    for path in (SRC_PATH, PLAN_PATH, REVIEW_PATH, "notes.txt", "src/other.py") if path != OWN[role]])
def test_no_role_may_write_outside_its_allowlist(role, path):
    repo = initial_repo()
    new, error = apply_turn(repo, role, [patch(path)])
    assert new is repo and new == initial_repo()
    assert "allowlist" in error and repr(path) in error and role in error


@pytest.mark.parametrize("role", ["planner", "coder", "reviewer", "tester", "admin", ""])
def test_the_test_file_is_writable_by_no_role(role):
    new, error = apply_turn(initial_repo(), role, [patch(TESTS_PATH, "# all pass\n")])
    assert error and "may not write" in error
    assert new[TESTS_PATH] == R.TEST_SPEC


def test_unknown_role_may_write_nothing():
    with pytest.raises(PatchRejected, match="nothing"):
        check_patch("intruder", patch(SRC_PATH))


# --- path rules -------------------------------------------------------------------------------

@pytest.mark.parametrize("path, reason", [
    ("../PLAN.md", "'..'"),
    ("src/../src/fizzbuzz.py", "'..'"),
    ("..", "'..'"),
    ("/PLAN.md", "absolute"),
    ("/etc/passwd", "absolute"),
    ("C:/PLAN.md", "absolute"),
    ("src\\fizzbuzz.py", "backslash"),
    ("PLAN.md\x00", "control"),
    ("PLAN\n.md", "control"),
    ("PLAN.md\r", "control"),
    ("\x1b[2JPLAN.md", "control"),
    ("PLAN\u200b.md", "control"),  # zero-width space (format char, category Cf)
    ("", "empty"),
    (None, "must be a string"),
    (3, "must be a string"),
    (["PLAN.md"], "must be a string"),
])
def test_bad_paths_are_rejected_with_a_reason(path, reason):
    with pytest.raises(PatchRejected) as info:
        check_path(path)
    assert reason in str(info.value)
    # and through a whole turn, for every role: nothing lands, the reason is in the error
    for role in OWN:
        repo = initial_repo()
        new, error = apply_turn(repo, role, [patch(path)])
        assert new is repo and repo == initial_repo()
        assert reason in error


@pytest.mark.parametrize("path", [PLAN_PATH, SRC_PATH, "a/b.c", "a..b.md", "x-y_z.txt"])
def test_clean_relative_paths_pass_the_path_check(path):
    assert check_path(path) is None


def test_dotdot_inside_a_name_is_not_a_climb_but_is_still_outside_the_allowlist():
    # "a..b.md" is a legal name, so the refusal comes from the allowlist, not from '..'
    with pytest.raises(PatchRejected, match="allowlist"):
        check_patch("planner", patch("a..b.md"))


def test_path_rules_apply_even_before_the_allowlist():
    # an absolute path that *ends* in an allowed name is refused as absolute
    with pytest.raises(PatchRejected, match="absolute"):
        check_patch("planner", patch("/" + PLAN_PATH))


# --- content and shape rules ------------------------------------------------------------------

@pytest.mark.parametrize("content", [None, 42, b"bytes", ["list"], {"a": 1}, 3.5, True])
def test_non_string_content_is_rejected(content):
    repo = initial_repo()
    new, error = apply_turn(repo, "coder", [patch(SRC_PATH, content)])
    assert new is repo
    assert "must be a string" in error and type(content).__name__ in error


def test_content_at_the_cap_is_accepted_and_over_the_cap_rejected():
    new, error = apply_turn(initial_repo(), "planner", [patch(PLAN_PATH, "x" * MAX_CONTENT)])
    assert error is None and len(new[PLAN_PATH]) == MAX_CONTENT
    repo = initial_repo()
    new, error = apply_turn(repo, "planner", [patch(PLAN_PATH, "x" * (MAX_CONTENT + 1))])
    assert new is repo and repo[PLAN_PATH] == ""
    assert "cap" in error and f"{MAX_CONTENT:,}" in error


def test_empty_content_is_a_legal_write():
    repo = {**initial_repo(), PLAN_PATH: "- old plan\n"}
    new, error = apply_turn(repo, "planner", [patch(PLAN_PATH, "")])
    assert error is None and new[PLAN_PATH] == ""


@pytest.mark.parametrize("bad", [None, "PLAN.md", ("PLAN.md", "x"), ["PLAN.md", "x"], 7])
def test_a_patch_that_is_not_a_dict_is_rejected(bad):
    repo = initial_repo()
    new, error = apply_turn(repo, "planner", [bad])
    assert new is repo and "must be a dict" in error


@pytest.mark.parametrize("bad, missing", [
    ({"content": "x"}, "'path'"),
    ({"path": PLAN_PATH}, "'content'"),
    ({}, "'path' or 'content'"),
    ({"file": PLAN_PATH, "text": "x"}, "'path' or 'content'"),
])
def test_a_patch_missing_keys_says_which(bad, missing):
    repo = initial_repo()
    new, error = apply_turn(repo, "planner", [bad])
    assert new is repo and f"has no {missing}" in error


@pytest.mark.parametrize("patches", [None, "PLAN.md", {"path": PLAN_PATH, "content": "x"}, 3])
def test_patches_must_be_a_list(patches):
    repo = initial_repo()
    new, error = apply_turn(repo, "planner", patches)
    assert new is repo and "must be a list" in error


def test_too_many_patches_in_one_turn_are_rejected():
    ok = [patch(PLAN_PATH, f"v{i}") for i in range(MAX_PATCHES)]
    new, error = apply_turn(initial_repo(), "planner", ok)
    assert error is None and new[PLAN_PATH] == f"v{MAX_PATCHES - 1}"  # the last write wins
    repo = initial_repo()
    new, error = apply_turn(repo, "planner", ok + [patch(PLAN_PATH, "one too many")])
    assert new is repo and repo[PLAN_PATH] == ""
    assert "cap" in error and str(MAX_PATCHES + 1) in error and error.endswith("no patch of this turn was applied")


def test_an_empty_turn_is_legal_and_changes_nothing():
    repo = initial_repo()
    new, error = apply_turn(repo, "planner", [])
    assert error is None and new == repo


def test_a_tuple_of_patches_is_accepted():
    new, error = apply_turn(initial_repo(), "coder", (patch(SRC_PATH, "y = 1\n"),))
    assert error is None and new[SRC_PATH] == "y = 1\n"


# --- all or nothing, no mutation ----------------------------------------------------------------

@pytest.mark.parametrize("bad", [
    patch(TESTS_PATH), patch("../x"), patch(SRC_PATH, 5), "garbage", {"path": SRC_PATH}])
@pytest.mark.parametrize("position", [0, 1, 2])
def test_one_bad_patch_means_nothing_of_the_turn_lands(bad, position):
    good = [patch(SRC_PATH, "first\n"), patch(SRC_PATH, "second\n")]
    patches = good[:position] + [bad] + good[position:]
    repo = initial_repo()
    snapshot = copy.deepcopy(repo)
    new, error = apply_turn(repo, "coder", patches)
    assert new is repo and repo == snapshot
    assert error.startswith(f"patch {position + 1} of 3: ")
    assert error.endswith("no patch of this turn was applied")


def test_a_single_patch_error_has_no_position_prefix():
    _, error = apply_turn(initial_repo(), "coder", [patch(TESTS_PATH)])
    assert not error.startswith("patch 1")


def test_the_input_repo_is_never_mutated_on_success():
    repo = initial_repo()
    snapshot = copy.deepcopy(repo)
    new, error = apply_turn(repo, "coder", [patch(SRC_PATH, "def fizzbuzz(n): pass\n")])
    assert error is None
    assert repo == snapshot
    assert new is not repo
    new["extra"] = "x"
    assert "extra" not in repo


def test_the_input_patch_list_is_not_mutated():
    patches = [patch(SRC_PATH, "a"), patch(TESTS_PATH, "b")]
    snapshot = copy.deepcopy(patches)
    apply_turn(initial_repo(), "coder", patches)
    assert patches == snapshot


def test_files_the_turn_does_not_touch_are_kept_including_extra_ones():
    repo = {**initial_repo(), "README.md": "hello"}
    new, error = apply_turn(repo, "planner", [patch(PLAN_PATH, "- plan\n")])
    assert error is None and new["README.md"] == "hello" and new[TESTS_PATH] == R.TEST_SPEC


def test_a_role_may_create_its_file_when_it_is_missing():
    repo = {SRC_PATH: R.STUB_SOURCE}
    new, error = apply_turn(repo, "reviewer", [patch(REVIEW_PATH, "{}")])
    assert error is None and new[REVIEW_PATH] == "{}" and REVIEW_PATH not in repo


def test_rejection_messages_are_short_even_for_huge_paths():
    huge = "\x00" + "a" * 100_000
    _, error = apply_turn(initial_repo(), "coder", [patch(huge)])
    assert len(error) < 300


@pytest.mark.parametrize("value, words", [
    ({"src/fizzbuzz.py": "x"}, None), ({}, None), ([("a", "b")], "not list"),
    ({1: "x"}, "but the key 1 is int"), ({"a": b"x"}, "but 'a' holds bytes"),
    (type("Sub", (dict,), {})(a="x"), "not Sub"), ({"a": type("Text", (str,), {})("x")}, "but 'a' holds Text"),
])
def test_a_repo_is_a_plain_dict_of_str_to_str_and_anything_else_is_named(value, words):
    assert repo_problem(value) == words
