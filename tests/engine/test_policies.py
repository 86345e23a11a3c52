"""The fake policies, output checking and verdict parsing."""

import json

import pytest

from agent_team.policies import (DEFAULT_POLICIES, FIZZ_ONLY_SOURCE, FULL_SOURCE, PLAN_TEXT, TEXT_CAP,
                                 BadOutput, check_output, fake_coder, fake_planner, fake_reviewer,
                                 for_trace, nits_reviewer, output, read_verdict, review_patch)
from agent_team.repo import MAX_CONTENT, PLAN_PATH, REVIEW_PATH, SRC_PATH, apply_turn, initial_repo

GOAL = "Implement fizzbuzz"
RED = {"ok": False, "errors": ["fizzbuzz(5) returned '5', expected 'Buzz'", "second error"],
       "passed": 2, "failed": 2}
GREEN = {"ok": True, "errors": [], "passed": 4, "failed": 0}


def schema_ok(out, role):
    assert set(out) == {"role", "thought", "patches", "message"}
    assert out["role"] == role
    assert isinstance(out["thought"], str) and isinstance(out["message"], str)
    assert isinstance(out["patches"], list)
    assert check_output(role, out) == out  # the fakes follow their own schema


def verdict_of(out):
    (p,) = out["patches"]
    assert p["path"] == REVIEW_PATH
    return json.loads(p["content"])


# --- planner ----------------------------------------------------------------------------------

def test_planner_writes_a_three_bullet_plan_when_there_is_none():
    out = fake_planner(GOAL, {"goal": GOAL, "test_spec": "...", "plan": ""})
    schema_ok(out, "planner")
    assert out["patches"] == [{"path": PLAN_PATH, "content": PLAN_TEXT}]
    bullets = [line for line in PLAN_TEXT.splitlines() if line.startswith("- ")]
    assert len(bullets) == 3
    assert "15" in PLAN_TEXT and "str(n)" in PLAN_TEXT and "test" in PLAN_TEXT


@pytest.mark.parametrize("plan", [PLAN_TEXT, "- anything\n", "x"])
def test_planner_is_a_no_op_once_a_plan_exists(plan):
    out = fake_planner(GOAL, {"goal": GOAL, "test_spec": "...", "plan": plan})
    schema_ok(out, "planner")
    assert out["patches"] == []


@pytest.mark.parametrize("plan", ["", "   \n\t"])
def test_planner_treats_a_blank_plan_as_no_plan(plan):
    assert fake_planner(GOAL, {"plan": plan})["patches"]


def test_planner_patch_passes_its_own_allowlist():
    out = fake_planner(GOAL, {"plan": ""})
    new, error = apply_turn(initial_repo(), "planner", out["patches"])
    assert error is None and new[PLAN_PATH] == PLAN_TEXT


# --- coder ------------------------------------------------------------------------------------

def test_coder_first_cut_is_fizz_only():
    out = fake_coder(GOAL, {"plan": PLAN_TEXT, "source": "", "last_tests": None})
    schema_ok(out, "coder")
    assert out["patches"] == [{"path": SRC_PATH, "content": FIZZ_ONLY_SOURCE}]


def test_coder_writes_the_full_solution_after_a_failing_test():
    out = fake_coder(GOAL, {"plan": PLAN_TEXT, "source": FIZZ_ONLY_SOURCE, "last_tests": RED})
    schema_ok(out, "coder")
    assert out["patches"] == [{"path": SRC_PATH, "content": FULL_SOURCE}]


def test_coder_after_green_tests_goes_back_to_the_first_cut():
    # two-phase means: it reacts to a *failing* test event, and only to that
    out = fake_coder(GOAL, {"last_tests": GREEN})
    assert out["patches"][0]["content"] == FIZZ_ONLY_SOURCE


def test_coder_sources_behave_as_their_names_say():
    def load(src):
        ns = {}
        exec(src, ns)  # our own fixed source, in a test
        return ns["fizzbuzz"]
    fizz, full = load(FIZZ_ONLY_SOURCE), load(FULL_SOURCE)
    cases = {1: "1", 3: "Fizz", 5: "Buzz", 15: "FizzBuzz", 7: "7", 30: "FizzBuzz", 9: "Fizz", 10: "Buzz"}
    assert all(full(n) == want for n, want in cases.items())
    assert fizz(3) == "Fizz" and fizz(1) == "1" and fizz(5) != "Buzz" and fizz(15) != "FizzBuzz"


