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
from dataclasses import dataclass, field

from .limits import call_limited, describe_error
from .oracle import run_tests
from .policies import DEFAULT_POLICIES, BadOutput, check_output, for_trace, read_verdict
from .repo import GOAL, MAX_PATCHES, PLAN_PATH, REVIEW_PATH, apply_turn, initial_repo
from .views import last_tests, make_view

__all__ = ["RunResult", "supervise"]


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
        from .handoffs import handoffs_from_trace  # part 5 reads the trace; the trace never needs it
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
    for role, policy in policies.items():
        if not callable(policy):
            raise TypeError(f"{role} must be a function (goal, view) -> output, not {type(policy).__name__}; "
                            f"pass None to use the course's fake {role}")
    if not all(callable(c) for c in checks):
        raise TypeError("checks must be functions (role, patch) -> None or a reason to refuse the patch")
    if tamper is not None and not callable(tamper):
        raise TypeError("tamper must be a function (repo, round) -> repo, or None")


class _Run:
    def __init__(self, goal, repo, policies, checks, seconds):
        self.goal, self.repo, self.policies = goal, repo, policies
        self.checks, self.seconds = checks, seconds
        self.trace = []

    def log(self, **event):
        self.trace.append(event)
        return event

    def _refusal(self, role, patches):
        """The first extra check (a hardening rule) that refuses one of the patches."""
        for check in self.checks:
            for patch in patches:
                out = call_limited(check, role, copy.deepcopy(patch), seconds=self.seconds)
                name = getattr(check, "__name__", "check")
                if not out.ok:  # a broken rule fails closed
                    return f"the check {name} failed ({describe_error(out.error)}), so the turn is refused to be safe"
                if out.value:
                    return f"the check {name} refused it: {out.value}"
        return None

    def turn(self, role, state, rnd):
        """One role acts once: call it, check its output, apply its patches all-or-nothing."""
        view = make_view(role, self.goal, self.repo, self.trace)
        event = self.log(type="turn", round=rnd, state=state, role=role, view=copy.deepcopy(view),
                         thought="", message="", patches=[], applied=False, error=None, changes=[])
        call = call_limited(self.policies[role], self.goal, view, seconds=self.seconds)
        if call.kind == "timeout":
            event["error"] = f"the {role} did not return within {self.seconds:g} s; its turn was skipped"
            return event
        if call.kind == "error":
            event["error"] = f"the {role} raised {describe_error(call.error)}; its turn was skipped"
            return event
        try:
            out = check_output(role, call.value)
        except BadOutput as err:
            event["error"] = f"the {role}'s output was refused: {err}"
            return event
        event.update(thought=out["thought"], message=out["message"],
                     patches=[for_trace(p) for p in out["patches"][:MAX_PATCHES + 1]])
        if isinstance(call.value.get("attempts"), list):  # the LLM slot's record of each model call
            event["attempts"] = copy.deepcopy(call.value["attempts"])
        before = self.repo
        after, error = apply_turn(before, role, out["patches"])
        error = error or self._refusal(role, out["patches"])
        if error:
            event["error"] = error
            return event
        self.repo = after
        event["applied"] = True
        event["changes"] = _changes(before, after)
        return event

    def review(self, rnd):
        event = self.turn("reviewer", "REVIEW", rnd)
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
            event["error"] = event["error"] or "the reviewer left no new verdict in REVIEW.json"
        return event


def supervise(goal=GOAL, *, max_rounds=4, planner=None, coder=None, reviewer=None,
              repo=None, checks=(), require_plan=True, tamper=None, seconds=2.0):
    """Run the team under the state machine above and return a :class:`RunResult`.

    ``planner``/``coder``/``reviewer`` default to the course's fakes. ``checks``
    are extra rules ``(role, patch) -> None | reason`` applied after the
    allowlist (a refused patch refuses the whole turn). ``require_plan``: if
    PLAN.md is empty before a coder turn, the planner goes again first.
    ``tamper(repo, round) -> repo`` simulates a fault outside the roles (for
    failure injection only). Misuse raises at once; nothing a policy does can
    make it raise.
    """
    chosen = {"planner": planner, "coder": coder, "reviewer": reviewer}
    policies = {role: p if p is not None else DEFAULT_POLICIES[role] for role, p in chosen.items()}
    if callable(checks) or isinstance(checks, (str, bytes, dict)):
        raise TypeError("checks must be a list of functions (role, patch) -> None or a reason: "
                        "write checks=[my_rule], not checks=my_rule")
    checks = tuple(checks)
    _check_args(max_rounds, policies, checks, tamper, repo, seconds)
    run = _Run(goal, copy.deepcopy(repo) if repo is not None else initial_repo(), policies, checks, seconds)
    run.log(type="start", round=0, state="START", goal=goal, max_rounds=max_rounds,
            decision="start: the planner speaks first")
    run.turn("planner", "PLAN", 0)["decision"] = "after PLAN always CODE"
    for rnd in range(1, max_rounds + 1):
        if tamper is not None:
            _tamper(run, tamper, rnd)
        if require_plan and not str(run.repo.get(PLAN_PATH, "")).strip():
            run.turn("planner", "PLAN", rnd)["decision"] = "PLAN.md was empty, so the planner went again"
        run.turn("coder", "CODE", rnd)["decision"] = "after CODE always TEST"
        report = run_tests(run.repo)
        tests = run.log(type="tests", round=rnd, state="TEST", tests=report)
        if report["ok"]:
            tests["decision"] = "tests green: the reviewer gives its verdict, then the run stops"
            event = run.review(rnd)
            verdict = (event.get("verdict") or {}).get("verdict")
            if verdict == "request_changes":
                event["override"] = True
                event["decision"] = "tests green: stop; request_changes overridden"
            else:
                event["decision"] = "tests green: stop"
            reason = f"the tests passed in round {rnd} ({report['passed']} of {report['passed'] + report['failed']})"
            return _stop(run, "pass", rnd, reason)
        tests["decision"] = f"tests red ({report['failed']} failing): the reviewer looks next"
        event = run.review(rnd)
        if event.get("message") == "escalate":
            event["escalated"] = True
        last = rnd == max_rounds
        event["decision"] = ("out of rounds: stop without success" if last
                             else "tests red: the coder goes again with this review")
        if event.get("escalated"):
            event["decision"] = "the reviewer escalated to a person; " + event["decision"]
    turns = f"{max_rounds} coder turn{'s' if max_rounds != 1 else ''}"
    reason = (f"the budget of {turns} ran out and the tests still fail" if max_rounds
              else "the budget of 0 coder turns allowed no coding, so the tests never ran")
    return _stop(run, "budget", max_rounds, reason)


def _tamper(run, tamper, rnd):
    out = call_limited(tamper, copy.deepcopy(run.repo), rnd, seconds=run.seconds)
    event = run.log(type="tamper", round=rnd, state="FAULT", error=None, changes=[])
    if not out.ok or not isinstance(out.value, dict):
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
