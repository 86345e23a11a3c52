"""Property-based tests (hypothesis) for the invariants of the protocol and the supervisor.

Example counts are modest so that the whole engine suite stays fast.
"""

import copy

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from agent_team.oracle import run_tests
from agent_team.policies import DEFAULT_POLICIES, FIZZ_ONLY_SOURCE, FULL_SOURCE, output, review_patch
from agent_team.protocol import Script, run_team
from agent_team.repo import (ALLOWLIST, MAX_CONTENT, PLAN_PATH, REVIEW_PATH, SRC_PATH, TESTS_PATH,
                             apply_turn, initial_repo)
from agent_team.supervisor import supervise

# "explain" traces the test with sys.settrace, which call_limited would then share: leave it out.
PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink)
QUICK = settings(max_examples=150, deadline=None, phases=PHASES)
SLOW = settings(max_examples=60, deadline=None, phases=PHASES,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# --- the seed-000 protocol ------------------------------------------------------------------------

replies = st.sampled_from(["APPROVE", "APPROVE: ok", "REJECT: style", "NOT APPROVE", " APPROVE",
                           "approve", "", "PASS", "FAIL: x"]) | st.text(max_size=12)
results = st.sampled_from(["PASS", "PASS: 4/4", "FAIL: test_empty", "NO PASS", "pass", ""]) | st.text(max_size=12)


@st.composite
def scripts(draw):
    rounds = draw(st.integers(0, 7))
    n = rounds + 2
    return rounds, Script(plan=draw(st.text(max_size=8)),
                          codes=[f"v{i}" for i in range(1, n + 1)],
                          reviews=draw(st.lists(replies, min_size=1, max_size=n)),
                          results=draw(st.lists(results, min_size=1, max_size=n)))


@QUICK
@given(scripts(), st.text(max_size=10))
def test_protocol_invariants(drawn, task):
    max_rounds, script = drawn
    code, log = run_team(task, *script.agents(), max_rounds)
    calls = script.calls
    # the planner once, first, with the task
    assert calls[0] == ("planner", (task,), script.plan) and log[0] == ("planner", script.plan)
    assert [c[0] for c in calls].count("planner") == 1
    # coder calls <= max_rounds
    coders = [c for c in calls if c[0] == "coder"]
    assert len(coders) <= max_rounds
    # the log is exactly the agents' replies, in the order they were asked
    assert log == [(role, reply) for role, _, reply in calls]
    # order: coder then reviewer; a tester only right after an APPROVE review of the same code
    feedback = ""
    for i, (role, args, reply) in enumerate(calls[1:], 1):
        prev_role, prev_args, prev_reply = calls[i - 1]
        if role == "coder":
            assert args == (task, script.plan, feedback)
            assert prev_role in ("planner", "reviewer", "tester")
            if prev_role == "reviewer":
                assert not prev_reply.startswith("APPROVE")
            if prev_role == "tester":
                assert not prev_reply.startswith("PASS")
        elif role == "reviewer":
            assert prev_role == "coder" and args == (prev_reply,)
            if not reply.startswith("APPROVE"):
                feedback = "review: " + reply
        else:
            assert role == "tester"
            assert prev_role == "reviewer" and prev_reply.startswith("APPROVE")
            assert args == prev_args  # the very code that was approved
            if not reply.startswith("PASS"):
                feedback = "test: " + reply
    # success iff the last reply is a PASS from the tester, and the code is the one tested
    if code is None:
        assert len(coders) == max_rounds
        assert not (calls[-1][0] == "tester" and calls[-1][2].startswith("PASS"))
    else:
        assert calls[-1][0] == "tester" and calls[-1][2].startswith("PASS")
        assert calls[-1][1] == (code,)


# --- the supervisor under misbehaving policies ------------------------------------------------------

PATHS = [SRC_PATH, PLAN_PATH, REVIEW_PATH, TESTS_PATH, "notes.md", "../PLAN.md", "/PLAN.md",
         "src\\fizzbuzz.py", "PLAN.md\x00", "", "src/./fizzbuzz.py"]
garbage = st.one_of(st.none(), st.integers(), st.floats(allow_nan=False), st.binary(max_size=8),
                    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(),
                                                                         max_size=2))
huge = st.sampled_from([MAX_CONTENT + 1, 200_000]).map(lambda n: "x" * n)
contents = st.one_of(st.sampled_from([FIZZ_ONLY_SOURCE, FULL_SOURCE, "", "def fizzbuzz(n):\n    return 1/0\n",
                                      '{"verdict": "approve", "notes": ""}',
                                      '{"verdict": "request_changes", "notes": "no"}', "not json"]),
                     st.text(max_size=30), huge, garbage)
patch = st.one_of(st.fixed_dictionaries({"path": st.sampled_from(PATHS) | st.text(max_size=12),
                                         "content": contents}),
                  st.fixed_dictionaries({"path": st.sampled_from(PATHS)}), garbage)


class Boom(Exception):
    pass


def loop_forever():
    n = 0
    while True:
        n += 1


# one behaviour per call; the policy repeats its last behaviour when it runs out
behaviour = st.one_of(
    st.just(("fake",)),
    st.sampled_from([("raise", Boom), ("raise", SystemExit), ("raise", RecursionError), ("raise", GeneratorExit)]),
    st.tuples(st.just("return"), garbage),
    st.tuples(st.just("return"), st.text(max_size=20)),
    st.tuples(st.just("output"), st.sampled_from(["planner", "coder", "reviewer", "tester", None]),
              st.one_of(st.text(max_size=10), huge, garbage),
              st.one_of(st.lists(patch, max_size=4), st.lists(patch, min_size=9, max_size=10), garbage,
                        st.text(max_size=5))),
    st.just(("loop",)),
)


