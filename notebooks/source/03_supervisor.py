# %% [markdown]
# # Part 3 — The supervisor: a state machine you can read
#
# Parts 1 and 2 gave you a shared repo, an oracle and three fake roles. None of them decides
# *who speaks next*, *what lands in the repo* or *when the run is over*. That is the supervisor's
# job, and in this course the supervisor is not a fourth agent: it is a short, plain Python
# function. Because it is code, every decision it makes is written down, can be replayed, and can
# be tested like any other function.
#
# **By the end of this part you can**
#
# - draw the supervisor's state machine and give the reason for each of its rules;
# - read a trace event by event and point at every decision the supervisor took;
# - pin down how a run must end with a small eval (`pass` or `budget`, checked against the oracle);
# - write the four-agent protocol `run_team(...)` yourself (**exercise 3.1**, graded).
#
# About {{minutes}} minutes for a careful first pass, a third of them for the exercise.
#
# **Words this part uses** (each is explained where it first comes up; the table is for looking
# one up later)
#
# <details><summary>The words of this part, in one table</summary>
#
# | word | meaning here |
# |---|---|
# | state | where a run is: `START`, `PLAN`, `CODE`, `TEST`, `REVIEW`, `STOP_OK`, `STOP_FAIL` |
# | transition | a move from one state to the next, chosen by a fixed rule, never by a role |
# | trace event | one dict the supervisor appends for everything that happens in a run |
# | round | one coder turn plus the test run and the review that follow it |
# | budget | `max_rounds`: how many coder turns a run may spend before it stops without success |
# | status, stop reason | how the run ended (`pass` or `budget`) and why, in a sentence |
# | override | the supervisor stopping on green tests although the reviewer asked for changes |
# | eval | a run with a fixed setup whose outcome is asserted, so a change that breaks it is caught |
# | feedback | in `run_team`: what the coder is told about its last attempt, `"review: …"` or `"test: …"` |
# | log | in `run_team`: one `(role, output)` pair per agent call, oldest first |
# | gate | a check that must pass before the next step may run (in `run_team`, the reviewer's approval) |
#
# </details>

# %%
from IPython.display import display

from agent_team.oracle import run_tests
from agent_team.repo import GOAL, initial_repo
from agent_team.supervisor import supervise

print("The team's goal:", GOAL)

# %% [markdown]
# ## 1. The state machine, drawn
#
# Every run walks through the same few states. The picture below is drawn by the package from
# the same data the round stepper uses later on, so it cannot disagree with it.

# %%
from agent_team.render.diagram import SUPERVISOR, machine_html, machine_text
from agent_team.widgets import Rich

# FAULT, a state for injected faults, joins the machine in part 4.
MACHINE = SUPERVISOR.without("FAULT")
# The drawing, and the same machine as text, both made from the same list of edges.
display(Rich(machine_html(MACHINE), machine_text(MACHINE)))
print(machine_text(MACHINE))

# %% [markdown]
# The same machine in words, state by state. The bold part of each rule is written from the
# machine's list of edges when this notebook is built, so it says what the drawing draws; the rest
# is the reason the rule is there, because each one closes a way a team of agents can go wrong.
#
# 1. **After `PLAN`: {{after PLAN}}.** Whatever the planner did (wrote a plan, did nothing
#    because one existed, had its patch refused), the coder is next: the planner can neither stop
#    a run nor stall it. Two exceptions, both drawn: with `max_rounds=0` there is no round to play,
#    so the run stops at once (section 3 runs it); and when `PLAN.md` is still empty before a coder
#    turn, the planner goes once more first (a plan is required; part 4 wipes it on purpose and
#    shows why).
# 2. **After `CODE`: {{after CODE}}**, even when the coder's patch was refused. The oracle then
#    tests the repo as it was. A refused turn can never pass for progress, and every round ends
#    with a fresh, honest measurement.
# 3. **After `TEST`: {{after TEST}}**, green or red. On red the reviewer reads the failure and
#    leaves a verdict, which the coder sees on its next turn; on green it writes its verdict for the
#    record.
# 4. **After `REVIEW`: {{after REVIEW}}.** Green tests stop the run whatever the verdict: a
#    `request_changes` on green tests is *overridden*, and the override is written into the trace.
#    Why: there is always one more change a reviewer could ask for, so a reviewer allowed to veto
#    green tests could keep the team busy until the budget is gone, and an endless review drains
#    the budget whether or not anyone meant harm. If style matters to you, put a style check in the
#    oracle, where it is explicit. Red tests start the next round while one is left (what the
#    drawing does after the last one, you predict just below).
# 5. **`max_rounds` counts coder turns.** Coder turns are the costly ones and the only ones that
#    change the code. Planner and reviewer turns come along with them, outside the count.
# 6. **One role at a time.** Each role's view is built from the repo the previous role left.
#    Waiting for the previous role is deliberate: it is what makes every run replayable, step by
#    step.

