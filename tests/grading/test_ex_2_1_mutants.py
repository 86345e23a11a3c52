"""Exercise 2.1, the nits counter: wrong reviewers written from the exercise text (each breaks one
sentence of it) are rejected by the check naming that sentence; correct ones are accepted.

Measured (the test below keeps it true): 36 of 36 wrong solutions rejected with the right first check, 8 of 8
correct ones accepted."""

import json
import re

import pytest
from grader_helpers import assert_accepted, assert_rejected_by

from agent_team.grading import grade_nits_reviewer
from agent_team.policies import output, review_patch

NITS_LIMIT = 3
NONE_YET = "no test results yet"


def _is_green(view):
    last = view.get("last_tests")
    return bool(last) and last["ok"]


def _notes(view):
    last = view["last_tests"]
    return last["errors"][0] if last else NONE_YET


def _reply(verdict, notes, message):
    return output("reviewer", "reviewing", [review_patch(verdict, notes)], message)


def _counting(count):
    """A reviewer that is right except for how it counts past requests (``count(past)``)."""
    def reviewer(goal, view):
        if _is_green(view):
            return _reply("approve", "tests green", "tests green")
        notes = _notes(view)
        asked = count(view["past_verdicts"])
        return _reply("request_changes", notes, "escalate" if asked >= NITS_LIMIT else notes)
    return reviewer


def _trailing(past):
    n = 0
    for v in reversed(past):
        if v != "request_changes":
            break
        n += 1
    return n


