"""Graduated hints for every graded exercise: one table, keyed by exercise id.

Each exercise has three hints, revealed one at a time by the hints widget:

1. a **nudge**: which rule of the exercise text the usual wrong attempt forgets;
2. an **approach**: the shape of a working solution, in words;
3. **near code**: a skeleton with the decisive lines left as ``...``.

They are written for the mistakes learners really make (the graders' mutant
suites and a learner walkthrough): a dict shared between calls, reading
"count" as "in a row", a keyword compared by splitting on ``:``, a fault that
changes nothing, a rule keyed on the path instead of the role, an empty list
treated as "all succeeded". The text is course prose: `backticks` become code.
"""

from dataclasses import dataclass

from .faults import FAULTS  # hints that count part 4's faults count the table, never a number typed in

__all__ = ["Hint", "HINTS", "LEVELS", "REPORT_LEVELS", "hints_for", "report_hint"]

LEVELS = ("nudge", "approach", "near code")
# A grader's report closes with the nudge or the approach at most: the near code, close to a
# solution, shows only when the learner asks the Hints cell for it.
REPORT_LEVELS = 2


@dataclass(frozen=True)
class Hint:
    text: str
    code: str = ""  # a skeleton to read, never a whole solution
    checks: tuple = ()  # the report checks it speaks to: a report failing one first may close with it


