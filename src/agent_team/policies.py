"""Role policies: the functions that fill the planner, coder and reviewer slots.

Every policy has the same shape, ``policy(goal, view) -> output``, and every
output the same schema::

    {"role": "planner" | "coder" | "reviewer",
     "thought": str,                 # kept in the trace, never used for control
     "patches": [{"path": str, "content": str}, ...],
     "message": str}

The policies here are scripted fakes, so that the orchestration around them is
the hard part. A *view* is what the supervisor shows a role on its turn (see
:mod:`agent_team.views`); a policy never sees the repo or the trace itself.
"""

import json

from .clip import clip
from .repo import MAX_CONTENT, PLAN_PATH, REVIEW_PATH, SRC_PATH

VERDICTS = ("approve", "request_changes")

PLAN_TEXT = (
    "- Implement fizzbuzz(n) in src/fizzbuzz.py: check 15 first, then 3, then 5\n"
    "- Every other number comes back as str(n)\n"
    "- Leave tests/test_fizzbuzz.py alone: it is the spec, and it is read-only\n"
)

FIZZ_ONLY_SOURCE = (
    "def fizzbuzz(n):\n"
    "    if n % 3 == 0:\n"
    "        return 'Fizz'\n"
    "    return str(n)\n"
)

FULL_SOURCE = (
    "def fizzbuzz(n):\n"
    "    if n % 15 == 0:\n"
    "        return 'FizzBuzz'\n"
    "    if n % 3 == 0:\n"
    "        return 'Fizz'\n"
    "    if n % 5 == 0:\n"
    "        return 'Buzz'\n"
    "    return str(n)\n"
)


# What an output is made of; "attempts" is the model slot's record of its calls. The supervisor
# reads nothing else a policy returns (a turn's ``ignored`` lists what it left out).
OUTPUT_KEYS = ("role", "thought", "patches", "message", "attempts")


def output(role, thought, patches=(), message=""):
    """Build one policy output in the common schema."""
    return {"role": role, "thought": thought, "patches": list(patches), "message": message}


def fake_planner(goal, view):
    """Write a three-bullet plan once; once a plan exists, do nothing (no planner loops)."""
    if view.get("plan", "").strip():
        return output("planner", "a plan already exists", message="skip")
    return output("planner", "write the plan",
                  [{"path": PLAN_PATH, "content": PLAN_TEXT}], "planned")


def fake_coder(goal, view):
    """Two-phase coder: a Fizz-only first cut, the full solution once a test has failed.

    What changes its mind is a test result that the supervisor placed in its
    view, not anything another role said: evidence drives the next attempt.
    """
    last = view.get("last_tests")
    # No test run yet: the first cut. Green tests end the run before the coder speaks again (the
    # supervisor overrides a request for changes on them), so "ok" reaches a coder only under a
    # supervisor changed to go on; this one then starts over rather than guess.
    if last is None or last.get("ok"):
        source, thought = FIZZ_ONLY_SOURCE, "first cut: only Fizz"
    else:
        source, thought = FULL_SOURCE, "the tests failed: add Buzz and FizzBuzz"
    return output("coder", thought, [{"path": SRC_PATH, "content": source}], thought)


def review_patch(verdict, notes):
    """The reviewer's one legal write: a verdict in REVIEW.json."""
    return {"path": REVIEW_PATH, "content": json.dumps({"verdict": verdict, "notes": notes})}


def fake_reviewer(goal, view):
    """Approve when the last test run was green; otherwise ask for changes, naming the first error."""
    last = view.get("last_tests")
    if last and last.get("ok"):
        verdict, notes = "approve", "tests green"
    elif last and last.get("errors"):
        verdict, notes = "request_changes", last["errors"][0]
    else:
        verdict, notes = "request_changes", "no test results yet"
    return output("reviewer", verdict, [review_patch(verdict, notes)], notes)


