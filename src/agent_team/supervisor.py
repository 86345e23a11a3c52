"""The supervisor: plain code that decides who speaks, what lands, and when to stop.

States::

    START -> PLAN -> CODE -> TEST --green--> REVIEW -> STOP_OK
                      ^        |
                      |       red
                      |        v
                      +---- REVIEW      (out of rounds: REVIEW -> STOP_FAIL)

* After PLAN always CODE, even when the planner did nothing.
* After CODE always TEST, even when the coder's patch was refused: the old
  repo is tested, so a refused turn can never look like progress.
* Green tests stop the run. The reviewer still gets a turn to leave its
  verdict, but a ``request_changes`` on green tests is overridden and the
  override is recorded: otherwise a reviewer that always finds one more
  nit could spend the whole budget on a finished job.
* ``max_rounds`` counts coder turns, the expensive ones.
* One role at a time: two roles writing at once would each act on a repo
  the other is changing.

Every decision lands in the trace as a dict with ``type``, ``round`` and
``state``, so a run can be replayed and explained step by step.
"""

import copy
import difflib
from dataclasses import dataclass, field

from .handoffs import handoffs_from_trace
from .limits import call_limited, describe_error
from .oracle import run_tests
from .policies import DEFAULT_POLICIES, BadOutput, check_output, for_trace, read_verdict
from .repo import ALLOWLIST, GOAL, MAX_PATCHES, REVIEW_PATH, PatchRejected, check_turn, initial_repo
from .roles import ROLES, role, roles_at
from .views import last_tests, make_view

__all__ = ["RunResult", "supervise", "FAILURES"]

# Why a turn did not land, as the trace's ``failure`` field records it (None when it landed):
# the policy ran out of time (``seconds`` then holds its limit), raised, returned something
# that is not an output, or its patches were refused. ``refused_by`` then says by what: one of
# the repo's RULES ("shape", "path", "allowlist", "size") or "check", a hardening rule whose
# name is in ``rule``. Read these fields, not the ``error`` text, which is for people.
FAILURES = ("timeout", "error", "bad output", "refused")

SETTINGS = ("max_rounds", "repo", "checks", "require_plan", "tamper", "seconds")

# Who speaks when, read from the roles table (roles.py): before the first round (and again when
# their file is empty), in every round before the tests, and in every round after the tests.
PLANNERS, CODERS, REVIEWERS = roles_at("plan"), roles_at("code"), roles_at("review")


@dataclass
class RunResult:
    """How a supervised run ended. Fields also read as ``result["status"]``."""

    status: str          # "pass" or "budget"
    rounds: int          # coder turns taken
    repo: dict
    trace: list = field(repr=False)
    stop_reason: str = ""

    def __getitem__(self, key):
        names = (*self.__dataclass_fields__, "tests", "handoffs")
        if key not in names:
            raise KeyError(f"a run result has no {key!r}; it has {', '.join(names)}")
        return getattr(self, key)

    @property
    def handoffs(self):
        """One handoff per role transition (planner -> coder -> reviewer), derived from the trace."""
        return handoffs_from_trace(self.trace)

    @property
    def tests(self):
        """The last test report (None if the coder never got a turn)."""
        return last_tests(self.trace)


def _changes(before, after):
    """Every path whose text differs between two repos, as the trace records it."""
    return [{"path": p, "before": before.get(p), "after": after.get(p)}
            for p in sorted(set(before) | set(after)) if before.get(p) != after.get(p)]


def _check_args(max_rounds, policies, checks, tamper, repo, seconds):
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 0:
        raise ValueError(f"max_rounds must be a whole number >= 0 (coder turns), not {max_rounds!r}")
    if repo is not None and (type(repo) is not dict or not all(type(k) is str for k in repo)):
        raise TypeError("repo must be a dict of path -> file text (or None for the starting repo), "
                        f"not {type(repo).__name__}")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0:
        raise ValueError(f"seconds (each role's time limit per turn) must be a number > 0, not {seconds!r}")
    for name, policy in policies.items():
        if not callable(policy):
            raise TypeError(f"{name} must be a function (goal, view) -> output, not {type(policy).__name__}; "
                            f"pass None to use the course's fake {name}")
    if not all(callable(c) for c in checks):
        raise TypeError("checks must be functions (role, patch) -> None or a reason to refuse the patch")
    if tamper is not None and not callable(tamper):
        raise TypeError("tamper must be a function (repo, round) -> repo, or None")


