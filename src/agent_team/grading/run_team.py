"""Grading a learner's ``run_team`` (exercise 3.1), one protocol rule per check.

Every sentence of the exercise is a rule, and every rule is a check:

| the exercise says | check |
|---|---|
| Plan once (first, with the task, even when `max_rounds` is 0) | plan once |
| the coder writes code from the task, the plan and the feedback; `feedback = ""` at first, \
then `"review: "` + review or `"test: "` + result, the latest one | feedback |
| the reviewer reads it: every round, the code just written, even if empty or seen before | review every round |
| a review that starts with `"APPROVE"` (`"APPROVED"` too: `review.startswith("APPROVE")`) \
sends that code to the tester | test approved code |
| a review that does not start with `"APPROVE"` ends the round without a test | tester only on approved |
| a result starting with `"PASS"` (`"PASSED"` too) ends the run | stop on PASS |
| anything else goes on: the team stops early only on a PASS | keep going |
| for at most `max_rounds` rounds (any `max_rounds` >= 0) | rounds |
| return the passing code on success, `None` when the rounds run out | result |
| the log lists every `(role, output)` pair in speaking order | log |
| Return `(code, log)`: a pair (tuple or list), `log` a list of `(role, output)` pairs | shape |
| run_team returns (it must not raise or loop forever) | returns |

Each scenario runs the learner's team and the reference with the same scripted agents
and compares the calls the agents received, one by one. At the first call that differs,
the protocol's state at that point (the last review, the last result, the round) says
which rule was broken, so the report names it in the rule's own words; later calls of
that scenario are consequences and are not judged again. Named scenarios come first,
then random ones covering every reply the text allows (see :mod:`agent_team.protocol`).

Measured by tests/grading/test_ex_3_1_*.py (wrong run_teams written from the exercise text, each
rejected with the right first failing check; correct ones in other styles accepted; mutants of
the reference); the counts are there.
"""

from ..clip import safe_repr
from ..limits import too_long
from ..protocol import NAMED_SCENARIOS, Scenario, random_scenarios, run_team
from .core import Report, call_learner, line_divergence, grading_run

RANDOM = 200

# The whole reply becomes feedback, every line of it: a tester's report and a review run over
# lines, and a team that keeps only the first one tells the coder less than it was told.
NAMED = NAMED_SCENARIOS + (
    Scenario("a test result and a review of several lines", codes=("v1", "v2", "v3"),
             reviews=("APPROVE", "REJECT: no docstring\nand no test for 0\n", "APPROVE"),
             results=("FAIL: test_empty\nexpected '', got None\n", "PASS"), max_rounds=3),
)

# Rules first, "shape" and "returns" last: the first failing line of a report is then the
# rule the calls broke, even when the same bug also makes the team crash or loop.
REQUIREMENTS = (
    ("plan once", "the planner is called exactly once, first, with the task"),
    ("feedback", "the coder gets (task, plan, feedback) with the latest feedback: '' at first, "
                 "then 'review: ' + review or 'test: ' + result"),
    ("review every round", "every round, the reviewer reads the code the coder just wrote"),
    ("test approved code", "a review that starts with 'APPROVE' sends that code to the tester"),
    ("tester only on approved", "the tester runs only on code whose review starts with 'APPROVE'"),
    ("stop on PASS", "the team stops as soon as a test result starts with 'PASS'"),
    ("keep going", "the team stops early only on a PASS: until then it uses every round"),
    ("rounds", "the coder is called at most max_rounds times"),
    ("result", "it returns the passing code, or None when the rounds run out"),
    ("log", "the log lists every (role, output) pair in speaking order"),
    ("shape", "it returns a pair (code, log), and log is a list of (role, output) pairs"),
    ("returns", "run_team returns (it does not raise or loop forever)"),
)
PROTOCOL_CHECKS = ("plan once", "feedback", "review every round", "test approved code", "tester only on approved",
         "stop on PASS", "keep going", "rounds")


_APPROVES = "only a reply that starts with exactly 'APPROVE', in capitals and with nothing before it, approves"
_PASSES = "only a result that starts with exactly 'PASS', in capitals and with nothing before it, ends the run"
_END = ("end",)


