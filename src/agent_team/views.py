"""Views: what each role is shown on its turn (its observation channel).

The supervisor keeps the full trace; each role gets a narrow view built from
it. Narrow views stop roles from imitating each other (a planner that reads
code starts writing code) and keep prompts short once the roles are models.
Every view is a fresh copy, so a policy that scribbles on it changes nothing.
A run may be given other views (``supervise(views=...)``, read by :func:`check_views`):
an experiment with what a role is shown changes that run only, never the table.
"""

import copy
import difflib
from collections.abc import Mapping

from .repo import PLAN_PATH, REVIEW_PATH, SRC_PATH, TESTS_PATH
from .roles import ALLOWLIST, ROLES, VIEW_FIELDS  # which facts each role may see (its row's ``sees``); part 2
from .trace import last, turns

__all__ = ["VIEW_FIELDS", "FACTS", "check_views", "last_tests", "verdicts", "make_view"]

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


def _near(name, names):
    near = difflib.get_close_matches(name, names, n=1) if isinstance(name, str) else []
    return f"did you mean {near[0]!r}? " if near else ""


def check_views(views):
    """Every role's facts for one run: ``views`` (role -> the facts it is shown) over the rows' own.

    A role ``views`` does not name keeps its row's view; None or ``{}`` is the table as it is.
    Anything else is a clear error that says what to write.
    """
    if views is None:
        views = {}
    if not isinstance(views, Mapping):
        raise TypeError(f"views must be a dict of role -> the facts it is shown, like {{'planner': ['goal', 'plan']}}, "
                        f"or None for each role's row in roles.py, not {type(views).__name__}")
    for name, facts in views.items():
        if name not in ROLES:
            raise ValueError(f"views names {name!r}, which is no role; {_near(name, ROLES)}"
                             f"the roles are {', '.join(ROLES)}")
        if isinstance(facts, (str, bytes)) or not isinstance(facts, (list, tuple, set, frozenset)):
            raise TypeError(f"views[{name!r}] must be a list of facts, like ['goal', 'plan'], "
                            f"not {type(facts).__name__}")
        for fact in facts:
            if not isinstance(fact, str):
                raise TypeError(f"views[{name!r}] must be a list of facts, like ['goal', 'plan'], "
                                f"but it holds {fact!r}")
            if fact not in FACTS:
                raise ValueError(f"views[{name!r}] names {fact!r}, which is no fact; {_near(fact, FACTS)}"
                                 f"the facts are {', '.join(FACTS)}")
    return {name: tuple(views.get(name, VIEW_FIELDS[name])) for name in ROLES}


def make_view(role, goal, repo, trace, sees=None):
    """The view ``role`` receives, given the repo and the trace so far: the facts of its row, or ``sees``."""
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
    return copy.deepcopy({field: facts[field] for field in (VIEW_FIELDS[role] if sees is None else sees)})