def _team(chosen):
    """Who plays: every role's policy (the one given, or the course's fake), and each optional role
    that was given one. An unknown keyword is a clear error."""
    for name in chosen:
        if name not in ROLES:
            near = difflib.get_close_matches(name, ROLES + SETTINGS, n=1)
            hint = f"did you mean {near[0]!r}? " if near else ""
            raise TypeError(f"supervise() has no keyword {name!r}; {hint}the roles are {', '.join(ROLES)} "
                            f"and the settings {', '.join(SETTINGS)}")
    team = {name: chosen.get(name) for name in ROLES if chosen.get(name) is not None}
    return {name: team.get(name) or DEFAULT_POLICIES[name] for name in ROLES
            if name in team or not role(name).optional}


class _Run:
    def __init__(self, goal, repo, policies, checks, seconds):
        self.goal, self.repo, self.policies = goal, repo, policies
        self.checks, self.seconds = checks, seconds
        self.trace = []

    def log(self, **event):
        self.trace.append(event)
        return event

    def _refusal(self, name, patches):
        """``(rule name, reason)`` for the first extra check (a hardening rule) that refuses a patch."""
        for check in self.checks:
            for patch in patches:
                out = call_limited(check, name, copy.deepcopy(patch), seconds=self.seconds)
                rule = getattr(check, "__name__", "check")
                if not out.ok:  # a broken rule fails closed
                    return rule, f"the check {rule} failed ({describe_error(out.error)}), so the turn is refused to be safe"
                if out.value:
                    return rule, f"the check {rule} refused it: {out.value}"
        return None, None

    def turn(self, name, rnd):
        """One role acts once: call it, check its output, apply its patches all-or-nothing."""
        view = make_view(name, self.goal, self.repo, self.trace)
        event = self.log(type="turn", round=rnd, state=role(name).state, role=name, view=copy.deepcopy(view),
                         thought="", message="", patches=[], applied=False, error=None, failure=None,
                         changes=[])
        call = call_limited(self.policies[name], self.goal, view, seconds=self.seconds)
        if call.kind == "timeout":
            event.update(failure="timeout", seconds=self.seconds,
                         error=f"the {name} did not return within {self.seconds:g} s; its turn was skipped")
            return event
        if call.kind == "error":
            event.update(failure="error",
                         error=f"the {name} raised {describe_error(call.error)}; its turn was skipped")
            return event
        try:
            out = check_output(name, call.value)
        except BadOutput as err:
            event.update(failure="bad output", error=f"the {name}'s output was refused: {err}")
            return event
        event.update(thought=out["thought"], message=out["message"],
                     patches=[for_trace(p) for p in out["patches"][:MAX_PATCHES + 1]])
        if isinstance(call.value.get("attempts"), list):  # the LLM slot's record of each model call
            event["attempts"] = copy.deepcopy(call.value["attempts"])
        before = self.repo
        try:
            writes = check_turn(name, out["patches"])
        except PatchRejected as err:
            event.update(failure="refused", refused_by=err.rule, error=str(err))
            return event
        rule, error = self._refusal(name, out["patches"])
        if error:
            event.update(failure="refused", refused_by="check", rule=rule, error=error)
            return event
        after = {**before, **writes}
        self.repo = after
        event["applied"] = True
        event["changes"] = _changes(before, after)
        return event

    def playing(self, names):
        """Those of ``names`` on this run's team (an optional role plays only when given a policy)."""
        return [name for name in names if name in self.policies]

    def turns(self, names, rnd, then):
        """Each of ``names`` takes one turn, in order; ``then`` is the state that follows the last one."""
        names = self.playing(names)
        for i, name in enumerate(names):
            following = role(names[i + 1]).state if i + 1 < len(names) else then
            self.turn(name, rnd)["decision"] = f"after {role(name).state} always {following}"

    def replan(self, rnd):
        """A planner whose file is empty (a fault wiped it, or its turn was refused) goes again."""
        for name in self.playing(PLANNERS):
            empty = [p for p in sorted(ALLOWLIST[name]) if not str(self.repo.get(p, "")).strip()]
            if empty:
                self.turn(name, rnd)["decision"] = f"{empty[0]} was empty, so the {name} went again"

    def review(self, name, rnd):
        """A turn after the tests; a role that owns REVIEW.json leaves a verdict (or the reason it did not)."""
        event = self.turn(name, rnd)
        if REVIEW_PATH not in ALLOWLIST[name]:
            return event
        # A verdict counts when REVIEW.json was written this turn, even with the same text as
        # last time: a reviewer repeating "request_changes" is still asking again.
        wrote = any(p["path"] == REVIEW_PATH for p in event["patches"])
        if event["applied"] and wrote:
            verdict, problem = read_verdict(self.repo[REVIEW_PATH])
            event["verdict"] = verdict
            if problem:
                event["error"] = problem
        else:
            event["verdict"] = None
            event["error"] = event["error"] or f"the {name} left no new verdict in REVIEW.json"
        return event