class _Foreign:
    """An argument a learner passed that is not a str (the reference only ever passes str).

    It equals nothing, so comparing calls never runs the learner's ``__eq__``."""

    def __init__(self, value):
        self.text = safe_repr(value, 40)

    def __repr__(self):
        return self.text


def _safe(calls):
    return [(role, tuple(a if type(a) is str else _Foreign(a) for a in args), reply)
            for role, args, reply in calls]


def _line(call):
    if call == _END:
        return "(return)"
    role, args, reply = call
    return f"{role}({', '.join(safe_repr(a, 40) for a in args)}) -> {safe_repr(reply, 40)}"


def _doing(call):
    """What the learner's team did at a call, in words."""
    return "returned" if call == _END else f"called {call[0]}({', '.join(safe_repr(a, 40) for a in call[1])})"


def _state(prefix):
    """Round number, latest code, and the latest review/result, from the calls so far."""
    rounds = sum(1 for c in prefix if c[0] == "coder")
    code = next((c[2] for c in reversed(prefix) if c[0] == "coder"), None)
    return rounds, code, prefix[-1] if prefix else None


def _why_feedback(last, want):
    if last is None or last[0] == "planner":
        return ("in round 1 the feedback is '' (nothing has been said yet). Feedback in round 1 can only be "
                "left over from an earlier call: set feedback = '' inside run_team, on every call")
    role, _, reply = last
    if role == "reviewer":
        return (f"the last review, {reply!r}, does not start with 'APPROVE', so the feedback is "
                f"'review: ' + that review = {want!r}")
    return (f"the last test result, {reply!r}, does not start with 'PASS', so the feedback is "
            f"'test: ' + that result = {want!r}")


def _stopped_early(where, scenario, rounds, last):
    role, reply = (last[0], last[2]) if last else ("", "")
    why = {"tester": f"The tester said {reply!r}, which does not start with 'PASS' ({_PASSES}); "
                     "anything else is feedback, not the end",
           "reviewer": f"The reviewer said {reply!r}: a review that does not approve ends the round, "
                       "not the run",
           "coder": f"The coder wrote {reply!r}, and every new code is reviewed, even an empty one or "
                    "one seen before"}.get(role, "The plan only starts the run")
    if rounds >= scenario.max_rounds:  # the last round itself was cut short, not the run
        return (f"In {where}: your team returned in the middle of its last round (round {rounds} of "
                f"max_rounds={scenario.max_rounds}), with no test result starting with 'PASS'. {why}. "
                "A round ends after the review (or the test of approved code), never before.")
    return (f"In {where}: your team stopped after {rounds} of max_rounds={scenario.max_rounds} rounds, "
            f"with no test result starting with 'PASS'. {why}. The team goes on to the next round "
            "until a PASS or until the rounds run out.")