# %% [markdown]
# ### Predict, then run: one round only
#
# Rules 3 and 4 say what happens when the last round ends. Check that you can read the machine:
# `max_rounds=1` gives the healthy team of parts 1 and 2 a single coder turn. Before the next cells
# run it, predict how it ends, and the last state it is in before it stops.

# %%
from agent_team.widgets import Predict

one_round = Predict("part 3: one round")
one_round

# %%
short = supervise(max_rounds=1)
short_states = [event["state"] for event in short.trace]
print(" -> ".join(short_states))

# %%
one_round.reveal([short.status, short_states[-2]])  # the why, and the course's key, are in agent_team.predict

# %%
# The drawing and the real trace agree: the run's last step is the machine's "out of rounds" edge.
assert tuple(short_states[-2:]) in [(a, b) for a, b, _, label in MACHINE.edges if label == "out of rounds"]

# %% [markdown]
# That is the whole machine. Here is the loop at the heart of `supervise(...)`, straight from the
# package. It is not all there is to read: it calls helpers that this cell does not print, such as
# `run.plan`, `run.turns` and `run.review` (each one role's turn, its view, its patches checked and
# applied), `run.log` (one trace event) and `_stop` (the stop event and the result). The cell after
# it lists every helper the loop calls, with the summary its own docstring gives, so you know what
# each does without reading it; their code is in the modules `agent_team.supervisor` and
# `agent_team.turn` (`inspect.getsource(agent_team.turn)` prints one in a cell).
# Read the loop for its shape: who speaks when, and where it stops. Two of its branches belong to
# part 4: `if tamper is not None:` runs an injected fault (it is `None` unless part 4 passes one),
# and `if require_plan:` calls `run.replan(rnd)`, which sends the planner again only when
# `PLAN.md` is empty before a coder turn. `require_plan` is on by default, but in a healthy run
# the plan is never empty, so the planner never goes again. `reviewers` is a list because a course
# role may be added after the reviewer; here it holds the reviewer alone.

# %%
import inspect
import re

from agent_team import supervisor as supervisor_module

source = inspect.getsource(supervise)
loop = source[source.index('    run.log("start"'):].rstrip()  # skip the signature and docstring
print(loop)

# %%
import builtins

# Every helper the loop calls (but Python's built-ins), found in the printed source itself, with
# the first paragraph of its docstring: a helper added to the loop shows up here by itself.
HELPERS = {f"run.{name}": getattr(supervisor_module._SupervisedRun, name)
           for name in sorted(set(re.findall(r"\brun\.(\w+)\(", loop)))}
called = set(re.findall(r"(?<![\w.])([A-Za-z_]\w*)\(", loop)) - set(dir(builtins))
HELPERS.update({name: getattr(supervisor_module, name) for name in sorted(called)})
for name, helper in HELPERS.items():
    print(f"{name + '(...)':<18} {' '.join(inspect.getdoc(helper).split(chr(10) * 2)[0].split())}")
healthy_planners = [e for e in supervise(max_rounds=4).trace if e.get("role") == "planner"]
assert [e["round"] for e in healthy_planners] == [0]  # require_plan is on, and the planner went once

# %% [markdown]
# Let us watch the healthy team (the fakes from part 2) go through it.

# %%
result = supervise(max_rounds=4)
states = [event["state"] for event in result.trace]
print(" -> ".join(states))
print(f"status={result.status!r} after {result.rounds} rounds: {result.stop_reason}")

# %% [markdown]
# The rules are facts about the trace, so we can check them instead of trusting them. A
# *transition* is a pair of consecutive states:

