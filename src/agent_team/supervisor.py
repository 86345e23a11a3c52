"""The supervisor: plain code that decides who speaks, what lands, and when to stop.

States::

    START -> PLAN -> CODE -> TEST --green--> REVIEW -> STOP_OK
                      ^        |
                      |       red
                      |        v
                      +---- REVIEW      (out of rounds: REVIEW -> STOP_FAIL)

* After PLAN, CODE, even when the planner did nothing; unless there are no
  rounds at all (STOP_FAIL), or PLAN.md is still empty (the planner goes
  again first, once per round).
* After CODE always TEST, even when the coder's patch was refused: the old
  repo is tested, so a refused turn can never look like progress.
* Green tests stop the run. The reviewer still gets a turn to leave its
  verdict, but a ``request_changes`` on green tests is overridden and the
  override is recorded: otherwise a reviewer that always finds one more
  nit could spend the whole budget on a finished job.
* ``max_rounds`` counts coder turns, the expensive ones.
* One role at a time: two roles writing at once would each act on a repo
  the other is changing.

Every decision lands in the trace as one event (trace.py) with ``type``,
``round``, ``state`` and ``decision``, logged only once the supervisor has
decided, so a run can be replayed and explained step by step.
"""

import copy
import difflib
from dataclasses import dataclass, field

from .limits import call_limited
from .oracle import run_tests
from .policies import DEFAULT_POLICIES
from .repo import ALLOWLIST, GOAL, initial_repo, repo_problem
from .roles import ROLES, role, roles_at
from .turn import FAILURES, RunState, changes
from .views import check_views, last_tests

__all__ = ["RUN_STATUSES", "RunResult", "supervise", "FAILURES"]  # FAILURES: why a turn did not land (turn.py)

# How a supervised run ends (RunResult.status): the oracle passed, or the budget of coder turns ran out.
RUN_STATUSES = ("pass", "budget")

SETTINGS = ("max_rounds", "repo", "rules", "require_plan", "tamper", "seconds", "views")

# Who speaks when, read from the roles table (roles.py): before the first round (and again when
# their file is empty), in every round before the tests, and in every round after the tests.
PLANNERS, CODERS, REVIEWERS = roles_at("plan"), roles_at("code"), roles_at("review")


@dataclass
class RunResult:
    """How a supervised run ended. Fields also read as ``result["status"]``."""

    status: str          # one of RUN_STATUSES
    rounds: int          # coder turns taken
    repo: dict
    trace: list = field(repr=False)
    stop_reason: str = ""

    def __getitem__(self, key):
        names = (*self.__dataclass_fields__, "tests")
        if key not in names:
            raise KeyError(f"a run result has no {key!r}; it has {', '.join(names)}")
        return getattr(self, key)

    def __getattr__(self, name):
        # Handoffs are part 5's reading of a run, derived from its trace in the real team's wing,
        # which the core never imports: say where they are instead of a bare AttributeError.
        if name == "handoffs":
            raise AttributeError("a run's handoffs are derived from its trace (part 5): "
                                 "`from agent_team.realteam.handoffs import handoffs_from_trace`, "
                                 "then `handoffs_from_trace(result.trace)`")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def tests(self):
        """The last test report (None if the coder never got a turn)."""
        return last_tests(self.trace)


def _check_args(max_rounds, policies, rules, tamper, repo, seconds):
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 0:
        raise ValueError(f"max_rounds must be a whole number >= 0 (coder turns), not {max_rounds!r}")
    problem = repo_problem(repo) if repo is not None else None
    if problem:
        raise TypeError(f"repo must be a dict of str path -> str file text (or None for the starting repo), "
                        f"{problem}")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0:
        raise ValueError(f"seconds (each role's time limit per turn) must be a number > 0, not {seconds!r}")
    for name, policy in policies.items():
        if not callable(policy):
            raise TypeError(f"{name} must be a function (goal, view) -> output, not {type(policy).__name__}; "
                            f"pass None to use the course's fake {name}")
    if not all(callable(r) for r in rules):
        raise TypeError("rules must be functions (role, patch) -> None or a reason to refuse the patch")
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


class _SupervisedRun(RunState):
    """A run under the state machine: who of the team speaks when."""

    def playing(self, names):
        """Those of ``names`` on this run's team (an optional role plays only when given a policy)."""
        return [name for name in names if name in self.policies]

    def turns(self, names, rnd, then):
        """Each of ``names`` takes one turn, in order; ``then`` is the state that follows the last one."""
        names = self.playing(names)
        for i, name in enumerate(names):
            following = role(names[i + 1]).state if i + 1 < len(names) else then
            self.log("turn", **self.turn(name, rnd), decision=f"after {role(name).state} always {following}")

    def plan(self, max_rounds, require_plan):
        """The planners' turns before round 1; each decision says what truly comes next.

        No round at all: the run stops. The plan still empty: the planner goes again. Else the coder."""
        for name in self.playing(PLANNERS):
            fields = self.turn(name, 0)
            if not max_rounds:
                decision = "0 rounds: no coder turn, so the run stops without success"
            elif require_plan and self.empty(name):
                decision = f"{self.empty(name)[0]} is still empty, so the {name} goes again before round 1"
            else:
                decision = f"the plan is written: the {CODERS[0]} goes next"
            self.log("turn", **fields, decision=decision)

    def empty(self, name):
        """The files of ``name``'s allowlist that are empty (or missing) in the repo now."""
        return [p for p in sorted(ALLOWLIST[name]) if not str(self.repo.get(p, "")).strip()]

    def replan(self, rnd):
        """A planner whose file is empty (a fault wiped it, or its turn was refused) goes again."""
        for name in self.playing(PLANNERS):
            empty = self.empty(name)
            if empty:
                self.log("turn", **self.turn(name, rnd), decision=f"{empty[0]} was empty, so the {name} went again")