def nits_reviewer(goal, view, limit=3):
    """The reviewer with a nits counter (the exercise of part 2, worked).

    Green tests: approve, however ugly the plan. Red tests: request changes,
    but once it has already asked ``limit`` times, its message is ``escalate``
    so that a person (or the supervisor) steps in instead of another round of nits.
    """
    last = view.get("last_tests")
    if last and last.get("ok"):
        return output("reviewer", "approve", [review_patch("approve", "tests green")], "tests green")
    asked = sum(1 for v in view.get("past_verdicts", ()) if v == "request_changes")
    notes = last["errors"][0] if last and last.get("errors") else "no test results yet"
    message = "escalate" if asked >= limit else notes
    return output("reviewer", "request_changes", [review_patch("request_changes", notes)], message)


# The course's fake for every role of the table in roles.py (a test checks that none is missing).
DEFAULT_POLICIES = {"planner": fake_planner, "coder": fake_coder, "reviewer": fake_reviewer}


class BadOutput(ValueError):
    """A policy's output does not follow the schema; ``str(err)`` says how."""


TEXT_CAP = 2_000  # thoughts and messages are narration: keep the trace readable


def _text(value, field):
    if value is None:
        return ""
    if type(value) is not str:  # exact type: a str subclass could run code on every use
        raise BadOutput(f"its {field!r} must be a string, not {type(value).__name__}")
    return clip(value, TEXT_CAP, count=True)


def check_output(role, out):
    """Return a clean copy of ``out`` or raise :class:`BadOutput` saying what is wrong.

    Patches are only checked for shape here; what they may write is the
    allowlist's business (:func:`agent_team.repo.check_turn`).
    """
    # Exact types, never repr(): a policy's output may be a hostile object or
    # nested deep enough to overflow the stack (fatal in the browser).
    if type(out) is not dict:
        raise BadOutput(f"it returned {type(out).__name__}, not a dict with "
                        "'role', 'thought', 'patches' and 'message'")
    claimed = out.get("role", role)
    if claimed != role:
        shown = repr(claimed[:40]) if type(claimed) is str else f"a {type(claimed).__name__}"
        raise BadOutput(f"it claims to be {shown}; a policy speaks only for its own slot")
    patches = out.get("patches", [])
    if patches is None:
        patches = []
    if type(patches) not in (list, tuple):
        raise BadOutput(f"its 'patches' must be a list, not {type(patches).__name__}")
    return {"role": role, "thought": _text(out.get("thought"), "thought"),
            "patches": list(patches), "message": _text(out.get("message"), "message")}


def _described(value, cap):
    return clip(value, cap) if type(value) is str else f"<{type(value).__name__}, not a string>"


def for_trace(patch):
    """A patch as the trace keeps it: plain strings, capped, whatever the policy sent."""
    if type(patch) is not dict:
        return {"path": None, "content": f"<{type(patch).__name__}, not a patch dict>"}
    return {"path": _described(patch.get("path"), 200),
            "content": _described(patch.get("content"), MAX_CONTENT)}


MAX_JSON_DEPTH = 32


def json_depth(text):
    """How deeply brackets nest in ``text`` (outside strings), counted without recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def read_verdict(text):
    """Parse REVIEW.json as a verdict: ``({"verdict", "notes"}, None)`` or ``(None, reason)``."""
    if type(text) is not str:
        return None, f"REVIEW.json is not JSON (it holds a {type(text).__name__})"
    if json_depth(text) > MAX_JSON_DEPTH:  # json.loads recurses: keep it off deep input
        return None, f"REVIEW.json nests brackets more than {MAX_JSON_DEPTH} deep; a verdict is one flat object"
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as err:
        return None, f"REVIEW.json is not JSON ({err})"
    if type(data) is not dict or data.get("verdict") not in VERDICTS:
        return None, ("REVIEW.json must be an object whose 'verdict' is 'approve' or "
                      "'request_changes'")
    notes = data.get("notes", "")
    return {"verdict": data["verdict"], "notes": notes if isinstance(notes, str) else str(notes)}, None