# %%
def transitions(run):
    states = [event["state"] for event in run.trace]
    return list(zip(states, states[1:]))


pairs = transitions(result)
# Every transition the run took is an edge of the machine drawn above, the one the rules come from:
assert all(MACHINE.has(a, b) for a, b in pairs), [p for p in pairs if not MACHINE.has(*p)]
assert all(b == "TEST" for a, b in pairs if a == "CODE"), "after CODE: TEST, always"
assert all(b == "REVIEW" for a, b in pairs if a == "TEST"), "after TEST: REVIEW, always"
assert pairs[-1] == ("REVIEW", "STOP_OK")
print(f"{len(pairs)} transitions, every one an edge of the machine")

# %% [markdown]
# ## 2. The trace: every decision, written down, and who makes it
#
# The supervisor appends one event per thing that happens. Every event has a `type`, the `round`
# it belongs to and the `state` the machine was in; most also carry a `decision`: what the
# supervisor does next, in words. The other fields depend on the type. One module,
# `agent_team.trace`, defines them all (`FIELDS` says what each field means, `KINDS` which kind has
# which), and its readers find events: `of_kind(trace, "tests")`, `turns(trace, "coder")`,
# `last(trace, "stop")`, `oracle_reports(trace)`. Once you can read a trace, the section's last
# two parts use it to show who makes each decision in it: the supervisor, from facts it measured
# itself, never a role's reasoning (it is not ReAct) and never a role's own test run.

# %%
from agent_team.trace import of_kind

for kind in ("start", "turn", "tests", "stop"):
    event = of_kind(result.trace, kind)[0]
    print(f"{kind:>5}: {', '.join(event)}")

# %% [markdown]
# A `turn` is one role acting once: the `view` it was shown, its `thought` and `message`, the
# `patches` it proposed, whether they were `applied` (or the `error` that refused them, in words,
# and its `failure`, the same fact for programs: `None`, `"timeout"`, `"error"`, `"bad output"` or
# `"refused"`), and the `changes` they made to the repo. A `tests` event holds the oracle's report. The reviewer's turn
# also carries its parsed `verdict`.
#
# JSON is not how people read a run, so here is a printer of a dozen lines that tells the trace
# round by round:

# %%
def tell(run):
    """Print a supervisor trace round by round, one line per event."""
    current = None
    for e in run.trace:
        if e["round"] != current and e["type"] != "stop":
            current = e["round"]
            print(f"--- round {current} ---" if current else "--- setup ---")
        if e["type"] == "turn":
            did = ", ".join(c["path"] for c in e["changes"]) or "nothing"
            what = f"refused: {e['error']}" if not e["applied"] and e["error"] else f"wrote {did}"
            verdict = f"; verdict {e['verdict']['verdict']}" if e.get("verdict") else ""
            print(f"  {e['state']:<6} {e['role']}: {what}{verdict}")
        elif e["type"] == "tests":
            t = e["tests"]
            first = f" (first error: {t['errors'][0][:40]}...)" if t["errors"] else ""
            print(f"  TEST   oracle: {t['passed']} passed, {t['failed']} failed{first}")
        elif e["type"] == "stop":
            print(f"{e['state']}: status {e['status']!r}, {e['stop_reason']}")
        if e.get("decision") and e["type"] not in ("start", "stop"):
            print(f"         next: {e['decision']}")


tell(result)

# %% [markdown]
# Read it against the rules: in round 1 the coder writes its Fizz-only first cut, the oracle
# finds two failing cases, the reviewer asks for changes naming the first one, and the coder goes
# again. In round 2 the coder (who saw the failed test in its view) writes the full function, the
# tests go green, the reviewer approves, and the run stops.
#
# ### Step through it
#
# The round stepper shows the same trace one event at a time: the state diagram with the current
# state lit, the view the role received, its patches (applied or refused, and why), the diff it
# caused, the test report and the supervisor's decision. Use the buttons or the step list. Without a
# widget front end you see the current step as text.

# %%
from agent_team.widgets import RoundStepper

stepper = RoundStepper(result)
stepper

# %% [markdown]
# The stepper can also be driven from code, exactly like its buttons: `stepper.go(n)` jumps to
# step `n`, numbered from 1 as the header and the step list number them, and `stepper.next()` and
# `stepper.previous()` move by one.

