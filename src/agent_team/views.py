"""Views: what each role is shown on its turn (its observation channel).

The supervisor keeps the full trace; each role gets a narrow view built from
it. Narrow views stop roles from imitating each other (a planner that reads
code starts writing code) and keep prompts short once the roles are models.
Every view is a fresh copy, so a policy that scribbles on it changes nothing.
"""

import copy

from .repo import PLAN_PATH, REVIEW_PATH, SRC_PATH, TESTS_PATH
from .roles import ALLOWLIST, VIEW_FIELDS  # which facts each role may see (its row's ``sees``); a table in part 2
from .trace import last, turns

__all__ = ["VIEW_FIELDS", "FACTS", "last_tests", "verdicts", "make_view"]

# Every fact a view can hold; a role's row in roles.py picks some of them.
FACTS = ("goal", "test_spec", "plan", "source", "last_tests", "review", "past_verdicts")


def last_tests(trace):
    """The report of the latest test run in the trace, or None before the first run."""
    event = last(trace, "tests")
    return None if event is None else event["tests"]


def verdicts(trace):
    """Every verdict the reviewer has given so far, oldest first."""
    # only the role that owns REVIEW.json gives verdicts
    return [e["verdict"] for e in turns(trace)
            if e.get("verdict") and REVIEW_PATH in ALLOWLIST.get(e.get("role"), ())]


def _summary(report):
    # The coder needs what failed, not the whole table.
    if report is None:
        return None
    return {key: report[key] for key in ("ok", "passed", "failed", "errors")}


def make_view(role, goal, repo, trace):
    """The view ``role`` receives, given the repo and the trace so far."""
    past = verdicts(trace)
    facts = {
        "goal": goal,
        "test_spec": repo.get(TESTS_PATH, ""),
        "plan": repo.get(PLAN_PATH, ""),
        "source": repo.get(SRC_PATH, ""),
        "last_tests": _summary(last_tests(trace)) if role == "coder" else last_tests(trace),
        "review": past[-1] if past else None,
        "past_verdicts": [v["verdict"] for v in past],
    }
    return copy.deepcopy({field: facts[field] for field in VIEW_FIELDS[role]})
