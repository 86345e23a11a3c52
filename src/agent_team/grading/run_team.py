"""Grading a learner's ``run_team`` (the seed-000 protocol), requirement by requirement.

Each requirement is checked against the *calls the agents actually received*,
not only against the final answer: a run_team that returns the right log but
showed the coder stale feedback along the way still fails, and says where.
"""

import time

from ..protocol import SEED_EXAMPLE, Scenario, random_scenarios, run_team
from .core import Report, call_learner, first_divergence, grading_run, show

TOTAL_SECONDS = 5.0

NAMED = (
    SEED_EXAMPLE,
    Scenario("zero rounds", max_rounds=0),
    Scenario("approved and passing at once", codes=("v1",), reviews=("APPROVE",), results=("PASS",)),
    Scenario("the rounds run out (the reviewer always rejects)", codes=("v1", "v2", "v3", "v4"),
             reviews=("REJECT: style",), max_rounds=3),
    Scenario("replies that contain the keyword but do not start with it",
             codes=("v1", "v2", "v3", "v4"),
             reviews=("NOT APPROVE", "APPROVE", "APPROVE", "APPROVE"),
             results=("NO PASS yet", "FAIL: PASS expected", "PASS"), max_rounds=4),
    Scenario("a failing test, then a pass", codes=("v1", "v2"), reviews=("APPROVE",),
             results=("FAIL: test_empty", "PASS"), max_rounds=2),
)

REQUIREMENTS = (
    ("returns", "run_team returns (it does not raise or loop forever)"),
    ("shape", "it returns a pair (code, log), and log is a list of (role, output) pairs"),
    ("plan once", "the planner is called exactly once, first, with the task"),
    ("feedback", "the coder gets (task, plan, feedback) with the latest feedback: '' at first, "
                 "then 'review: ...' or 'test: ...'"),
    ("review latest code", "the reviewer is called with the code the coder just wrote"),
    ("tester only on approved", "the tester runs only on code whose review starts with 'APPROVE'"),
    ("rounds", "the coder is called at most max_rounds times"),
    ("stop on PASS", "the team stops as soon as a test result starts with 'PASS'"),
    ("log", "the log lists every (role, output) pair in speaking order"),
    ("result", "it returns the passing code, or None when the rounds run out"),
    ("differential", "it agrees with the reference on 200 random scenarios"),
)

HINT = ("Follow the protocol line by line: plan once; loop at most max_rounds times; after a "
        "review that does not start with 'APPROVE' set feedback and `continue` (no test); after a "
        "test that does not start with 'PASS' set feedback and go round again.")


def _line(call):
    role, args, reply = call
    return f"{role}({', '.join(show(a, 40) for a in args)}) -> {show(reply, 40)}"


def _rules(report, scenario, calls):
    """Check the protocol's rules against the calls the agents received."""
    where = scenario.name
    planners = [i for i, c in enumerate(calls) if c[0] == "planner"]
    if planners != [0] or calls[0][1] != (scenario.task,):
        report.fail("plan once",
            f"In {where}: the planner was called {len(planners)} time(s)"
            + ("" if not planners else f", first at call {planners[0] + 1} with {show(calls[planners[0]][1])}")
            + f"; it should be called once, first, as planner({scenario.task!r}).")
    feedback, code, approved, coder_calls = "", None, False, 0
    for i, (role, args, reply) in enumerate(calls, 1):
        if role == "coder":
            coder_calls += 1
            want = (scenario.task, scenario.plan, feedback)
            if args != want:
                report.fail("feedback",
                    f"In {where}, round {coder_calls}: the coder got {show(args)}; "
                    f"it should get {show(want)}. Pass the latest feedback to the coder.")
            code, approved = reply, False
        elif role == "reviewer":
            if args != (code,):
                report.fail("review latest code",
                    f"In {where}, call {i}: the reviewer got {show(args)}, but the latest code "
                    f"was {show(code)}.")
            approved = reply.startswith("APPROVE")
            if not approved:
                feedback = "review: " + reply
        elif role == "tester":
            if not approved or args != (code,):
                report.fail("tester only on approved",
                    f"In {where}, call {i}: the tester ran on {show(args[0])}, but "
                    + ("that code was not approved by the reviewer." if not approved
                       else f"the approved code was {show(code)}.")
                    + " Run the tester only right after a review that starts with 'APPROVE'.")
            if reply.startswith("PASS") and i < len(calls):
                report.fail("stop on PASS",
                    f"In {where}: the tester said {reply!r} at call {i}, but the team went on "
                    f"with {_line(calls[i])}. Return as soon as a result starts with 'PASS'.")
            feedback = "test: " + reply
            approved = False
    if coder_calls > scenario.max_rounds:
        report.fail("rounds",
            f"In {where}: max_rounds={scenario.max_rounds}, but the coder was called {coder_calls} "
            "times. Count rounds by calls to the coder.")


