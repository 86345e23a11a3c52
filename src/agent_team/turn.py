"""A turn: one role acting once, and how the trace records it.

The role's policy is called under a time limit with its view; its output is
checked; its patches pass the allowlist (repo.py) and then every hardening
rule, or the whole turn is refused; only then does the repo change. Whatever
happens becomes the fields of one turn event (trace.py), so a turn that did not
land says why in ``failure`` (and, for people, ``error``). Who speaks when, and
when the run stops, is the supervisor's business (supervisor.py): it adds its
decision to those fields and only then logs the event, whole.
"""

import copy

from .clip import clip
from .limits import call_limited, describe_error
from .policies import OUTPUT_KEYS, BadOutput, check_output, for_trace, read_verdict
from .repo import ALLOWLIST, MAX_PATCHES, REVIEW_PATH, PatchRejected, check_turn
from .roles import role
from .trace import event as trace_event
from .views import make_view

__all__ = ["FAILURES", "RunState", "changes"]

# Why a turn did not land, as the trace's ``failure`` field records it (None when it landed):
# the policy ran out of time (``seconds`` then holds its limit), raised, returned something
# that is not an output, or its patches were refused. ``refused_by`` then says by what: one of
# the repo's PATCH_CHECKS ("shape", "path", "allowlist", "size") or "hardening", a hardening
# rule whose name is in ``rule`` (trace.FIELDS says what every field means). Read these
# fields, not the ``error`` text, which is for people.
FAILURES = ("timeout", "error", "bad output", "refused")


def changes(before, after):
    """Every path whose text differs between two repos, as the trace records it."""
    return [{"path": p, "before": before.get(p), "after": after.get(p)}
            for p in sorted(set(before) | set(after)) if before.get(p) != after.get(p)]


class RunState:
    """What the turns of one run share: the goal, the repo, the team, the rules, the views, the trace."""

    def __init__(self, goal, repo, policies, rules, seconds, views):
        self.goal, self.repo, self.policies = goal, repo, policies
        self.rules, self.seconds, self.views = rules, seconds, views  # views: role -> the facts it is shown
        self.trace = []

    def log(self, kind, **fields):
        """Append one complete event to the trace (trace.event checks its fields)."""
        self.trace.append(trace_event(kind, **fields))
        return self.trace[-1]

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
        """One role acts once: call it, check its output, apply its patches all-or-nothing.

        Returns the turn event's fields, not yet logged: the supervisor logs them with its decision."""
        view = make_view(name, self.goal, self.repo, self.trace, self.views[name])
        fields = dict(round=rnd, state=role(name).state, role=name, view=copy.deepcopy(view),
                      thought="", message="", patches=[], applied=False, error=None, failure=None, changes=[])
        call = call_limited(self.policies[name], self.goal, view, seconds=self.seconds)
        if call.kind == "timeout":
            fields.update(failure="timeout", seconds=self.seconds,
                          error=f"the {name} did not return within {self.seconds:g} s; its turn was skipped")
            return fields
        if call.kind == "error":
            fields.update(failure="error",
                          error=f"the {name} raised {describe_error(call.error)}; its turn was skipped")
            return fields
        try:
            out = check_output(name, call.value)
        except BadOutput as err:
            fields.update(failure="bad output", error=f"the {name}'s output was refused: {err}")
            return fields
        fields.update(thought=out["thought"], message=out["message"],
                      patches=[for_trace(p) for p in out["patches"][:MAX_PATCHES + 1]])
        if isinstance(call.value.get("attempts"), list):  # the LLM slot's record of each model call
            fields["attempts"] = copy.deepcopy(call.value["attempts"])
        # Exact types first: a hostile key's own __eq__ or __str__ is never called.
        ignored = sorted(clip(key, 40) if type(key) is str else f"<a {type(key).__name__} key>"
                         for key in call.value if type(key) is not str or key not in OUTPUT_KEYS)
        if ignored:  # only thought, patches and message count: anything else is said so, then dropped
            fields["ignored"] = ignored[:8]
        before = self.repo
        try:
            writes = check_turn(name, out["patches"])
        except PatchRejected as err:
            fields.update(failure="refused", refused_by=err.check, error=str(err))
            return fields
        rule, error = self._refusal(name, out["patches"])
        if error:
            fields.update(failure="refused", refused_by="hardening", rule=rule, error=error)
            return fields
        after = {**before, **writes}
        self.repo = after
        fields["applied"] = True
        fields["changes"] = changes(before, after)
        return fields

    def review(self, name, rnd):
        """A turn after the tests (its fields, not yet logged); a role that owns REVIEW.json leaves a
        verdict (or the reason it did not)."""
        fields = self.turn(name, rnd)
        if REVIEW_PATH not in ALLOWLIST[name]:
            return fields
        # A verdict counts when REVIEW.json was written this turn, even with the same text as
        # last time: a reviewer repeating "request_changes" is still asking again.
        wrote = any(p["path"] == REVIEW_PATH for p in fields["patches"])
        if fields["applied"] and wrote:
            verdict, problem = read_verdict(self.repo[REVIEW_PATH])
            fields["verdict"] = verdict
            if problem:
                fields["error"] = problem
        else:
            fields["verdict"] = None
            fields["error"] = fields["error"] or f"the {name} left no new verdict in REVIEW.json"
        return fields