def supervise(goal=GOAL, *, max_rounds=4, repo=None, checks=(), require_plan=True, tamper=None,
              seconds=2.0, **policies):
    """Run the team under the state machine above and return a :class:`RunResult`.

    Each role of the table in roles.py is a keyword, ``planner=``, ``coder=``,
    ``reviewer=``: a policy ``(goal, view) -> output``, or None for the course's
    fake (an optional role does not play unless given one). ``checks`` are extra rules ``(role, patch) -> None | reason`` applied
    after the allowlist (a refused patch refuses the whole turn).
    ``require_plan``: if the planner's file is empty before a coder turn, the
    planner goes again first. ``tamper(repo, round) -> repo`` simulates a fault
    outside the roles (for failure injection only). Misuse raises at once;
    nothing a policy does can make it raise.
    """
    team = _team(policies)
    if callable(checks) or isinstance(checks, (str, bytes, dict)):
        raise TypeError("checks must be a list of functions (role, patch) -> None or a reason: "
                        "write checks=[my_rule], not checks=my_rule")
    checks = tuple(checks)
    _check_args(max_rounds, team, checks, tamper, repo, seconds)
    run = _Run(goal, copy.deepcopy(repo) if repo is not None else initial_repo(), team, checks, seconds)
    run.log(type="start", round=0, state="START", goal=goal, max_rounds=max_rounds,
            decision=f"start: the {run.playing(PLANNERS)[0]} speaks first")
    run.turns(PLANNERS, 0, then=role(CODERS[0]).state)
    reviewers = run.playing(REVIEWERS)  # an optional reviewer plays only when given a policy
    for rnd in range(1, max_rounds + 1):
        if tamper is not None:
            _tamper(run, tamper, rnd)
        if require_plan:
            run.replan(rnd)
        run.turns(CODERS, rnd, then="TEST")
        report = run_tests(run.repo)
        tests = run.log(type="tests", round=rnd, state="TEST", tests=report)
        if report["ok"]:
            tests["decision"] = f"tests green: the {reviewers[0]} gives its verdict, then the run stops"
            for name in reviewers:
                event = run.review(name, rnd)
                verdict = (event.get("verdict") or {}).get("verdict")
                if verdict == "request_changes":
                    event["override"] = True
                    event["decision"] = "tests green: stop; request_changes overridden"
                else:
                    event["decision"] = "tests green: stop"
            reason = f"the tests passed in round {rnd} ({report['passed']} of {report['passed'] + report['failed']})"
            return _stop(run, "pass", rnd, reason)
        tests["decision"] = f"tests red ({report['failed']} failing): the {reviewers[0]} looks next"
        last = rnd == max_rounds
        for name in reviewers:
            event = run.review(name, rnd)
            event["decision"] = ("out of rounds: stop without success" if last
                                 else "tests red: the coder goes again with this review")
            if event.get("message") == "escalate":
                event["escalated"] = True
                event["decision"] = f"the {name} escalated to a person; " + event["decision"]
    turns = f"{max_rounds} coder turn{'s' if max_rounds != 1 else ''}"
    reason = (f"the budget of {turns} ran out and the tests still fail" if max_rounds
              else "the budget of 0 coder turns allowed no coding, so the tests never ran")
    return _stop(run, "budget", max_rounds, reason)


def _tamper(run, tamper, rnd):
    out = call_limited(tamper, copy.deepcopy(run.repo), rnd, seconds=run.seconds)
    event = run.log(type="tamper", round=rnd, state="FAULT", error=None, changes=[])
    if not out.ok or not isinstance(out.value, dict):
        event["failure"] = out.kind if not out.ok else "bad output"
        event["error"] = "the injected fault failed or returned no repo; nothing changed"
        return
    before, run.repo = run.repo, dict(out.value)
    event["changes"] = _changes(before, run.repo)
    event["decision"] = "an injected fault changed the repo outside any role"


def _stop(run, status, rounds, reason):
    state = "STOP_OK" if status == "pass" else "STOP_FAIL"
    run.log(type="stop", round=rounds, state=state, status=status, stop_reason=reason,
            decision=f"stop: {reason}")
    return RunResult(status=status, rounds=rounds, repo=run.repo, trace=run.trace, stop_reason=reason)