def _returned(value):
    if isinstance(value, (tuple, list)) and len(value) == 2 and isinstance(value[1], list):
        return f"({show(value[0], 40)}, a log of {len(value[1])} entries)"
    return show(value, 60)


def _shape(report, scenario, value):
    if not (isinstance(value, (tuple, list)) and len(value) == 2):
        report.fail("shape",
            f"In {scenario.name}: run_team returned {show(value)}; return a pair (code, log).")
        return None
    code, log = value
    if not isinstance(log, list) or not all(isinstance(e, (tuple, list)) and len(e) == 2 for e in log):
        report.fail("shape",
            f"In {scenario.name}: the log is {show(log)}; it should be a list of (role, output) pairs.")
        return None
    return code, [tuple(e) for e in log]


@grading_run
def check_run_team(fn):
    """Grade ``fn(task, planner, coder, reviewer, tester, max_rounds)``; always returns a Report."""
    report = Report("Exercise 3.1: run_team", hint=HINT, exercise="3.1")
    for name, requirement in REQUIREMENTS:
        report.declare(name, requirement)
    if not callable(fn):
        report.fail("returns", f"run_team is {show(fn)}, not a function. Define it with `def`.")
        return report.finish(ran=False)
    deadline, completed = time.perf_counter() + TOTAL_SECONDS, 0
    for k, scenario in enumerate(NAMED + tuple(random_scenarios(200))):
        left = deadline - time.perf_counter()
        if left <= 0:
            report.fail("differential",
                f"Grading stopped after {k} scenarios: together they took over {TOTAL_SECONDS:g} s.")
            break
        script = scenario.script()
        call = call_learner(fn, scenario.task, *script.agents(), scenario.max_rounds,
                            seconds=min(2.0, left), what=f"run_team (in {scenario.name})")
        if call.not_implemented:
            report.status_override = "not implemented"
            report.hint = "Replace the `raise NotImplementedError` with your code, then run this cell again."
            return report.finish()
        # A correct run makes at most 1 + 3 * max_rounds calls; far more than that and no
        # return means a loop around the agents, whether the call cap or the clock hit first.
        stuck = call.timed_out or len(script.calls) >= script.max_calls
        if not call.ok and stuck and len(script.calls) > 1 + 3 * scenario.max_rounds:
            coders = sum(1 for c in script.calls if c[0] == "coder")
            report.fail("rounds",
                f"In {scenario.name}: max_rounds={scenario.max_rounds}, but the agents were called "
                f"{len(script.calls)} times (the coder {coders} times) and it never stopped. "
                "Count rounds by calls to the coder and stop at max_rounds.")
            report.fail("returns", "run_team kept calling the agents and never returned.")
            break
        if not call.ok:
            report.fail("returns", call.problem)
            if "did not return" in call.problem:
                break  # one hang is enough: do not make the learner wait for more
            continue
        completed += 1
        expected, ref = scenario.run(run_team)
        _rules(report, scenario, script.calls)
        ours = [_line(c) for c in ref.calls] + [f"return {_returned(expected)}"]
        theirs = [_line(c) for c in script.calls] + [f"return {_returned(call.value)}"]
        if theirs != ours:
            report.fail("differential",
                f"In {scenario.name} (max_rounds={scenario.max_rounds}), your team and the reference "
                "did different things.",
                first_divergence(scenario.name, ours, theirs, lambda i: f"call {i + 1}"))
        got = _shape(report, scenario, call.value)
        if got is None:
            continue
        code, log = got
        if log != expected[1]:
            report.fail("log",
                f"In {scenario.name}: the log differs from what the agents said.",
                first_divergence(scenario.name, [f"{r}: {show(o)}" for r, o in expected[1]],
                                 [f"{r}: {show(o)}" for r, o in log], lambda i: f"log entry {i + 1}"))
        if code != expected[0]:
            report.fail("result",
                f"In {scenario.name}: run_team returned code {show(code)}; expected {show(expected[0])}.")
    return report.finish(ran=completed > 0)