HINTS = {
    "1.1": (
        Hint("Three things can go wrong before a case gives an answer: the source may not compile, it "
             "may not define `fizzbuzz`, and a case may raise. Each of them is a failed case with a "
             "message in the dict you return; `run_tests` itself never raises.",
             checks=("never raises", "errors explain")),
        Hint("Make a new dict inside `run_tests` on every call (a dict made once outside is shared by "
             "every repo you test, so an old `fizzbuzz` survives into the next call). Pass that one dict "
             "to `exec` as its globals only: with a second dict for locals, a `fizzbuzz` that calls a "
             "helper function of its own cannot find it. Catch `Exception`, not a few chosen types, "
             "and turn each problem into a `str` in `errors`, naming its type (`type(err).__name__`: "
             "some exceptions have no text). A result counts only if it is exactly a `str` equal to the "
             "expected one: check `type(got) is str` before `==`, since a result's own `==` may raise.",
             checks=("one fresh dict", "report shape", "errors explain", "type before ==")),
        Hint("Fill in the `...`:",
             "def run_tests(repo):\n"
             "    namespace = {}                      # new on every call\n"
             "    try:\n"
             "        ...                             # exec the source into it, take fizzbuzz out\n"
             "    except Exception as err:            # no compile, no fizzbuzz: every case fails\n"
             "        return {\"ok\": False, \"passed\": 0, \"failed\": ..., \"errors\": [...]}\n"
             "    errors, passed = [], 0\n"
             "    for n, expected in CASES:\n"
             "        try:\n"
             "            got = fizzbuzz(n)\n"
             "        except Exception as err:\n"
             "            errors.append(...)           # name it by its type: its text may be empty\n"
             "            continue\n"
             "        ...                             # exactly a str (its type before ==), and equal: passed\n"
             "    return {\"ok\": not errors, \"passed\": passed, \"failed\": ..., \"errors\": errors}"),
    ),
    "2.1": (
        Hint("The limit is about how many times the reviewer has asked in total, not in a row and not in "
             "the last few rounds: an approval in between does not reset it. And green tests are "
             "approved whatever the count says.",
             checks=("counts requests", "escalate at the limit", "green: approve")),
        Hint("Read `view[\"last_tests\"]` first: green means approve. Otherwise the notes are the first "
             "test error, or exactly `\"no test results yet\"` when there is no test report yet. Count "
             "`\"request_changes\"` over the whole `view[\"past_verdicts\"]` list with `.count(...)`; "
             "when that count is already `NITS_LIMIT` or more, the message is `\"escalate\"`, and the "
             "verdict is still `request_changes` with the same notes. Keep no counter of your own: the "
             "same view must always get the same answer, so count from the view alone.",
             checks=("output schema", "red: request_changes", "notes", "message", "escalate at the limit",
                     "no test report")),
        Hint("Fill in the `...`:",
             "def nits_reviewer(goal, view):\n"
             "    last = view.get(\"last_tests\")\n"
             "    if last and last.get(\"ok\"):\n"
             "        return output(\"reviewer\", \"green\", [review_patch(\"approve\", ...)], ...)\n"
             "    notes = last[\"errors\"][0] if last and last.get(\"errors\") else \"no test results yet\"\n"
             "    asked = ...                          # every request_changes so far, not a streak\n"
             "    message = \"escalate\" if ... else notes\n"
             "    return output(\"reviewer\", \"red tests\", [review_patch(\"request_changes\", notes)], message)"),
    ),
    "3.1": (
        Hint("Compare your calls with the worked example's, line by line. The usual slips: the coder is "
             "not given the latest feedback with its `review: ` or `test: ` prefix, or a reply is "
             "matched too strictly or too loosely (`APPROVED` and `PASS: 4/4` start with the keyword; "
             "`LGTM` does not).",
             checks=("feedback", "test approved code", "tester only on approved", "stop on PASS")),
        Hint("Call the planner once. Then loop `max_rounds` times (zero rounds: no coder call at all): "
             "coder, then reviewer on every code, even empty or repeated code (no caching, no "
             "early stop when the code repeats). A review that does not start with `APPROVE` becomes "
             "the feedback and the round ends. Only approved code goes to the tester; a result that "
             "starts with `PASS` returns the code, any other result becomes the feedback. Use "
             "`str.startswith`, not `split(\":\")`, and no round limit of your own. Make the log and "
             "the feedback inside `run_team`, new on every call.",
             checks=("plan once", "review every round", "tester only on approved", "keep going", "rounds",
                     "log", "shape", "returns")),
        Hint("Fill in the `...`:",
             "plan = planner(task)\n"
             "log = [(\"planner\", plan)]\n"
             "feedback = \"\"\n"
             "for _ in range(max_rounds):\n"
             "    code = ...                           # the coder, from the task, the plan, the feedback\n"
             "    review = reviewer(code)\n"
             "    log += ...                           # both, in speaking order\n"
             "    if not review.startswith(\"APPROVE\"):\n"
             "        feedback = ...\n"
             "        continue\n"
             "    ...                                  # tester, log it, PASS returns (code, log)\n"
             "return None, log"),
    ),
    "4.1": (
        Hint("A row injects a fault only if the run it makes is different from the healthy team's run. "
             "Naming a role in the dict is not enough: `{\"coder\": None}` or the healthy coder under "
             "the key `coder` runs exactly the healthy trace.",
             checks=("two faults",)),
        Hint("Begin with part 3's two healthy rows. For each fault row, take a policy from "
             "`agent_team.faults` (or write one) that behaves differently, pass it under its role's "
             "keyword (`coder=`, `reviewer=`, `planner=`, or `tamper=` for a repo edit), keep "
             "`max_rounds` explicit, and write the status the run must still reach. Run it once "
             "yourself with `supervise(**kwargs).status` before you trust your expectation.",
             checks=("healthy rows", "expectations", "row limits")),
        Hint("Fill in the `...`:",
             "EVAL = [\n"
             "    (\"healthy, 1 round\", {\"max_rounds\": 1}, ...),\n"
             "    (\"healthy, 4 rounds\", {\"max_rounds\": 4}, ...),\n"
             "    (\"fizz-only coder\", {\"coder\": fizz_only_coder, \"max_rounds\": 4}, ...),\n"
             "    (\"reviewer never approves\", {\"reviewer\": stubborn_reviewer, \"max_rounds\": 4}, ...),\n"
             "]"),
    ),
    "4.2": (
        Hint("The rule is about who writes what: the role must be the coder, and the content must "
             "contain the words `exec` or `__import__`. Nothing else is refused: not other imports, not "
             "reviewer patches, not files because of their name.",
             checks=("refuses exec", "refuses __import__", "allows the rest", "other roles")),
        Hint("Check `role == \"coder\"` first (a rule keyed on `.py` paths also refuses a planner or a "
             "reviewer that never writes code). Then look for the words anywhere in the content, with "
             "`in`: not only `exec(` with a bracket, since `exec (` and `e = exec` get past that. "
             "Content that is not a string is not yours to judge (the repo refuses it). Return a "
             "short reason string, or `None` to let the turn through.",
             checks=("refuses exec", "refuses __import__")),
        Hint("Fill in the `...`:",
             "def no_exec(role, patch):\n"
             "    content = patch.get(\"content\")\n"
             "    if ...:                                # whose patch, and is its content text?\n"
             "        for word in (...):\n"
             "            if ...:\n"
             "                return ...                 # a short reason, as a str\n"
             "    return None"),
    ),
    "5.1": (
        Hint("An empty list is not \"everything succeeded\": nothing ran, so the gate blocks and asks a "
             "person (`user_decision`, step `None`). And the step a proposal names is the first in the "
             "list of its kind, whatever its id says.",
             checks=("empty list", "first in list order", "ids as given")),
        Hint("Handle the empty list first. Then walk the kinds in the order failed, cancelled, skipped; "
             "for each kind, walk the outcomes in list order and return the first match with its action "
             "from `ACTIONS`. Do not sort ids, take `min(...)` of them or look at only the first few "
             "outcomes, and ignore `risk` entirely. Only when no outcome matched does the gate pass.",
             checks=("precedence", "first in list order", "ids as given", "every outcome counts",
                     "risk does not block")),
        Hint("Fill in the `...`:",
             "def gate(outcomes):\n"
             "    if not outcomes:\n"
             "        return {\"passed\": False, \"action\": ..., \"step\": None}\n"
             "    for kind in (...):                     # the kinds, in the order that wins\n"
             "        for outcome in outcomes:            # list order, all of them\n"
             "            if ...:\n"
             "                return ...\n"
             "    return {\"passed\": True, \"action\": None, \"step\": None}"),
    ),
    "6.1": (
        Hint("A fault must change what happens: a policy that wraps the healthy one and passes its output "
             "through unchanged runs exactly the healthy trace, and the grader refuses it. And part 4's "
             f"{len(FAULTS)} faults do not count, nor a wrapper around one or its code typed in again (the "
             "grader compares the runs): write the misbehaving policy or hook yourself.",
             checks=("a real fault", "new")),
        Hint("Pick one role and make it break one rule (write a file outside its allowlist, send an empty "
             "file, leave no verdict, hang like a busy model with a small `seconds` in `kwargs`). Run "
             "`supervise(**kwargs)` with it and read the trace before you decide `expect`. Then write "
             "`evidence` as a search for the one event that shows the fault being caught, and check it "
             "returns `None` (not `\"\"`) on `supervise()`.",
             checks=("expected status", "evidence found", "evidence is specific")),
        Hint("Fill in the `...` (the shape of any fault; what misbehaves, and how, is yours):",
             "def my_policy(goal, view):\n"
             "    out = ...                      # start from a fake (fake_coder, fake_reviewer...)\n"
             "    return {**out, ...: ...}       # and change one thing the trace will show\n"
             "\n"
             "def my_evidence(run):\n"
             "    for e in turns(run.trace):     # every turn: role, round, applied, error, verdict...\n"
             "        if ...:                    # the event only your fault causes\n"
             "            return f\"round {e['round']}: ...\"\n"
             "    return None\n"
             "\n"
             "MY_FAULT = {\"name\": ..., \"kwargs\": {...: my_policy, \"max_rounds\": 4},\n"
             "            \"expect\": ..., \"evidence\": my_evidence}"),
    ),
    "6.2": (
        Hint("Four outcomes, always, in the order plan, code, tests, review, even for a run of 0 rounds: "
             "a step that never happened is `skipped`, not missing. Only the last test run and the "
             "last review count, as in the gate.",
             checks=("shape", "tests step", "review step")),
        Hint("Collect the coder's and the reviewer's turns (`turns(run.trace, role)`) and the test reports "
             "(`oracle_reports(run.trace)`). The plan "
             "succeeded when the plan file holds more than blank lines at the end; the code when some "
             "coder turn landed with at least one patch (not only the last turn); the tests when the last "
             "test run is green; the review when the last reviewer turn left a verdict (not any turn). "
             "The risk of every step is `write`, except the tests', which `execute`.",
             checks=("plan step", "code step", "tests step", "review step")),
        Hint("Fill in the `...`:",
             "def run_outcomes(run):\n"
             "    tests = oracle_reports(run.trace)\n"
             "    def outcome(step, risk, done, never=False):\n"
             "        status = \"skipped\" if never else \"success\" if done else \"failed\"\n"
             "        return {\"step\": step, \"risk\": risk, \"status\": status}\n"
             "    return [outcome(\"plan\", \"write\", ...),\n"
             "            outcome(\"code\", \"write\", ..., never=...),\n"
             "            outcome(\"tests\", \"execute\", bool(tests) and tests[-1][\"ok\"], never=not tests),\n"
             "            outcome(\"review\", \"write\", ..., never=...)]"),
    ),
    "7.1": (
        Hint("Look only at the last attempt to tell transient from hopeless: its `failure`, and its "
             "`status` (careful: 0 is a status, and it is falsy). Look back through `attempts` only "
             "to count the bad replies in a row.",
             checks=("transient", "refused", "bad replies")),
        Hint("Decide in three steps, in this order. First, what the last failure is: a bad reply "
             "(wait 0, unless it is the third in a row), 401/403, 404, another status below 500 but "
             "not 429, or transient (wait `retry_after` if it is not None, else `2 ** (len(attempts) - 1)`). "
             "Return a hopeless failure's stop at once. Then the attempts budget, then the time budget "
             "with the wait you worked out; only then `(\"retry\", wait)`.",
             checks=("transient", "retry after", "backoff", "bad key", "unknown model", "refused",
                     "out of attempts", "out of time", "order")),
        Hint("Fill in the `...`:",
             "def retry_or_stop(attempts, budget):\n"
             "    last = attempts[-1]\n"
             "    status, reason, wait = last[\"status\"], None, 0\n"
             "    if last[\"failure\"] == \"bad reply\":\n"
             "        row = ...  # bad replies at the end of attempts, in a row\n"
             "        reason = \"bad replies\" if row >= 3 else None\n"
             "    elif status in (401, 403):\n"
             "        reason = \"bad key\"\n"
             "    elif status == 404:\n"
             "        reason = \"unknown model\"\n"
             "    elif ...:  # any other status that is not transient\n"
             "        reason = \"refused\"\n"
             "    else:\n"
             "        wait = ...\n"
             "    if reason:\n"
             "        return (\"stop\", reason)\n"
             "    if ...:\n"
             "        return (\"stop\", \"out of attempts\")\n"
             "    if ...:\n"
             "        return (\"stop\", \"out of time\")\n"
             "    return (\"retry\", wait)"),
    ),
    # a new exercise's hints: one more entry here, in course order (see CONTRIBUTING.md)
}


def hints_for(exercise_id):
    """The hints of one exercise, in the order they are revealed, or a clear error."""
    key = str(exercise_id)
    if key not in HINTS:
        raise KeyError(f"no hints for exercise {key!r}; the exercises with hints are {', '.join(HINTS)}")
    return HINTS[key]


def report_hint(exercise_id, failing, seen):
    """The hint a grader's report closes with, as ``(number, hint)``, or None.

    ``failing`` is the report's first failing check and ``seen`` how many hints of the exercise the
    learner has seen (the progress record the Hints cell reads). The ladder is never skipped: the
    next hint, starting with the nudge, if it speaks to that check (and is not the near code);
    else the last hint already seen that speaks to it, again; else None, for a hint about another
    check would send the learner the wrong way.
    """
    ladder = HINTS.get(str(exercise_id), ())
    if failing is None:
        return None
    if seen < min(len(ladder), REPORT_LEVELS) and failing in ladder[seen].checks:
        return seen + 1, ladder[seen]
    earlier = [n for n in range(min(seen, len(ladder)), 0, -1) if failing in ladder[n - 1].checks]
    return (earlier[0], ladder[earlier[0] - 1]) if earlier else None
