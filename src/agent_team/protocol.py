"""The four-agent protocol of the graded exercise, and scripted agents to drive it.

Here each agent is just a function to a string (no repo, no allowlist):
``planner(task)``, ``coder(task, plan, feedback)``, ``reviewer(code)``,
``tester(code)``. :func:`run_team` is the reference the grader compares a
learner's version against; :class:`Script` makes agents that answer from
lists and remember every call, so a run can be checked call by call.
"""

import random
from dataclasses import dataclass, field

__all__ = ["run_team", "Script", "Scenario", "SEED_EXAMPLE", "NAMED_SCENARIOS", "random_scenario",
           "random_scenarios"]


def run_team(task, planner, coder, reviewer, tester, max_rounds):
    """Plan once, then up to ``max_rounds`` rounds of code -> review -> (test).

    Returns ``(code, log)`` when a test result starts with "PASS", else
    ``(None, log)``; ``log`` lists ``(role, output)`` in speaking order.
    """
    plan = planner(task)
    log = [("planner", plan)]
    feedback = ""
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        log.append(("coder", code))
        review = reviewer(code)
        log.append(("reviewer", review))
        if not review.startswith("APPROVE"):
            feedback = "review: " + review  # no test on code the reviewer rejected
            continue
        result = tester(code)
        log.append(("tester", result))
        if result.startswith("PASS"):
            return code, log
        feedback = "test: " + result
    return None, log


class TooManyCalls(BaseException):
    """A scripted agent was called far more often than any correct run needs."""


@dataclass
class Script:
    """Scripted agents. Each answers from its list in turn (repeating the last
    answer when the list runs out) and records ``(role, args)`` in ``calls``."""

    plan: str = "PLAN"
    codes: list = field(default_factory=lambda: ["v1"])
    reviews: list = field(default_factory=lambda: ["APPROVE"])
    results: list = field(default_factory=lambda: ["PASS"])
    max_calls: int = 1_000
    calls: list = field(default_factory=list)    # (role, args, reply), in call order

    def _answer(self, role, args, answers):
        if len(self.calls) >= self.max_calls:
            raise TooManyCalls(f"the agents were called more than {self.max_calls} times")
        done = sum(1 for call in self.calls if call[0] == role)
        reply = answers[min(done, len(answers) - 1)]
        self.calls.append((role, args, reply))
        return reply

    def planner(self, task):
        return self._answer("planner", (task,), [self.plan])

    def coder(self, task, plan, feedback):
        return self._answer("coder", (task, plan, feedback), self.codes)

    def reviewer(self, code):
        return self._answer("reviewer", (code,), self.reviews)

    def tester(self, code):
        return self._answer("tester", (code,), self.results)

    def agents(self):
        """``(planner, coder, reviewer, tester)``, ready to pass to ``run_team``."""
        return self.planner, self.coder, self.reviewer, self.tester


@dataclass(frozen=True)
class Scenario:
    """A named situation to run a ``run_team`` in: the task, the scripts, the budget."""

    name: str
    task: str = "Write fizzbuzz"
    plan: str = "PLAN: 15, 3, 5, else str(n)"
    codes: tuple = ("v1",)
    reviews: tuple = ("APPROVE",)
    results: tuple = ("PASS",)
    max_rounds: int = 3

    @property
    def called(self):
        """The scenario as a message names it: its name is a noun phrase, so after "In" it is quoted."""
        return f"the scenario '{self.name}'"

    def script(self):
        return Script(self.plan, list(self.codes), list(self.reviews), list(self.results))

    def run(self, fn):
        """Call ``fn`` (a run_team) in this scenario: ``(return value, script)``."""
        script = self.script()
        return fn(self.task, *script.agents(), self.max_rounds), script


SEED_EXAMPLE = Scenario(
    "the worked example (v1, v2, v3)",
    codes=("v1", "v2", "v3"),
    reviews=("REJECT: no error handling", "APPROVE", "APPROVE"),
    results=("FAIL: test_empty", "PASS"),
    max_rounds=5,
)

