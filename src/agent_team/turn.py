"""A turn: one role acting once, and how the trace records it.

The role's policy is called under a time limit with its view; its output is
checked; its patches pass the allowlist (repo.py) and then every hardening
rule, or the whole turn is refused; only then does the repo change. Whatever
happens lands in one trace event, so a turn that did not land says why in
``failure`` (and, for people, ``error``). Who speaks when, and when the run
stops, is the supervisor's business (supervisor.py), not this module's.
"""

import copy

from .limits import call_limited, describe_error
from .policies import BadOutput, check_output, for_trace, read_verdict
from .repo import ALLOWLIST, MAX_PATCHES, REVIEW_PATH, PatchRejected, check_turn
from .roles import role
from .views import make_view

__all__ = ["FAILURES", "RunState", "changes"]

# Why a turn did not land, as the trace's ``failure`` field records it (None when it landed):
# the policy ran out of time (``seconds`` then holds its limit), raised, returned something
# that is not an output, or its patches were refused. ``refused_by`` then says by what: one of
# the repo's RULES ("shape", "path", "allowlist", "size") or "hardening", a hardening rule whose
# name is in ``rule``. Read these fields, not the ``error`` text, which is for people.
FAILURES = ("timeout", "error", "bad output", "refused")


def changes(before, after):
    """Every path whose text differs between two repos, as the trace records it."""
    return [{"path": p, "before": before.get(p), "after": after.get(p)}
            for p in sorted(set(before) | set(after)) if before.get(p) != after.get(p)]


class RunState:
    """What the turns of one run share: the goal, the repo, the team, the rules, the trace."""

    def __init__(self, goal, repo, policies, rules, seconds):
        self.goal, self.repo, self.policies = goal, repo, policies
        self.rules, self.seconds = rules, seconds
        self.trace = []

    def log(self, **event):
        self.trace.append(event)
        return event

    def _refusal(self, name, patches):
        """``(rule name, reason)`` for the first hardening rule that refuses a patch."""
        for fn in self.rules:
            for patch in patches:
                out = call_limited(fn, name, copy.deepcopy(patch), seconds=self.seconds)
                rule = getattr(fn, "__name__", "rule")
                if not out.ok:  # a broken rule fails closed
                    return rule, (f"the rule {rule} failed ({describe_error(out.error)}), so the turn is "
                                  "refused to be safe")
                if out.value:
                    return rule, f"the rule {rule} refused it: {out.value}"
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
            event.update(failure="refused", refused_by="hardening", rule=rule, error=error)
            return event
        after = {**before, **writes}
        self.repo = after
        event["applied"] = True
        event["changes"] = changes(before, after)
        return event

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
