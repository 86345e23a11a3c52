"""Failure injection: misbehaving roles and broken surroundings, each with the outcome it should have.

A fault is a set of keyword arguments for :func:`~agent_team.supervisor.supervise`
(a replaced policy, a tamper hook, a budget), the status the state machine
must still reach, why, and the layer of the system that stops it. Part 4 runs
them live; tests/engine/test_faults.py runs every row of :data:`FAULTS` and checks
the status, and that the layer is the one the run's trace shows by the layers'
definitions (:func:`agent_team.layers.stopped_by`). ``why`` is the fault's own
explanation, which part 4 shows after the learner's prediction.
Adding a fault is one row here (and its policy or hook): see CONTRIBUTING.md.
"""

from dataclasses import dataclass, field

from .layers import LAYERS, layers_seen, stopped_by
from .oracle import run_tests
from .policies import FIZZ_ONLY_SOURCE, FULL_SOURCE, output
from .repo import PLAN_PATH, SRC_PATH, TESTS_PATH, initial_repo
from .supervisor import RUN_STATUSES, supervise

__all__ = ["FAULTS", "LAYERS", "Fault", "fault", "run_fault", "layers_seen", "stopped_by"]  # and the policies


def fizz_only_coder(goal, view):
    """Never gets past the first cut, whatever the tests say."""
    return output("coder", "Fizz is enough", [{"path": SRC_PATH, "content": FIZZ_ONLY_SOURCE}], "done")


def greedy_planner(goal, view):
    """Plans, and also tries to write the source itself (planner-as-coder)."""
    return output("planner", "I'll just write it myself",
                  [{"path": PLAN_PATH, "content": "- write fizzbuzz\n"},
                   {"path": SRC_PATH, "content": FULL_SOURCE}], "planned and coded")


def wipe_plan(repo, round_):
    """A supervisor bug: PLAN.md is emptied before every coder turn."""
    return {**repo, PLAN_PATH: ""}


def stubborn_reviewer(goal, view):
    """Never approves: every review asks for one more change."""
    return output("reviewer", "one more nit", [
        {"path": "REVIEW.json", "content": '{"verdict": "request_changes", "notes": "rename n to number"}'}],
        "rename n to number")


def test_editing_coder(goal, view):
    """Writes the solution, and also 'fixes' the tests so that they always pass."""
    return output("coder", "make the tests easier", [
        {"path": SRC_PATH, "content": FULL_SOURCE},
        {"path": TESTS_PATH, "content": "# every test passes\n"}], "tests relaxed")


EXEC_SOURCE = "def fizzbuzz(n):\n    return __import__('os').getcwd()\n"
LOOP_SOURCE = "def fizzbuzz(n):\n    while True:\n        n = n + 1\n"
LIAR_SOURCE = (
    "class Liar:\n"
    "    def __eq__(self, other):\n"
    "        return True\n"
    "def fizzbuzz(n):\n"
    "    return Liar()\n"
)


def coder_writing(source, thought):
    """A coder that always writes ``source``."""
    def coder(goal, view):
        return output("coder", thought, [{"path": SRC_PATH, "content": source}], thought)
    coder.__name__ = f"coder_writing_{thought.split()[0]}"
    return coder


# Checks 3 and 5 before 15, although the plan says "check 15 first": fizzbuzz(15) comes back 'Fizz'.
UNPLANNED_SOURCE = (
    "def fizzbuzz(n):\n"
    "    if n % 3 == 0:\n"
    "        return 'Fizz'\n"
    "    if n % 5 == 0:\n"
    "        return 'Buzz'\n"
    "    if n % 15 == 0:\n"
    "        return 'FizzBuzz'\n"
    "    return str(n)\n"
)


def plan_ignoring_coder(goal, view):
    """Never reads PLAN.md: writes its own order of checks, whatever the plan and the tests say."""
    return output("coder", "no need to read the plan", [{"path": SRC_PATH, "content": UNPLANNED_SOURCE}],
                  "done my way")


def stale_claim_coder(goal, view):
    """Fixes its own private copy and says so, but never sends the fix: the shared file stays stale."""
    return output("coder", "fixed in my working copy", [],
                  "fixed: my copy of src/fizzbuzz.py passes every case")


def self_testing_coder(goal, view):
    """Runs the oracle itself, on a copy holding the full solution, but ships the Fizz-only cut.

    It tries to take over the supervisor's job: its own test run is the evidence
    it offers, as an extra ``tests`` field (the oracle's own report, not just words)
    and in its message. The supervisor reads no such field: the turn's ``ignored``
    says so.
    """
    mine = run_tests({**initial_repo(), SRC_PATH: FULL_SOURCE})
    out = output("coder", "I ran the tests myself", [{"path": SRC_PATH, "content": FIZZ_ONLY_SOURCE}],
                 f"tests pass: I ran them, {mine['passed']} of {mine['passed'] + mine['failed']}")
    return {**out, "tests": mine}


def crashing_coder(goal, view):
    raise RuntimeError("the model service is down")


def garbage_reviewer(goal, view):
    return "LGTM!!"  # a string, not an output dict