def _judge(scenario, ours, theirs):
    """``(check, detail)`` for the first call where the learner's team left the protocol, or None."""
    ours, theirs = ours + [_END], theirs + [_END]
    i = next((k for k in range(min(len(ours), len(theirs))) if ours[k] != theirs[k]), None)
    if i is None:
        return None
    want, got = ours[i], theirs[i]
    rounds, code, last = _state(ours[:i])
    where = f"{scenario.called}, round {max(rounds, 1)}"
    if i == 0 or got[0] == "planner":
        return "plan once", (f"In {scenario.called}: your team {_doing(got)} at call {i + 1}. The planner is "
                             f"called once, first, as planner({scenario.task!r}), even when max_rounds is 0: call it "
                             "once, before the loop.")
    if want == _END and last[0] == "tester" and last[2].startswith("PASS"):
        return "stop on PASS", (f"In {where}: the tester said {last[2]!r}, which starts with 'PASS', so "
                                f"the run is over: return (code, log) at once. Your team {_doing(got)}.")
    if got == _END:
        if want[0] == "tester":
            return "test approved code", (f"In {where}: the reviewer said {last[2]!r}, which starts with "
                                          f"'APPROVE', so the tester runs next on {code!r}; your team returned. "
                                          "Call tester(code) right after every approving review.")
        return "keep going", _stopped_early(where, scenario, rounds, last)
    if got[0] == "tester" and want[0] != "tester":
        if want[0] == "reviewer":
            return "review every round", (f"In {where}: the coder wrote {code!r} and your team "
                                          f"{_doing(got)}; the reviewer reads every new code first. Call "
                                          "reviewer(code) right after each call to the coder.")
        said = (f"the tester already ran on {code!r} in this round" if last[0] == "tester" else
                f"the reviewer said {last[2]!r}, which does not start with 'APPROVE' ({_APPROVES})")
        return "tester only on approved", (f"In {where}: your team {_doing(got)}, but {said}. That round "
                                           "ends without a test; the next round starts with the coder.")
    if want[0] == "reviewer" or got[0] == "reviewer":
        return "review every round", (f"In {where}: your team {_doing(got)}; the reviewer reads the code "
                                      f"the coder just wrote ({safe_repr(code, 40)}) once every round, even "
                                      "when it is empty or the same as before. Call reviewer(code) right "
                                      "after each call to the coder.")
    if want[0] == "tester":
        return "test approved code", (f"In {where}: the reviewer said {last[2]!r}, which starts with "
                                      f"'APPROVE' (anything that does approves, 'APPROVED' too), so the "
                                      f"tester runs next on {code!r}. Your team {_doing(got)}. Decide with "
                                      "review.startswith('APPROVE').")
    if want == _END:
        return "rounds", (f"In {where}: max_rounds={scenario.max_rounds} and all {rounds} rounds are "
                          f"used, but your team {_doing(got)}. The coder is called at most max_rounds times: "
                          "loop at most max_rounds times.")
    if got[1][:2] != want[1][:2]:
        return "feedback", (f"In {scenario.called}, round {rounds + 1}: your team {_doing(got)}; the coder "
                            f"gets three arguments, coder(task, plan, feedback): "
                            f"coder({', '.join(safe_repr(a, 40) for a in want[1])}).")
    return "feedback", (f"In {scenario.called}, round {rounds + 1}: the coder got feedback {safe_repr(got[1][2])}, "
                        f"but {_why_feedback(last, want[1][2])}. Pass the latest feedback to the coder.")


def _log_limit(max_rounds):
    """The most log entries the grader reads: ten times a full run's (1 + 3 per round), and more."""
    return 10 * (1 + 3 * max_rounds) + 100


def _shape(value, max_rounds):
    """``(code, log)`` with every entry a ``(role, output)`` tuple, or a problem in words.

    Exact types only: a value whose ``len``, ``==`` or iteration could run learner code
    (a subclass, a proxy) is a wrong shape, never something the grader trips over. A log far
    longer than any run's is refused before it is read (the grader's own work stays bounded).
    """
    if type(value) not in (tuple, list) or len(value) != 2:
        return None, f"run_team returned {safe_repr(value)}; return a pair (code, log)."
    code, log = value
    huge = too_long(log, _log_limit(max_rounds), "the log")
    if huge:
        return None, (f"{huge}: a run of max_rounds={max_rounds} speaks at most {1 + 3 * max_rounds} "
                      "times. Return the log of this run only, one (role, output) pair per call.")
    if code is not None and type(code) is not str:
        return None, f"the code returned is {safe_repr(code)}; it should be the coder's str, or None."
    if type(log) is not list or not all(type(e) in (tuple, list) and len(e) == 2 for e in log):
        return None, f"the log is {safe_repr(log)}; it should be a list of (role, output) pairs."
    if not all(type(r) is str and type(o) is str for r, o in log):
        return None, (f"the log is {safe_repr(log)}; each entry is (role, output), a role name and what "
                      "that agent said (both str).")
    return (code, [tuple(e) for e in log]), ""


def _rules(report, scenario, calls):
    """Judge the calls a learner's team made; the expected return value, and whether they were right."""
    expected, ref = scenario.run(run_team)
    broken = _judge(scenario, ref.calls, _safe(calls))
    if not broken:  # a run that broke the protocol once says nothing about the checks after its first break
        report.tried(*PROTOCOL_CHECKS)
    if broken:
        report.fail(*broken, line_divergence(scenario.called, [_line(c) for c in ref.calls] + ["(return)"],
                                              [_line(c) for c in _safe(calls)] + ["(return)"],
                                              lambda i: f"call {i + 1}"))
    return expected, not broken