# %%
stepper.go(4)
print(stepper.text)
assert stepper.text.startswith("Step 4 of ")

# %% [markdown]
# ### The supervisor is not ReAct
#
# ReAct is a well-known loop for a single agent: the model reasons about the situation, picks an
# action, reads what the action returned, and picks again. Part 2's coder does something like it
# inside its slot, changing its code after reading the oracle's report. The supervisor is built
# the other way on purpose. It never reasons about what to do next: every transition in the trace
# above follows a rule over facts the supervisor measured itself (did the tests pass? are rounds
# left? is `PLAN.md` empty?), and nothing a role writes can pick the next state.
#
# Why insist? A loop that chooses its next step by reading words can be talked out of its rules.
# Below, a coder writes the Fizz-only cut and announces that it is done. The first loop is a
# stand-in for a manager that decides from the conversation, as a ReAct agent would (a real model
# is subtler than this `if`, but it still decides from words, and nothing forces it to call the
# tests). It stops on the announcement. The supervisor runs the oracle, sees red, and carries on.

# %%
from agent_team.faults import fizz_only_coder
from agent_team.repo import apply_turn
from agent_team.views import make_view


def confident_coder(goal, view):
    return {**fizz_only_coder(goal, view), "message": "done: all four cases pass"}


def manager_loop(goal, coder, max_steps=4):
    """ReAct-style: the next step is chosen from what the last step said."""
    repo, said = initial_repo(), ""
    for step in range(max_steps):
        if "done" in said:  # the manager's reasoning: the coder says it is done, so finish
            return repo, f"finished after {step} coder turn(s), because the coder said {said!r}"
        out = coder(goal, make_view("coder", goal, repo, []))
        repo, _ = apply_turn(repo, "coder", out["patches"])
        said = out["message"]
    return repo, "out of steps"


talked_repo, how = manager_loop(GOAL, confident_coder)
ours = supervise(max_rounds=4, coder=confident_coder)
print("manager loop:", how, "| oracle:", run_tests(talked_repo)["passed"], "of 4")
print("supervisor:  ", ours.status, "|", ours.stop_reason)
assert not run_tests(talked_repo)["ok"] and ours.status == "budget"

# %% [markdown]
# The manager loop declared the job finished with half the cases failing; the supervisor, given
# the same coder, spent its budget and said honestly that the tests still fail. That is the case
# for a state machine: the same facts always give the same route (part 1 saw the trace repeat
# event for event), each transition can be checked like any other code (the `assert`s in
# section 1), and a run ends within `max_rounds` whatever anyone says. Keep ReAct-style reasoning
# *inside* a role, where it helps the role do its job; keep the route between roles in code.
#
# ### Only the supervisor runs the tests
#
# In a run the oracle has exactly one caller: the supervisor, right after every coder turn, on the
# repo as it really is. A policy is a Python function, so nothing stops a coder from importing
# `run_tests` and calling it on whatever repo it likes. It gains nothing: what it finds out is
# only words in its message. The `tests` events, the only reports anything downstream reads (the
# coder's and reviewer's views, the stop decision), are written by the supervisor alone, one per
# coder turn. Below, a coder tests a correct version in private, writes the Fizz-only cut, and
# reports its private result.

# %%
from agent_team.policies import FULL_SOURCE


def self_testing_coder(goal, view):
    private = run_tests({**initial_repo(), "src/fizzbuzz.py": FULL_SOURCE})  # a repo of its own
    return {**fizz_only_coder(goal, view), "message": f"I ran the tests myself: {private['passed']} of 4"}


from agent_team.trace import oracle_reports

run = supervise(max_rounds=2, coder=self_testing_coder)
for e in run.trace:
    if e["type"] == "turn" and e["role"] == "coder":
        print(f"round {e['round']}  the coder says:           {e['message']}")
    elif e["type"] == "tests":
        print(f"round {e['round']}  the supervisor's oracle: {e['tests']['passed']} of 4")
states = [e["state"] for e in run.trace]
assert all(states[i - 1] == "CODE" for i, state in enumerate(states) if state == "TEST")
assert run.status == "budget" and all(report["passed"] == 2 for report in oracle_reports(run.trace))