# --- reviewer ---------------------------------------------------------------------------------

def test_reviewer_approves_on_green_tests():
    out = fake_reviewer(GOAL, {"last_tests": GREEN})
    schema_ok(out, "reviewer")
    assert verdict_of(out) == {"verdict": "approve", "notes": "tests green"}


def test_reviewer_requests_changes_with_the_first_error():
    out = fake_reviewer(GOAL, {"last_tests": RED})
    schema_ok(out, "reviewer")
    assert verdict_of(out) == {"verdict": "request_changes", "notes": RED["errors"][0]}
    assert out["message"] == RED["errors"][0]
    assert "second error" not in json.dumps(out)


@pytest.mark.parametrize("last", [None, {"ok": False, "errors": [], "passed": 0, "failed": 4}])
def test_reviewer_without_an_error_to_name_still_requests_changes(last):
    assert verdict_of(fake_reviewer(GOAL, {"last_tests": last}))["verdict"] == "request_changes"


def test_reviewer_patch_is_a_legal_verdict():
    out = fake_reviewer(GOAL, {"last_tests": RED})
    new, error = apply_turn(initial_repo(), "reviewer", out["patches"])
    assert error is None
    verdict, problem = read_verdict(new[REVIEW_PATH])
    assert problem is None and verdict["verdict"] == "request_changes"


def test_default_policies_are_the_fakes():
    assert DEFAULT_POLICIES == {"planner": fake_planner, "coder": fake_coder, "reviewer": fake_reviewer}


# --- nits reviewer ----------------------------------------------------------------------------

@pytest.mark.parametrize("asked, message", [(0, RED["errors"][0]), (1, RED["errors"][0]),
                                            (2, RED["errors"][0]), (3, "escalate"), (5, "escalate")])
def test_nits_reviewer_escalates_after_three_requests(asked, message):
    past = ["request_changes"] * asked
    out = nits_reviewer(GOAL, {"last_tests": RED, "past_verdicts": past})
    schema_ok(out, "reviewer")
    assert out["message"] == message
    assert verdict_of(out) == {"verdict": "request_changes", "notes": RED["errors"][0]}


def test_nits_reviewer_counts_only_request_changes():
    past = ["approve", "request_changes", "approve", "request_changes"]
    assert nits_reviewer(GOAL, {"last_tests": RED, "past_verdicts": past})["message"] != "escalate"


def test_nits_reviewer_limit_is_configurable():
    out = nits_reviewer(GOAL, {"last_tests": RED, "past_verdicts": ["request_changes"]}, limit=1)
    assert out["message"] == "escalate"


def test_nits_reviewer_approves_green_tests_however_many_times_it_asked():
    out = nits_reviewer(GOAL, {"last_tests": GREEN, "past_verdicts": ["request_changes"] * 9})
    assert verdict_of(out)["verdict"] == "approve" and out["message"] != "escalate"


# --- check_output -----------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [None, "approve", 42, ["patches"], ("coder", "x"), b"{}"])
def test_check_output_rejects_non_dicts(bad):
    with pytest.raises(BadOutput, match="not a dict"):
        check_output("coder", bad)


@pytest.mark.parametrize("claimed", ["planner", "reviewer", "tester", None, 3])
def test_check_output_rejects_a_policy_speaking_for_another_role(claimed):
    with pytest.raises(BadOutput, match="claims to be"):
        check_output("coder", {"role": claimed, "patches": []})


@pytest.mark.parametrize("patches", ["src/fizzbuzz.py", {"path": SRC_PATH, "content": ""}, 3, True])
def test_check_output_rejects_non_list_patches(patches):
    with pytest.raises(BadOutput, match="'patches' must be a list"):
        check_output("coder", {"role": "coder", "patches": patches})


@pytest.mark.parametrize("field", ["thought", "message"])
@pytest.mark.parametrize("value", [42, ["a"], {"a": 1}, b"bytes"])
def test_check_output_rejects_non_string_text(field, value):
    with pytest.raises(BadOutput, match=f"'{field}' must be a string"):
        check_output("coder", {"role": "coder", "patches": [], field: value})