# Named scenarios for the grader of exercise 3.1, one per corner of what the text allows; they
# run before the random ones, so a report's first failure is usually in a scenario named after it.
NAMED_SCENARIOS = (
    SEED_EXAMPLE,
    Scenario("zero rounds", max_rounds=0),
    Scenario("approved and passing at once", codes=("v1",), reviews=("APPROVE",), results=("PASS",)),
    Scenario("the rounds run out (the reviewer always rejects)", codes=("v1", "v2", "v3", "v4"),
             reviews=("REJECT: style",), max_rounds=3),
    Scenario("a failing test, then a pass", codes=("v1", "v2"), reviews=("APPROVE",),
             results=("FAIL: test_empty", "PASS"), max_rounds=2),
    Scenario("replies that start with the keyword and go on", codes=("v1", "v2", "v3"),
             reviews=("APPROVED", "APPROVE: fine", "APPROVE"), results=("FAILED", "PASSED"), max_rounds=4),
    Scenario("replies that contain the keyword but do not start with it",
             codes=("v1", "v2", "v3", "v4"),
             reviews=("NOT APPROVE", "APPROVE", "APPROVE", "APPROVE"),
             results=("NO PASS yet", "FAIL: PASS expected", "PASS"), max_rounds=4),
    Scenario("other verdict words, other cases, a leading space",
             codes=("v1", "v2", "v3", "v4", "v5", "v6", "v7"),
             reviews=("LGTM", "OK", "approve", " APPROVE", "APPROVE", "APPROVE", "APPROVE"),
             results=("OK", "pass", "PASS"), max_rounds=7),
    Scenario("the coder repeats itself", codes=("v1", "v1", "v2", "v1"),
             reviews=("REJECT: too long", "APPROVE", "REJECT: no tests", "APPROVE"),
             results=("FAIL: test_empty", "PASS"), max_rounds=6),
    Scenario("empty code, approved, rejected, then passing", codes=("",),
             reviews=("APPROVE", "REJECT: empty", "APPROVE"), results=("FAIL: nothing to test", "PASS"),
             max_rounds=4),
    Scenario("a long run that passes in round 12", codes=tuple(f"v{i}" for i in range(1, 13)),
             reviews=("REJECT: not yet",) * 10 + ("APPROVE",), results=("FAIL: test_big", "PASS"),
             max_rounds=12),
    Scenario("twelve rounds, none passing", codes=tuple(f"v{i}" for i in range(1, 13)),
             reviews=("APPROVE", "REJECT: no"), results=("FAIL: test_one",), max_rounds=12),
    Scenario("forty rounds, the last one passing", codes=tuple(f"v{i}" for i in range(1, 41)),
             reviews=("REJECT: again",) * 39 + ("APPROVE",), max_rounds=40),
    # past a round cap a learner might add "to be safe" (50, 100): 302 calls, far under max_calls, and
    # cheap (about 0.05 s traced): a longer one would slow every grading
    Scenario("150 rounds, the last one passing", codes=tuple(f"v{i}" for i in range(1, 151)),
             reviews=("REJECT: again",) * 149 + ("APPROVE",), max_rounds=150),
    Scenario("whitespace that belongs to the replies", task="  Fix the parser\n", plan=" 1. code\n2. test\n",
             codes=("v1\n", "  v2 "), reviews=("REJECT: trailing space ", "APPROVE, not a REJECT\n"),
             results=("PASS (0 FAIL)\n",), max_rounds=3),
    Scenario("code that looks like a verdict", task="PASS", plan="APPROVE",
             codes=("APPROVE", "PASS"), reviews=("REJECT: APPROVE", "APPROVE"),
             results=("PASS",), max_rounds=3),
)

# What scripted agents may say. Every reply is a str, as the exercise promises, and the
# scenarios range over everything it allows: replies that start with the keyword and go on
# ("APPROVED", "PASS: 4/4", "PASSED"), that contain it later or in another case, other verdict
# words, empty replies; codes that repeat, that are empty, that are not "vN".
APPROVALS = ("APPROVE", "APPROVED", "APPROVE: looks fine", "APPROVE\n", "APPROVEMENT?",
             "APPROVE, not a REJECT")
NOT_APPROVALS = ("REJECT: no error handling", "REJECT: APPROVE later", "NOT APPROVE", "approve",
                 " APPROVE", "Approved", "LGTM", "OK", "ACCEPT", "PASS", "APPROV", "")
PASSES = ("PASS", "PASSED", "PASS: 4/4", "PASS\n", "PASSING?", "PASS (0 FAIL)")
NOT_PASSES = ("FAIL: test_empty", "FAIL: PASS expected", "pass", " PASS", "Passed", "NO PASS",
              "OK", "SUCCESS", "APPROVE", "PAS", "")
_TASKS = ("Write fizzbuzz", "Fix the parser", "", "PASS the tests", "  Add a cache\n")
_PLANS = ("PLAN", "1. code\n2. test\n", "", "APPROVE it", " PLAN: 15, 3, 5, else str(n)")
_CODE_STYLES = (
    lambda rng, i: f"v{i}",                                   # a new version each round
    lambda rng, i: rng.choice(("v1", "v2", "v3")),            # versions come back
    lambda rng, i: rng.choice(("", "v1", "")),                # empty code
    lambda rng, i: f"def fizzbuzz(n):\n    return {i}\n",     # real-looking code
    lambda rng, i: rng.choice(("APPROVE", "PASS", "v1")),     # code that looks like a verdict
)


def random_scenario(rng, index=0):
    """A random scenario for differential testing (``rng`` is a ``random.Random``).

    ``max_rounds`` runs from 0 to 15; each agent has a reply for every round (and repeats
    its last one after that); about half of the reviews approve, about a third of the
    test results pass.
    """
    rounds = rng.choice(range(16)) if rng.random() < 0.3 else rng.randint(0, 7)
    code = rng.choice(_CODE_STYLES)

    def pick(yes, no, chance):
        return rng.choice(yes) if rng.random() < chance else rng.choice(no)
    return Scenario(
        f"random scenario #{index}",
        task=rng.choice(_TASKS),
        plan=rng.choice(_PLANS),
        codes=tuple(code(rng, i) for i in range(1, rounds + 2)),
        reviews=tuple(pick(APPROVALS, NOT_APPROVALS, 0.5) for _ in range(rounds + 1)),
        results=tuple(pick(PASSES, NOT_PASSES, 0.3) for _ in range(rounds + 1)),
        max_rounds=rounds,
    )


def random_scenarios(count=200, seed=2024):
    rng = random.Random(seed)
    return [random_scenario(rng, i) for i in range(1, count + 1)]