trailing_in_a_row = _counting(_trailing)
last_three_only = _counting(lambda past: past[-3:].count("request_changes"))
counts_approvals_too = _counting(len)
resets_on_approval = _counting(lambda past: (past[::-1].index("approve") if "approve" in past else len(past)))
first_three_only = _counting(lambda past: past[:3].count("request_changes"))
counts_distinct = _counting(lambda past: len(set(past)) + past.count("request_changes") // 2)
counts_this_request = _counting(lambda past: past.count("request_changes") + 1)


def _limit(test):
    """A reviewer that is right except for when it escalates (``test(asked)``)."""
    def reviewer(goal, view):
        if _is_green(view):
            return _reply("approve", "tests green", "tests green")
        notes = _notes(view)
        asked = view["past_verdicts"].count("request_changes")
        return _reply("request_changes", notes, "escalate" if test(asked) else notes)
    return reviewer


escalates_one_late = _limit(lambda asked: asked > NITS_LIMIT)
escalates_one_early = _limit(lambda asked: asked >= NITS_LIMIT - 1)
escalates_only_at_three = _limit(lambda asked: asked == NITS_LIMIT)
never_escalates = _limit(lambda asked: False)
escalates_from_the_start = _limit(lambda asked: True)


def escalate_capitalised(goal, view):
    if _is_green(view):
        return _reply("approve", "ok", "ok")
    notes = _notes(view)
    asked = view["past_verdicts"].count("request_changes")
    return _reply("request_changes", notes, "Escalate" if asked >= 3 else notes)


def escalate_with_reason(goal, view):
    if _is_green(view):
        return _reply("approve", "ok", "ok")
    notes = _notes(view)
    asked = view["past_verdicts"].count("request_changes")
    return _reply("request_changes", notes, f"escalate: {notes}" if asked >= 3 else notes)


def approves_when_escalating(goal, view):
    if _is_green(view):
        return _reply("approve", "ok", "ok")
    notes = _notes(view)
    if view["past_verdicts"].count("request_changes") >= 3:
        return _reply("approve", notes, "escalate")
    return _reply("request_changes", notes, notes)


def approves_nearly_green(goal, view):
    last = view["last_tests"]
    if last and (last["ok"] or last["passed"] >= 2):
        return _reply("approve", "close enough", "close enough")
    notes = _notes(view)
    asked = view["past_verdicts"].count("request_changes")
    return _reply("request_changes", notes, "escalate" if asked >= 3 else notes)


def nits_on_green_after_requests(goal, view):
    asked = view["past_verdicts"].count("request_changes")
    if _is_green(view) and asked == 0:
        return _reply("approve", "ok", "ok")
    notes = _notes(view) if not _is_green(view) else "still not happy"
    return _reply("request_changes", notes, "escalate" if asked >= 3 else notes)


def escalates_on_green_too(goal, view):
    asked = view["past_verdicts"].count("request_changes")
    if _is_green(view):
        return _reply("approve", "tests green", "escalate" if asked >= 3 else "tests green")
    notes = _notes(view)
    return _reply("request_changes", notes, "escalate" if asked >= 3 else notes)


def last_error_as_notes(goal, view):
    if _is_green(view):
        return _reply("approve", "ok", "ok")
    last = view["last_tests"]
    notes = last["errors"][-1] if last else NONE_YET
    asked = view["past_verdicts"].count("request_changes")
    return _reply("request_changes", notes, "escalate" if asked >= 3 else notes)


def all_errors_as_notes(goal, view):
    if _is_green(view):
        return _reply("approve", "ok", "ok")
    last = view["last_tests"]
    notes = "; ".join(last["errors"]) if last else NONE_YET
    asked = view["past_verdicts"].count("request_changes")
    return _reply("request_changes", notes, "escalate" if asked >= 3 else notes)


def short_notes(goal, view):
    if _is_green(view):
        return _reply("approve", "ok", "ok")
    notes = _notes(view)[:60]
    asked = view["past_verdicts"].count("request_changes")
    return _reply("request_changes", notes, "escalate" if asked >= 3 else notes)


def notes_say_escalate(goal, view):
    if _is_green(view):
        return _reply("approve", "ok", "ok")
    notes = _notes(view)
    if view["past_verdicts"].count("request_changes") >= 3:
        return _reply("request_changes", "escalate", "escalate")
    return _reply("request_changes", notes, notes)


def no_notes_key(goal, view):
    if _is_green(view):
        return _reply("approve", "ok", "ok")
    notes = _notes(view)
    escalate = view["past_verdicts"].count("request_changes") >= 3
    patch = {"path": "REVIEW.json", "content": json.dumps({"verdict": "request_changes"})}
    return output("reviewer", "red", [patch], "escalate" if escalate else notes)


def generic_message(goal, view):
    if _is_green(view):
        return _reply("approve", "ok", "ok")
    notes = _notes(view)
    escalate = view["past_verdicts"].count("request_changes") >= 3
    return _reply("request_changes", notes, "escalate" if escalate else "please fix the failing tests")


def verdict_as_message(goal, view):
    if _is_green(view):
        return _reply("approve", "ok", "approve")
    notes = _notes(view)
    escalate = view["past_verdicts"].count("request_changes") >= 3
    return _reply("request_changes", notes, "escalate" if escalate else "request_changes")


def no_report_is_green(goal, view):
    last = view["last_tests"]
    if last is None or last["ok"]:
        return _reply("approve", "ok", "ok")
    notes = last["errors"][0]
    escalate = view["past_verdicts"].count("request_changes") >= 3
    return _reply("request_changes", notes, "escalate" if escalate else notes)


def crashes_without_report(goal, view):
    last = view["last_tests"]
    if last["ok"]:
        return _reply("approve", "ok", "ok")
    notes = last["errors"][0]
    escalate = view["past_verdicts"].count("request_changes") >= 3
    return _reply("request_changes", notes, "escalate" if escalate else notes)


def other_words_without_report(goal, view):
    last = view["last_tests"]
    if last and last["ok"]:
        return _reply("approve", "ok", "ok")
    notes = last["errors"][0] if last else "the tests have not run"
    escalate = view["past_verdicts"].count("request_changes") >= 3
    return _reply("request_changes", notes, "escalate" if escalate else notes)


def two_patches(goal, view):
    out = _counting(lambda past: past.count("request_changes"))(goal, view)
    out["patches"].append({"path": "PLAN.md", "content": "- fix the failing tests\n"})
    return out


def wrong_path(goal, view):
    out = _counting(lambda past: past.count("request_changes"))(goal, view)
    out["patches"][0]["path"] = "review.json"
    return out


def verdict_as_plain_text(goal, view):
    verdict = "approve" if _is_green(view) else "request_changes"
    notes = "ok" if _is_green(view) else _notes(view)
    escalate = not _is_green(view) and view["past_verdicts"].count("request_changes") >= 3
    return output("reviewer", "r", [{"path": "REVIEW.json", "content": verdict}], "escalate" if escalate else notes)


def content_as_a_dict(goal, view):
    out = _counting(lambda past: past.count("request_changes"))(goal, view)
    out["patches"][0]["content"] = json.loads(out["patches"][0]["content"])
    return out


def escalate_as_verdict(goal, view):
    if _is_green(view):
        return _reply("approve", "ok", "ok")
    notes = _notes(view)
    if view["past_verdicts"].count("request_changes") >= 3:
        return _reply("escalate", notes, "escalate")
    return _reply("request_changes", notes, notes)


def capitalised_role(goal, view):
    out = _counting(lambda past: past.count("request_changes"))(goal, view)
    out["role"] = "Reviewer"
    return out


def patches_as_tuple(goal, view):
    out = _counting(lambda past: past.count("request_changes"))(goal, view)
    out["patches"] = tuple(out["patches"])
    return out


def message_none_on_green(goal, view):
    if _is_green(view):
        return {"role": "reviewer", "thought": "green", "patches": [review_patch("approve", "ok")], "message": None}
    return _counting(lambda past: past.count("request_changes"))(goal, view)


for _name, _fn in list(globals().items()):  # the factories' reviewers carry their mutant's name
    if getattr(_fn, "__name__", "") == "reviewer":
        _fn.__name__ = _name

MUTANTS = {
    trailing_in_a_row: "counts requests",
    last_three_only: "counts requests",
    counts_approvals_too: "counts requests",
    resets_on_approval: "counts requests",
    first_three_only: "counts requests",
    counts_distinct: "escalate at the limit",
    counts_this_request: "escalate at the limit",
    escalates_one_late: "escalate at the limit",
    escalates_one_early: "escalate at the limit",
    escalates_only_at_three: "escalate at the limit",
    never_escalates: "escalate at the limit",
    escalates_from_the_start: "escalate at the limit",
    escalate_capitalised: "escalate at the limit",
    escalate_with_reason: "escalate at the limit",
    approves_when_escalating: "red: request_changes",
    approves_nearly_green: "red: request_changes",
    nits_on_green_after_requests: "green: approve",
    escalates_on_green_too: "green: approve",
    last_error_as_notes: "notes",
    all_errors_as_notes: "notes",
    short_notes: "notes",
    notes_say_escalate: "notes",
    no_notes_key: "notes",
    generic_message: "message",
    verdict_as_message: "message",
    no_report_is_green: "no test report",
    crashes_without_report: "no test report",
    other_words_without_report: "no test report",
    two_patches: "output schema",
    wrong_path: "output schema",
    verdict_as_plain_text: "output schema",
    content_as_a_dict: "output schema",
    escalate_as_verdict: "output schema",
    capitalised_role: "output schema",
    patches_as_tuple: "output schema",
    message_none_on_green: "output schema",
}


# -- correct, in different styles ---------------------------------------------------------------

def plain(goal, view):
    last = view.get("last_tests")
    if last and last.get("ok"):
        return output("reviewer", "green", [review_patch("approve", "tests green")], "tests green")
    notes = last["errors"][0] if last and last.get("errors") else "no test results yet"
    asked = list(view.get("past_verdicts", [])).count("request_changes")
    message = "escalate" if asked >= NITS_LIMIT else notes
    return output("reviewer", f"asked {asked} times", [review_patch("request_changes", notes)], message)


def with_sum(goal, view):
    tests = view["last_tests"]
    if tests is not None and tests["ok"] is True:
        return output("reviewer", "approve", [review_patch("approve", "")], "")
    reason = tests["errors"][0] if tests is not None else NONE_YET
    nits = sum(v == "request_changes" for v in view["past_verdicts"])
    return output("reviewer", "changes", [review_patch("request_changes", reason)],
                  reason if nits < NITS_LIMIT else "escalate")


def hand_written_json(goal, view):
    green = view["last_tests"] is not None and view["last_tests"]["ok"]
    if green:
        body = '{"verdict": "approve", "notes": "green"}'
        return {"role": "reviewer", "thought": "green", "patches": [{"path": "REVIEW.json", "content": body}],
                "message": "green"}
    notes = view["last_tests"]["errors"][0] if view["last_tests"] else "no test results yet"
    body = json.dumps({"notes": notes, "verdict": "request_changes"})
    count = len([v for v in view["past_verdicts"] if v == "request_changes"])
    return {"role": "reviewer", "thought": "red", "patches": [{"path": "REVIEW.json", "content": body}],
            "message": "escalate" if count > 2 else notes}


def counter_loop(goal, view):
    count = 0
    for verdict in view["past_verdicts"]:
        if verdict == "request_changes":
            count += 1
    last = view["last_tests"]
    if last and last["ok"]:
        return output("reviewer", "ship it", [review_patch("approve", "all four pass")], "ship it")
    first = last["errors"][0] if last else "no test results yet"
    return output("reviewer", "nit", [review_patch("request_changes", first)],
                  "escalate" if count >= NITS_LIMIT else first)


def early_returns(goal, view):
    last = view.get("last_tests")
    if last is None:
        notes = "no test results yet"
    elif last["ok"]:
        return output("reviewer", "ok", [review_patch("approve", "ok")])
    else:
        notes = last["errors"][0]
    if view["past_verdicts"].count("request_changes") < NITS_LIMIT:
        return output("reviewer", "again", [review_patch("request_changes", notes)], notes)
    return output("reviewer", "a person should look", [review_patch("request_changes", notes)], "escalate")


def mutates_its_view(goal, view):
    view["past_verdicts"].append("request_changes")  # scribbles on its own copy, then counts the rest
    asked = view["past_verdicts"].count("request_changes") - 1
    last = view["last_tests"]
    if last and last["ok"]:
        last["ok"] = False
        return output("reviewer", "ok", [review_patch("approve", "ok")], "ok")
    notes = last["errors"].pop(0) if last else NONE_YET
    return output("reviewer", "r", [review_patch("request_changes", notes)],
                  "escalate" if asked >= NITS_LIMIT else notes)


class Counter:
    limit = NITS_LIMIT

    def __call__(self, goal, view):
        return self.review(view["last_tests"], view["past_verdicts"])

    def review(self, tests, past):
        if tests and tests["ok"]:
            return output("reviewer", "approve", [review_patch("approve", "tests green")], "approved")
        notes = tests["errors"][0] if tests else NONE_YET
        too_many = past.count("request_changes") >= self.limit
        return output("reviewer", "request changes", [review_patch("request_changes", notes)],
                      "escalate" if too_many else notes)


def via_filter(goal, view):
    requests = list(filter(lambda v: v == "request_changes", view["past_verdicts"]))
    match view["last_tests"]:
        case {"ok": True}:
            return output("reviewer", "green", [review_patch("approve", "fine")], "fine")
        case None:
            notes = NONE_YET
        case tests:
            notes = tests["errors"][0]
    return output("reviewer", "red", [review_patch("request_changes", notes)],
                  notes if len(requests) < 3 else "escalate")


CORRECT = [plain, with_sum, hand_written_json, counter_loop, early_returns, mutates_its_view, Counter(),
           via_filter]


@pytest.mark.parametrize("fn", list(MUTANTS), ids=lambda f: f.__name__)
def test_every_wrong_reviewer_is_rejected_by_the_rule_it_breaks(fn):
    assert_rejected_by(grade_nits_reviewer(fn), MUTANTS[fn])


@pytest.mark.parametrize("fn", CORRECT, ids=lambda f: getattr(f, "__name__", type(f).__name__))
def test_every_correct_reviewer_is_accepted(fn):
    assert_accepted(grade_nits_reviewer(fn))


def test_the_suites_are_big_enough():
    assert len(MUTANTS) >= 30 and len(CORRECT) >= 8
    assert re.search(rf"{len(MUTANTS)} of {len(MUTANTS)} wrong .* {len(CORRECT)} of {len(CORRECT)}\s+correct",
                     __doc__, re.S)


def test_checks_no_readable_output_reached_show_as_not_run_not_passed():
    report = grade_nits_reviewer(lambda goal, view: {"verdict": "approve"})  # never the output schema
    assert {c.name: c.passed for c in report.checks} == {
        "output schema": False, "green: approve": None, "red: request_changes": None, "notes": None,
        "message": None, "escalate at the limit": None, "counts requests": None, "no test report": None}
    assert report.outcome == "not yet"