# %% [markdown]
# The code under test cannot reach the oracle either: inside the sandbox there is no `run_tests`
# to call, so a `fizzbuzz` that tries fails with a plain `NameError`, counted as a failed case.

# %%
print(run_tests({**initial_repo(), "src/fizzbuzz.py": "def fizzbuzz(n):\n    return run_tests({})\n"})["errors"][0][:62])

# %% [markdown]
# ## 3. What the budget counts
#
# `max_rounds` is a number of **coder turns**. The planner's turn before round 1 and the
# reviewer's turn after each test run do not count against it. Count the turns in four runs:

# %%
from agent_team.trace import turns

for budget in (0, 1, 2, 4):
    run = supervise(max_rounds=budget)
    count = {role: len(turns(run.trace, role)) for role in ("coder", "planner", "reviewer")}
    print(f"max_rounds={budget}: status {run.status!r:9} coder turns {count['coder']}, "
          f"planner turns {count['planner']}, reviewer turns {count['reviewer']}")
    assert count["coder"] <= budget

# %% [markdown]
# With `max_rounds=0` the planner still plans (that is the `START → PLAN` step), but no code is
# ever written, so the run can only end in `budget`. With 4 the team needs only two of its four
# rounds: the budget is a ceiling, not a quota.

# %% tags=["quiz"]
from agent_team.widgets import Quiz

Quiz("3.1")

# %% [markdown]
# ## 4. The override on green tests
#
# A reviewer that never approves is easy to write. This one finds a new nit every round, green
# tests or not (it numbers them from the verdicts it has given so far):

# %%
from agent_team.policies import output, review_patch


def picky_reviewer(goal, view):
    nit = f"nit #{len(view['past_verdicts']) + 1}: rename n to number"
    return output("reviewer", "one more nit", [review_patch("request_changes", nit)], nit)


picky = supervise(max_rounds=4, reviewer=picky_reviewer)
tell(picky)

# %% [markdown]
# The tests went green in round 2, the reviewer said `request_changes`, and the run stopped anyway
# with status `pass`. The override is not silent: the reviewer's last event carries
# `override=True`, so anyone reading the trace (or the stepper) sees that a verdict was set aside.

# %%
last_review = [e for e in picky.trace if e.get("role") == "reviewer"][-1]
print("verdict: ", last_review["verdict"])
print("override:", last_review.get("override"))
print("decision:", last_review["decision"])
assert picky.status == "pass" and last_review["override"] is True
assert "override" not in [e for e in result.trace if e.get("role") == "reviewer"][-1]

# %% tags=["quiz"]
Quiz("3.2")

# %% [markdown]
# ## 5. Why the roles never run in parallel
#
# It is tempting to start the planner and the coder at the same moment to save time. Each role,
# though, is shown a view of the repo *as the previous role left it*. Compare the plan the coder
# saw in round 1 with the plan it would have seen had it started together with the planner:

# %%
from agent_team.views import make_view

first_coder = next(e for e in result.trace if e.get("role") == "coder")
in_parallel = make_view("coder", GOAL, initial_repo(), [])
print("plan seen, taking turns: ", repr(first_coder["view"]["plan"][:50] + "..."))
print("plan seen, in parallel:  ", repr(in_parallel["plan"]))

# %% [markdown]
# In parallel the coder codes against no plan; a reviewer running beside the coder would judge
# code that is already out of date; and two roles writing at once need a rule to merge their
# patches, which is a second supervisor. Taking turns costs some waiting and buys runs that are
# consistent and can be replayed exactly. Several agents need not mean several at once.
#
# ## 6. Evals: pin down how a run must end
#
# An *eval* is a run with a fixed setup and an asserted outcome. Two are enough to pin the budget
# down. With one round the Fizz-only first cut is all the coder gets to write, so the run must end
# in `budget` **and** the oracle, run again on the final repo, must still fail. With four rounds
# the run must pass. We check the oracle ourselves rather than trusting the status: the supervisor's
# account and the oracle must agree.

# %%
EVALS = [("healthy team, 1 round", 1, "budget"), ("healthy team, 4 rounds", 4, "pass")]