def _compare(report, scenario, value, calls):
    expected, followed = _rules(report, scenario, calls)
    got, problem = _shape(value, scenario.max_rounds)
    report.tried("shape")
    if problem:
        report.fail("shape", f"In {scenario.called}: {problem}")
        return
    if not followed:
        return  # the result and the log of a run that left the protocol say nothing more
    code, log = got
    report.tried("result", "log")
    if code != expected[0]:
        why = ("the tester passed it" if expected[0] is not None else
               "the rounds ran out without a test result starting with 'PASS'")
        report.fail("result", f"In {scenario.called}: run_team returned code {safe_repr(code)}; it should return "
                              f"{safe_repr(expected[0])}, because {why}.")
    if log != expected[1] and len(log) > len(expected[1]) and log[len(log) - len(expected[1]):] == expected[1]:
        report.fail("log", f"In {scenario.called}: the log holds {len(log) - len(expected[1])} entries from an earlier "
                           "call to run_team before this run's own: a log made once, outside the function, "
                           "is kept between calls. Make a new log inside run_team on every call.")
    if log != expected[1]:
        report.fail("log", f"In {scenario.called}: the log is not the (role, output) pairs in speaking order.",
                    line_divergence(scenario.called, [f"{r}: {safe_repr(o)}" for r, o in expected[1]],
                                     [f"{r}: {safe_repr(o)}" for r, o in log], lambda i: f"log entry {i + 1}"))


@grading_run
def grade_run_team(fn):
    """Grade ``fn(task, planner, coder, reviewer, tester, max_rounds)``; always returns a Report."""
    report = Report(exercise="3.1").declare_all(REQUIREMENTS)
    if not callable(fn):
        report.fail("returns", f"run_team is {safe_repr(fn)}, not a function. Define it with `def`.")
        return report.finish(ran=False)
    crashed, earlier = False, []
    for scenario in NAMED + tuple(random_scenarios(RANDOM)):  # grading_run caps their total time
        script = scenario.script()
        call = call_learner(fn, scenario.task, *script.agents(), scenario.max_rounds,
                            what=f"run_team (in {scenario.called})")
        if call.not_implemented:
            report.outcome_override = "not implemented"
            return report.finish(ran=False)
        report.tried("returns")
        # A correct run makes at most 1 + 3 * max_rounds calls; far more than that and no
        # return means a loop around the agents, whether the call cap or the clock hit first.
        stuck = call.timed_out or len(script.calls) >= script.max_calls
        if not call.ok and stuck and len(script.calls) > 1 + 3 * scenario.max_rounds:
            coders = sum(1 for c in script.calls if c[0] == "coder")
            _rules(report, scenario, script.calls)
            report.fail("returns",
                f"In {scenario.called}: max_rounds={scenario.max_rounds}, but the agents were called "
                f"{len(script.calls)} times (the coder {coders} times) and run_team never returned. "
                "Count rounds by calls to the coder and stop at max_rounds.")
            break
        if not call.ok:  # a crash: the calls before it may already break a rule; the rest is unjudged
            _rules_before_a_crash(report, scenario, script.calls)
            report.fail("returns", call.problem)
            crashed = True
            continue
        _compare(report, scenario, call.value, script.calls)
        _same_log_again(report, scenario, call.value, earlier)
    if crashed:  # a team that crashed somewhere is not near a pass: what it stopped was never judged
        report.unjudge_passes()
    return report.finish(ran=False)  # a check passes only if some scenario really tried it


def _same_log_again(report, scenario, value, earlier):
    """Aliasing: the log of an earlier call must not change in a later one (one list kept between
    calls and emptied each time passes every comparison, and breaks every caller that keeps a log)."""
    if earlier:
        kept, copy_then = earlier
        # compared by identity, so no __eq__ of the learner's runs
        if len(kept) != len(copy_then) or any(a is not b for a, b in zip(kept, copy_then)):
            report.fail("log", f"In {scenario.called}: the log your team returned for the call before changed during "
                               "this one: it is the same list, kept between calls and emptied or extended each "
                               "time. Make a new log inside run_team on every call.")
    got, problem = _shape(value, scenario.max_rounds)
    earlier[:] = [] if problem else [value[1], list(value[1])]


def _rules_before_a_crash(report, scenario, calls):
    """Judge the calls a team made before it crashed, as far as they go."""
    _, ref = scenario.run(run_team)
    ours, theirs = ref.calls, _safe(calls)
    if any(ours[k] != theirs[k] for k in range(min(len(ours), len(theirs)))) or len(theirs) > len(ours):
        _rules(report, scenario, calls)