def test_check_output_fills_in_missing_fields():
    assert check_output("planner", {}) == {"role": "planner", "thought": "", "patches": [], "message": ""}
    assert check_output("planner", {"patches": None, "thought": None})["patches"] == []


def test_check_output_returns_a_copy_with_a_list_of_patches():
    patches = ({"path": SRC_PATH, "content": "x"},)
    original = {"role": "coder", "thought": "t", "patches": patches, "message": "m", "extra": "dropped"}
    clean = check_output("coder", original)
    assert clean == {"role": "coder", "thought": "t", "patches": [patches[0]], "message": "m"}
    clean["patches"].append("more")
    assert original["patches"] == patches


def test_check_output_leaves_patch_contents_to_the_allowlist():
    # shape only: bad patch *items* pass here and are refused by apply_turn
    out = check_output("coder", {"patches": ["garbage", {"path": "/etc"}]})
    assert out["patches"] == ["garbage", {"path": "/etc"}]


def test_check_output_caps_huge_text():
    huge = "x" * 1_000_000
    out = check_output("coder", {"thought": huge, "message": huge})
    for field in ("thought", "message"):
        assert len(out[field]) < TEXT_CAP + 100
        assert out[field].startswith("x" * (TEXT_CAP - 1) + "…")
        assert out[field].endswith("[1,000,000 characters]")


def test_check_output_keeps_text_at_the_cap_whole():
    text = "y" * TEXT_CAP
    assert check_output("coder", {"thought": text})["thought"] == text


# --- helpers ----------------------------------------------------------------------------------

def test_output_builds_the_schema():
    assert output("coder", "t", ({"path": "p", "content": "c"},), "m") == {
        "role": "coder", "thought": "t", "patches": [{"path": "p", "content": "c"}], "message": "m"}


def test_for_trace_keeps_plain_patches_and_caps_garbage():
    assert for_trace({"path": SRC_PATH, "content": "abc"}) == {"path": SRC_PATH, "content": "abc"}
    big = for_trace({"path": SRC_PATH, "content": "z" * (MAX_CONTENT * 3)})
    assert len(big["content"]) == MAX_CONTENT
    junk = for_trace(["not", "a", "dict"] * 10_000)
    assert junk["path"] is None and isinstance(junk["content"], str) and len(junk["content"]) < 3_000
    odd = for_trace({"path": 3, "content": None})
    assert odd == {"path": "<int, not a string>", "content": "<NoneType, not a string>"}


def test_review_patch_is_json():
    p = review_patch("approve", "fine")
    assert p["path"] == REVIEW_PATH and json.loads(p["content"]) == {"verdict": "approve", "notes": "fine"}


# --- read_verdict -----------------------------------------------------------------------------

@pytest.mark.parametrize("verdict", ["approve", "request_changes"])
def test_read_verdict_accepts_both_verdicts(verdict):
    got, problem = read_verdict(json.dumps({"verdict": verdict, "notes": "n"}))
    assert problem is None and got == {"verdict": verdict, "notes": "n"}


def test_read_verdict_defaults_and_stringifies_notes():
    assert read_verdict('{"verdict": "approve"}') == ({"verdict": "approve", "notes": ""}, None)
    assert read_verdict('{"verdict": "approve", "notes": ["a"]}')[0]["notes"] == "['a']"


@pytest.mark.parametrize("text, reason", [
    ("not json", "not JSON"),
    ("", "not JSON"),
    ("[]", "'approve' or"),
    ('"approve"', "'approve' or"),
    ('{"verdict": "APPROVE"}', "'approve' or"),
    ('{"verdict": "lgtm"}', "'approve' or"),
    ('{"notes": "fine"}', "'approve' or"),
    (None, "not JSON"),
])
def test_read_verdict_rejects_bad_reviews(text, reason):
    got, problem = read_verdict(text)
    assert got is None and reason in problem


def test_read_verdict_survives_absurdly_nested_json():
    got, problem = read_verdict("[" * (MAX_CONTENT - 1))
    assert got is None and problem