for name, budget, expected in EVALS:
    run = supervise(max_rounds=budget)
    oracle = run_tests(run.repo)
    print(f"{name:<24} status {run.status!r:9} oracle on the final repo: "
          f"{oracle['passed']} passed, {oracle['failed']} failed")
    assert run.status == expected, (name, run.status)
    assert oracle["ok"] == (expected == "pass"), (name, oracle["errors"])

# %% [markdown]
# A `budget` run with a failing oracle is the honest way to fail: the team ran out of attempts
# and says so. Part 4 grows this list into an eval of injected faults.
#
# ## 7. The same team as four plain functions
#
# The graded exercise strips the repo away. Each agent becomes a function from strings to a
# string, and you write the loop that connects them. The mapping:
#
# | role | in the repo world (parts 1–3) | in `run_team` (exercise 3.1) |
# |---|---|---|
# | planner | writes `PLAN.md` once | `planner(task)` returns the plan |
# | coder | patches `src/fizzbuzz.py` | `coder(task, plan, feedback)` returns the code |
# | reviewer | writes a verdict to `REVIEW.json` | `reviewer(code)`: a reply starting with `"APPROVE"` approves |
# | tester | **the oracle**, `run_tests(repo)`, run by the supervisor | `tester(code)`: a reply starting with `"PASS"` means done |
# | supervisor | `supervise(...)` and its trace | `run_team(...)` and its log of `(role, output)` pairs |
#
# Two things carry over unchanged: only the tester (the oracle) can end a run with success, and
# the budget counts coder calls. Two things need saying before you write it: the order of a round
# is different, on purpose, and the tester must be something you can trust.
#
# ### Two orders for a round, and when each is the better one
#
# Our supervisor runs **`CODE → TEST → REVIEW`** in every round, green or red:
#
# - **testing first** measures every attempt, whatever a reviewer would have said, so no round ends
#   untested, and the reviewer quotes the real failure instead of guessing;
# - **reviewing on red** is how the coder gets advice (part 2's reviewer lives there);
# - **reviewing on green** costs one cheap turn and puts a verdict on the final code on record,
#   and rule 4's override makes sure that verdict never holds the run: a reviewer never blocks
#   green tests (section 4 showed it with a reviewer that never approves).
#
# `run_team` runs **`CODE → REVIEW → TEST`**: the reviewer is a *gate*, and only approved code
# reaches the tester. That is the protocol exercise 3.1 asks for, and the better order when tests
# are expensive (a CI run of an hour) and a review is cheap: rejected code never costs a test run.
# Its price is the very thing rule 4 closes in our supervisor. A reviewer that never approves
# stalls the team, and only the budget bounds it: the tester never runs on rejected code, so there
# are no green tests to override. The package's own `run_team` shows it (the same reference the
# grader compares yours with):

# %%
from agent_team.protocol import run_team as reference

stalled, stalled_log = reference(GOAL, lambda task: "check 15 first", lambda task, plan, feedback: "v1",
                                 lambda code: "REJECT: one more nit", lambda code: "PASS", 3)
print("run_team, a reviewer that never approves:", [role for role, _ in stalled_log], "->", stalled)
print("supervise, the same kind of reviewer:    ", supervise(max_rounds=3, reviewer=picky_reviewer).status)
assert stalled is None and "tester" not in [role for role, _ in stalled_log]

# %% [markdown]
# So neither order is wrong; they buy different things. Use the gate when a test run costs far
# more than a review; otherwise test first, and never let a verdict outrank green tests.
#
# ### The tester must be code, like the oracle
#
# In `run_team` the tester is a function that answers with a string, and a reply starting with
# `"PASS"` ends the run: the team trusts it completely. That is only safe when the tester is what
# the oracle is, code that runs the tests and reports what happened (a test runner, a CI job). It
# must never be a model asked whether the code works: its `"PASS"` would be exactly the self-report
# parts 1 and 2 warned against, and the protocol is only as trustworthy as its tester. In the
# exercise and its grader the tester is *scripted* (it answers from a list, so the grader can check
# every call your team makes); that is a test double, not a design to copy. A tester for a real
# team is the oracle behind a string:

# %%
from agent_team.policies import FIZZ_ONLY_SOURCE, FULL_SOURCE
from agent_team.repo import SRC_PATH