@dataclass(frozen=True)
class Fault:
    name: str
    what: str               # the fault, in one sentence
    expect: str             # the status the team must still reach
    why: str                # why it ends so, and why that layer stops it: shown after the prediction
    kwargs: dict = field(default_factory=dict)   # the setup: keyword arguments for supervise()
    layer: str = "supervisor"                    # the layer that stops it: one of LAYERS, as stopped_by reads the trace

    def __post_init__(self):
        if self.layer not in LAYERS:
            raise ValueError(f"fault {self.name!r}: layer is {self.layer!r}; write one of {', '.join(LAYERS)}")
        if self.expect not in RUN_STATUSES:
            raise ValueError(f"fault {self.name!r}: expect is {self.expect!r}; write one of {', '.join(RUN_STATUSES)}")


FAULTS = {f.name: f for f in (
    Fault("fizz-only coder", "the coder never gets past its Fizz-only first cut", "budget",
          "every patch is legal and the code runs; it is simply wrong, so no layer refuses or stops "
          "anything, and the tests stay red until the budget ends the run", {"coder": fizz_only_coder},
          layer="budget"),
    Fault("planner writes code", "the planner also patches src/fizzbuzz.py", "pass",
          "src/fizzbuzz.py is not in the planner's allowlist, so its whole turn is refused, the plan "
          "too; the supervisor then asks it again, but the allowlist had already stopped the fault, "
          "and the real coder still gets there", {"planner": greedy_planner}, layer="allowlist"),
    Fault("plan wiped", "PLAN.md is emptied before every coder turn", "pass",
          "nothing refuses a wiped file; the supervisor's rule does the work: PLAN.md empty before a "
          "coder turn sends the planner again, so the coder never codes without a plan", {"tamper": wipe_plan}),
    Fault("reviewer never approves", "the reviewer asks for changes even on green tests", "pass",
          "green tests are the supervisor's stop: the request_changes is overridden and the override "
          "recorded, so no reviewer can hold a finished run", {"reviewer": stubborn_reviewer}),
    Fault("coder edits tests", "the coder rewrites the test file along with the source", "budget",
          "the test file is in no allowlist, so every such turn is refused whole, the correct source "
          "with it; nothing of the coder's lands, and the budget ends the run",
          {"coder": test_editing_coder}, layer="allowlist"),
    Fault("coder uses __import__", "the coder's fizzbuzz reaches for __import__", "budget",
          "the code lands, but the oracle checks the source before it runs a case and refuses it: "
          "names that start with _ (here __import__) and methods beyond the ordinary ones (here "
          ".getcwd) are not allowed in its sandbox, so not one case runs",
          {"coder": coder_writing(EXEC_SOURCE, "import os")}, layer="oracle"),
    Fault("code loops forever", "the coder's fizzbuzz never returns", "budget",
          "the oracle counts the steps a case takes: the first case spends its budget and is stopped, "
          "the cases after it are not run, and all four count as failed",
          {"coder": coder_writing(LOOP_SOURCE, "loop forever")}, layer="oracle"),
    Fault("result lies about equality", "fizzbuzz returns an object that claims to equal anything",
          "budget", "the oracle refuses `class` in the source, so the lying object is never even made; "
          "and a result must be exactly a str before it is compared",
          {"coder": coder_writing(LIAR_SOURCE, "liar object")}, layer="oracle"),
    Fault("coder crashes", "the coder raises an exception on every turn", "budget",
          "the supervisor catches the exception, skips the turn and still runs the tests on the repo "
          "as it is: a crash is a fact in the trace, not the end of the run", {"coder": crashing_coder}),
    Fault("reviewer returns garbage", "the reviewer returns a bare string, not an output", "pass",
          "the supervisor refuses what is not an output, records why and goes on; reviews do not "
          "decide success, tests do", {"reviewer": garbage_reviewer}),
    Fault("coder ignores the plan", "the coder never reads PLAN.md and checks 3 and 5 before 15", "budget",
          "a plan is advice, not a rule any layer enforces: the turn is legal and the code runs, wrong "
          "on the one case the plan was about (fizzbuzz(15) comes back 'Fizz'), so only the budget "
          "ends the run", {"coder": plan_ignoring_coder}, layer="budget"),
    Fault("tests run against stale files", "the coder fixes a private copy and says so, but src/fizzbuzz.py "
          "in the repo stays stale", "budget",
          "a claim is only words: with no patch there is nothing to refuse, the oracle tests the one "
          "shared repo (still the stub) after every coder turn, and only the budget ends the run",
          {"coder": stale_claim_coder}, layer="budget"),
    Fault("coder runs the tests itself", "the coder runs the oracle on its own copy and hands that "
          "green report back as a `tests` field of its output, but ships the Fizz-only cut", "budget",
          "an output is a thought, patches and a message: the supervisor ignores the report the coder "
          "attached (the turn lists it as ignored), runs the oracle on the shipped file itself, and "
          "that run is red", {"coder": self_testing_coder}),
    # a new fault: one more row here (see CONTRIBUTING.md)
)}


def fault(name):
    """The fault called ``name``; a KeyError that lists the names if there is none."""
    if name not in FAULTS:
        raise KeyError(f"no fault named {name!r}; choose one of: {', '.join(FAULTS)}")
    return FAULTS[name]


def run_fault(name, max_rounds=4, **overrides):
    """Run the team with one fault injected; returns the RunResult."""
    return supervise(max_rounds=max_rounds, **{**fault(name).kwargs, **overrides})