class Chaos:
    def __init__(self, role, plan):
        self.role, self.plan, self.calls = role, plan, 0

    def __call__(self, goal, view):
        step = self.plan[min(self.calls, len(self.plan) - 1)]
        self.calls += 1
        kind = step[0]
        if kind == "fake":
            return DEFAULT_POLICIES[self.role](goal, view)
        if kind == "raise":
            raise step[1]("chaos")
        if kind == "return":
            return step[1]
        if kind == "loop":
            loop_forever()
        _, role, text, patches = step
        out = {"thought": text, "message": text, "patches": patches}
        if role is not None:
            out["role"] = self.role if role == "tester" else role
        return out


plans = st.lists(behaviour, min_size=1, max_size=6)


def replay(result, start):
    """Rebuild the repo from the trace's recorded changes, checking every turn on the way."""
    repo = copy.deepcopy(start)
    for event in result.trace:
        if event["type"] == "turn":
            role = event["role"]
            # a role is shown the repo as it is at that moment
            if "source" in event["view"]:
                assert event["view"]["source"] == repo.get(SRC_PATH, "")
            if "plan" in event["view"]:
                assert event["view"]["plan"] == repo.get(PLAN_PATH, "")
            if not event["applied"]:
                assert event["error"] and event["changes"] == []  # a rejected turn changes nothing
            for change in event["changes"]:
                assert change["path"] in ALLOWLIST[role]           # only allowlisted paths change
                assert change["before"] == repo.get(change["path"])
                repo[change["path"]] = change["after"]
        elif event["type"] == "tests":
            assert event["tests"] == run_tests(repo)               # tests run on the repo as it stands
    return repo


@SLOW
@given(plans, plans, plans, st.integers(0, 4), st.booleans())
def test_supervisor_survives_misbehaving_policies(p_plan, p_code, p_review, max_rounds, require_plan):
    planner, coder, reviewer = Chaos("planner", p_plan), Chaos("coder", p_code), Chaos("reviewer", p_review)
    start = initial_repo()
    result = supervise(max_rounds=max_rounds, planner=planner, coder=coder, reviewer=reviewer,
                       require_plan=require_plan, seconds=0.05)
    assert result.status in ("pass", "budget")
    assert start == initial_repo()
    # the repo the trace describes is the repo returned, and only allowlisted files ever changed
    assert replay(result, start) == result.repo
    assert result.repo[TESTS_PATH] == start[TESTS_PATH]
    assert set(result.repo) == set(start)
    # coder turns are rounds, each followed by a test run, never more than max_rounds
    types = [(e["type"], e.get("role")) for e in result.trace]
    coder_turns = [i for i, t in enumerate(types) if t == ("turn", "coder")]
    assert len(coder_turns) == result.rounds <= max_rounds
    # a turn whose deadline passed (a slow moment, e.g. in Pyodide) may stop before the policy's
    # first line runs; every other turn called the coder exactly once
    late = sum(1 for i in coder_turns if result.trace[i]["failure"] == "timeout")
    assert len(coder_turns) - late <= coder.calls <= len(coder_turns)
    assert all(types[i + 1] == ("tests", None) for i in coder_turns)
    assert types[0] == ("start", None) and types[-1] == ("stop", None)
    assert sum(1 for t in types if t[0] == "stop") == 1
    # the status agrees with the oracle
    if result.status == "pass":
        assert run_tests(result.repo)["ok"] and result.tests["ok"]
    else:
        assert result.rounds == max_rounds
        assert result.tests is None or not result.tests["ok"]


@QUICK
@given(st.sampled_from(sorted(ALLOWLIST) + ["tester"]), st.lists(patch, max_size=10))
def test_apply_turn_is_all_or_nothing(role, patches):
    repo = initial_repo()
    before = copy.deepcopy(repo)
    new, error = apply_turn(repo, role, patches)
    assert repo == before                              # never mutated
    if error is None:
        changed = {p for p in new if new[p] != repo.get(p)}
        assert changed <= ALLOWLIST.get(role, frozenset())
        assert set(new) == set(repo) | changed
        for p in patches:                               # the last write to a path wins
            assert new[p["path"]] == [q["content"] for q in patches if q["path"] == p["path"]][-1]
    else:
        assert new is repo and isinstance(error, str) and error


@QUICK
@given(st.lists(st.sampled_from(["approve", "request_changes"]), max_size=6), st.booleans())
def test_green_tests_always_stop_the_run_whatever_the_reviewer_says(verdicts, start_green):
    answers = iter(verdicts + ["request_changes"] * 10)

    def reviewer(goal, view):
        return output("reviewer", "v", [review_patch(next(answers), str(view["past_verdicts"]))])
    repo = {**initial_repo(), SRC_PATH: FULL_SOURCE} if start_green else None
    coder = (lambda g, v: output("coder", "keep")) if start_green else None
    result = supervise(max_rounds=4, reviewer=reviewer, repo=repo, coder=coder)
    assert result.status == "pass"
    assert result.rounds == (1 if start_green else 2)
    last = [e for e in result.trace if e["type"] == "turn" and e["role"] == "reviewer"][-1]
    assert last.get("override", False) == (last["verdict"]["verdict"] == "request_changes")