def oracle_tester(code):
    """A tester a team can trust: it runs the tests on the code and says what happened."""
    report = run_tests({**initial_repo(), SRC_PATH: code})
    return "PASS" if report["ok"] else "FAIL: " + report["errors"][0]


drafts = iter([FIZZ_ONLY_SOURCE, FULL_SOURCE])
passed, tested_log = reference(GOAL, lambda task: "check 15 first", lambda task, plan, feedback: next(drafts),
                               lambda code: "APPROVE", oracle_tester, 3)
for role, said in tested_log:
    print(f"{role:<8} {said.splitlines()[0][:90]}")
assert passed == FULL_SOURCE and tested_log[3][1].startswith("FAIL: fizzbuzz(")

# %% [markdown]
# **The protocol.** Plan once. Then, for at most `max_rounds` rounds, starting with
# `feedback = ""`: the coder writes code from the task, the plan and the feedback; the reviewer
# reads it. A review that does not start with `"APPROVE"` becomes the feedback (`"review: "` +
# review) and the round ends without a test. Otherwise the tester runs; a result starting with
# `"PASS"` ends the run with success, anything else becomes the feedback (`"test: "` + result).
# Return `(code, log)` on success, `(None, log)` when the rounds run out.
#
# ### The worked example, before you write anything
#
# `SEED_EXAMPLE` is the exercise's own example, played by scripted agents: each answers from its
# list in turn and records every call it receives. Three versions of the code, a reviewer that
# rejects once, a tester that fails once:

# %%
from agent_team.protocol import SEED_EXAMPLE

print("coder writes:     ", SEED_EXAMPLE.codes)
print("reviewer answers: ", SEED_EXAMPLE.reviews)
print("tester answers:   ", SEED_EXAMPLE.results)
print("max_rounds:       ", SEED_EXAMPLE.max_rounds)

# %% [markdown]
# Here is what a correct `run_team` does with these agents. We run the package's reference (you
# will not see its code) and print every call the agents received, round by round:

# %%
def show_calls(script):
    """Print the calls scripted agents received, one round per coder call."""
    rnd = 0
    for role, args, reply in script.calls:
        if role == "coder":
            rnd += 1
            print(f"round {rnd}: coder gets feedback {args[2]!r} -> writes {reply!r}")
        elif role == "planner":
            print(f"planner({args[0]!r}) -> {reply!r}")
        else:
            print(f"         {role} reads {args[0]!r} -> {reply!r}")


(code, log), script = SEED_EXAMPLE.run(reference)
show_calls(script)

# %% [markdown]
# Walk through it:
#
# - **Round 1.** The coder starts with empty feedback and writes `v1`. The reviewer rejects it, so
#   the feedback becomes `"review: REJECT: no error handling"` and the round ends: the tester never
#   sees rejected code.
# - **Round 2.** The coder gets that review and writes `v2`. The reviewer approves, the tester runs
#   and fails, so the feedback becomes `"test: FAIL: test_empty"`.
# - **Round 3.** The coder gets the test failure and writes `v3`; approved, then `PASS`: the team
#   stops and returns `"v3"`. Two of the five rounds are never used.
#
# The log is every `(role, output)` pair in speaking order, nine of them:

# %%
for i, (role, said) in enumerate(log, 1):
    print(f"{i}. {role:<8} {said!r}")
assert code == "v3"
assert [role for role, _ in log] == ["planner", "coder", "reviewer", "coder", "reviewer", "tester",
                                     "coder", "reviewer", "tester"]

# %% [markdown]
# The round stepper reads a protocol log too. It rebuilds, for each entry, the round, the feedback
# the coder had been given and what the protocol does next:

# %%
RoundStepper((code, log))

# %% tags=["quiz"]
Quiz("3.3")