def supervise(goal=GOAL, *, max_rounds=4, repo=None, rules=(), require_plan=True, tamper=None,
              seconds=2.0, views=None, **policies):
    """Run the team under the state machine above and return a :class:`RunResult`.

    Each role of the table in roles.py is a keyword, ``planner=``, ``coder=``,
    ``reviewer=``: a policy ``(goal, view) -> output``, or None for the course's
    fake (an optional role does not play unless given one). ``rules`` are
    hardening rules ``(role, patch) -> None | reason`` applied after the
    allowlist (a refused patch refuses the whole turn).
    ``require_plan``: if the planner's file is empty before a coder turn, the
    planner goes again first. ``tamper(repo, round) -> repo`` simulates a fault
    outside the roles (for failure injection only). ``views``, role -> the
    facts it is shown (views.FACTS), replaces those roles' views for this run
    only; the others keep their row's. Misuse raises at once;
    nothing a policy does can make it raise.
    """
    team = _team(policies)
    if callable(rules) or isinstance(rules, (str, bytes, dict)):
        raise TypeError("rules must be a list of functions (role, patch) -> None or a reason: "
                        "write rules=[my_rule], not rules=my_rule")
    rules = tuple(rules)
    _check_args(max_rounds, team, rules, tamper, repo, seconds)
    shown = check_views(views)
    run = _SupervisedRun(goal, copy.deepcopy(repo) if repo is not None else initial_repo(), team, rules, seconds, shown)
    run.log("start", round=0, state="START", goal=goal, max_rounds=max_rounds,
            decision=f"start: the {run.playing(PLANNERS)[0]} speaks first")
    run.plan(max_rounds, require_plan)
    reviewers = run.playing(REVIEWERS)  # an optional reviewer plays only when given a policy
    for rnd in range(1, max_rounds + 1):
        if tamper is not None:
            _tamper(run, tamper, rnd)
        if require_plan:
            run.replan(rnd)
        run.turns(CODERS, rnd, then="TEST")
        report = run_tests(run.repo)
        if report["ok"]:
            run.log("tests", round=rnd, state="TEST", tests=report,
                    decision=f"tests green: the {reviewers[0]} gives its verdict, then the run stops")
            for name in reviewers:  # each review is decided on, then logged whole
                turn = run.review(name, rnd)
                if (turn.get("verdict") or {}).get("verdict") == "request_changes":
                    run.log("turn", **turn, override=True, decision="tests green: stop; request_changes overridden")
                else:
                    run.log("turn", **turn, decision="tests green: stop")
            reason = f"the tests passed in round {rnd} ({report['passed']} of {report['passed'] + report['failed']})"
            return _stop(run, "pass", rnd, reason)
        run.log("tests", round=rnd, state="TEST", tests=report,
                decision=f"tests red ({report['failed']} failing): the {reviewers[0]} looks next")
        last = rnd == max_rounds
        for name in reviewers:
            turn = run.review(name, rnd)
            decision = ("out of rounds: stop without success" if last
                        else "tests red: the coder goes again with this review")
            if turn.get("message") == "escalate":
                run.log("turn", **turn, escalated=True, decision=f"the {name} escalated to a person; " + decision)
            else:
                run.log("turn", **turn, decision=decision)
    turns = f"{max_rounds} coder turn{'s' if max_rounds != 1 else ''}"
    reason = (f"the budget of {turns} ran out and the tests still fail" if max_rounds
              else "the budget of 0 coder turns allowed no coding, so the tests never ran")
    return _stop(run, "budget", max_rounds, reason)


def _tamper(run, tamper, rnd):
    """Part 4's injected fault outside the roles: ``tamper`` changes the repo, and the trace says how."""
    out = call_limited(tamper, copy.deepcopy(run.repo), rnd, seconds=run.seconds)
    if not out.ok or repo_problem(out.value):
        run.log("tamper", round=rnd, state="FAULT", failure=out.kind if not out.ok else "bad output",
                error="the injected fault failed or returned no repo (a dict of str path -> str text); "
                      "nothing changed", changes=[])
        return
    before, run.repo = run.repo, dict(out.value)
    run.log("tamper", round=rnd, state="FAULT", error=None, changes=changes(before, run.repo),
            decision="an injected fault changed the repo outside any role")


def _stop(run, status, rounds, reason):
    """Log the stop event (STOP_OK on a pass, STOP_FAIL on the budget) and return the run's result."""
    state = "STOP_OK" if status == "pass" else "STOP_FAIL"
    run.log("stop", round=rounds, state=state, status=status, stop_reason=reason, decision=f"stop: {reason}")
    return RunResult(status=status, rounds=rounds, repo=run.repo, trace=run.trace, stop_reason=reason)