# %% [markdown]
# ## Exercise 3.1 — run_team
#
# Implement `run_team(task, planner, coder, reviewer, tester, max_rounds)` following the protocol
# above. Each agent is a function that returns a str (any str: the code may be empty or the same as
# last round); `max_rounds` is an int, 0 or more. Every sentence of the protocol is a rule, and the
# grader checks each one, in this order; the first failing line of its report names the rule broken.
#
# | the protocol says | check |
# |---|---|
# | plan once: `planner(task)` first, exactly once, even when `max_rounds` is 0 | plan once |
# | the coder gets `coder(task, plan, feedback)`: `""` in round 1, then the latest feedback, `"review: "` + review or `"test: "` + result | feedback |
# | every round the reviewer reads the code just written, even when it is empty or the same as before | review every round |
# | a review that starts with `"APPROVE"` sends that code to the tester: `review.startswith("APPROVE")`, so `"APPROVED"` approves, while `"approve"`, `" APPROVE"` and `"LGTM"` do not | test approved code |
# | a review that does not start with `"APPROVE"` ends the round without a test | tester only on approved |
# | a result that starts with `"PASS"` (`"PASSED"` too: `result.startswith("PASS")`) ends the run at once | stop on PASS |
# | any other result is feedback: until a PASS, the team uses every round | keep going |
# | at most `max_rounds` rounds, counted by calls to the coder | rounds |
# | return the code that passed, or `None` when the rounds run out | result |
# | `log` lists every `(role, output)` pair, in speaking order | log |
# | return the pair `(code, log)` (a tuple; a list of two is fine too), `log` a list of `(role, output)` pairs | shape |
# | `run_team` returns: it does not raise or loop forever | returns |

# %% tags=["exercise"]
def run_team(task, planner, coder, reviewer, tester, max_rounds):
    # BEGIN SOLUTION
    plan = planner(task)
    log = [("planner", plan)]
    feedback = ""
    for _ in range(max_rounds):
        code = coder(task, plan, feedback)
        log.append(("coder", code))
        review = reviewer(code)
        log.append(("reviewer", review))
        if not review.startswith("APPROVE"):
            feedback = "review: " + review
            continue
        result = tester(code)
        log.append(("tester", result))
        if result.startswith("PASS"):
            return code, log
        feedback = "test: " + result
    return None, log
    # END SOLUTION

# %% [markdown]
# Try your `run_team` on the worked example first: the calls below should match the ones above,
# line for line.

# %%
from agent_team.clip import safe_repr
from agent_team.grading import try_it

tried = try_it(SEED_EXAMPLE.run, run_team, what="your run_team")
if tried is not None:
    returned, my_script = tried
    show_calls(my_script)
    if isinstance(returned, tuple) and len(returned) == 2 and isinstance(returned[1], list):
        print("returned", safe_repr(returned[0]), "with a log of", len(returned[1]), "entries")
    else:
        print("returned", safe_repr(returned))

# %% [markdown]
# Now the grader. It runs your function on the worked example, on named edge cases (zero rounds,
# a reviewer that always rejects, replies that contain the keyword without starting with it, …) and
# on 200 random scenarios, comparing every call your agents receive with the reference. When a check
# fails, the report shows the first call where your team and the reference part ways.

# %%
from agent_team.grading import grade_run_team

report = grade_run_team(run_team)
report

# %%
# Stuck? Reveal hints one at a time: a nudge, then the approach, then code with the key lines
# left out. Each one you open is noted in your progress; run the grader cell again after a change.
from agent_team.widgets import Hints

Hints("3.1")

# %% [markdown]
# ## Recap
#
# - The supervisor is a state machine in plain code: each round is `CODE → TEST → REVIEW`, green
#   or red, and only the supervisor decides what happens next.
# - Every event and decision lands in the trace, so a run can be told, stepped through and checked.
# - `max_rounds` counts coder turns; green tests stop the run, and a `request_changes` on green is
#   overridden and recorded, so no reviewer can stall the team.
# - Roles take turns; evals pin the outcomes (one round: `budget`, four rounds: `pass`).
# - `run_team` is the same team as four functions, with the reviewer as a gate before the tester
#   (the better order when tests are expensive; its price, a reviewer that can stall the team), and
#   a tester that must be code like the oracle, never a model's word.
#
# **Next: part 4, failure injection.** You will break the team on purpose, {{faults}} different
# ways, and check that the state machine holds every time.

# %% [markdown]
# Where you stand in the whole course (each grader records its last result; run it again after
# changing your code):

# %% tags=["nbval-ignore-output"]
from agent_team.widgets import Progress

Progress()

# %% [markdown]
# **Next: [Part 4 — Failure injection: break the team on purpose](04_failure_injection.ipynb)**. Or back to [the course's home page](../index.html#%home) (it opens in a new tab).
