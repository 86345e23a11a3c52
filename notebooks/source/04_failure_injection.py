# %% [markdown]
# # Part 4 — Failure injection: break the team on purpose
#
# A state machine that only ever sees the happy path has not been tested. In this part you break
# the team on purpose, in {{faults}} different ways, and check each time, with an `assert`, that the
# supervisor still ends the run the way it should and that the trace says why.
#
# The faults hit every seat. The coder is lazy, edits the tests, imports, loops forever, returns a
# result that lies, crashes, ignores the plan, claims a fix it never sent, or runs the tests itself.
# The planner reaches for the source. The reviewer never approves, or talks nonsense. And a
# supervisor bug wipes the plan.
#
# **By the end of this part you can**
#
# - inject a fault by replacing one role's policy, or by tampering with the repo from outside;
# - predict how a run with that fault must end (`pass` or `budget`) and find the evidence in the
#   trace: the refused patch, the override, the oracle's error;
# - weigh a design decision where a fault has no single right answer (an empty plan): what we
#   chose, why, and what it costs;
# - write an eval of faults (**exercise 4.1**) and a hardening rule (**exercise 4.2**), both graded.
#
# About {{minutes}} minutes for a careful first pass, predicting each fault before it runs, as you should.
#
# **Words this part uses** (each is explained where it first comes up; the table is for looking
# one up later)
#
# <details><summary>The words of this part, in one table</summary>
#
# | word | meaning here |
# |---|---|
# | fault | one thing made to go wrong on purpose: a replaced policy, or a `tamper` hook that edits the repo |
# | failure injection | running the team with a fault to see that the state machine still holds |
# | expected outcome | the status the run must still reach, and the trace evidence that shows why |
# | eval | a list of setups with their expected status, run and checked together |
# | hardening rule | an extra rule `(role, patch) -> None or reason`, passed as `supervise(rules=[...])`, that refuses a turn the allowlist would let through |
# | fail closed | when a safety rule itself breaks, refuse rather than allow |
#
# </details>

# %%
from IPython.display import display

from agent_team.faults import FAULTS, run_fault
from agent_team.oracle import run_tests
from agent_team.repo import PLAN_PATH, SRC_PATH, STUB_SOURCE, TEST_SPEC, TESTS_PATH, initial_repo
from agent_team.supervisor import supervise

# How each one must end is what you will predict below, so it is not printed here.
print(f"{len(FAULTS)} faults in the package:")
for fault in FAULTS.values():
    print(f"  {fault.name:<28} {fault.what}")

# %% [markdown]
# Each fault is data: a name, what goes wrong, the status the team must still reach and why, and
# the keyword arguments for `supervise(...)` that inject it. `run_fault(name)` runs the team with
# that fault and returns the same kind of result as `supervise`.
#
# First, the baseline everything below is measured against: the healthy team passes in two rounds.

# %%
healthy = supervise(max_rounds=4)
print(healthy.status, healthy.rounds, "-", healthy.stop_reason)
assert healthy.status == "pass" and healthy.rounds == 2

# %% [markdown]
# A few helpers to read traces with. The trace's reader `turns(run.trace, role)` lists one role's
# turns, `refusals(run, role)` the errors that refused or skipped them, and `oracle_errors(run)`
# every error the oracle reported, in order. `brief(run)` prints a run in one line per event, and `claim_and_oracle(run)`
# what the coder said on its last turn beside what the supervisor's own test run found.

# %%
from agent_team.render import event_summary
from agent_team.trace import of_kind, oracle_reports, turns

RUNS = {}  # fault name -> the run, for the summary table at the end


def refusals(run, role):
    return [e["error"] for e in turns(run.trace, role) if e["error"]]


def oracle_errors(run):
    return [err for report in oracle_reports(run.trace) for err in report["errors"]]


def brief(run):
    for e in run.trace:
        print(f"  r{e['round']} {event_summary(e)}")


def claim_and_oracle(run):
    print(f"the coder said {turns(run.trace, 'coder')[-1]['message']!r}")
    print(f"the supervisor's oracle: {run.tests['passed']} of 4 passed; {oracle_errors(run)[0]}")


# %% [markdown]
# ## Predict, then run
#
# Reading about a fault after it ran teaches less than guessing first and being wrong. Before
# each fault below, a small form asks two things: how the run will end (`pass` or `budget`),
# and which layer of the team stops the fault. A layer stops a fault when the run's trace shows
# what its definition says:
#
# {{layer definitions}}
#
# When a trace shows more than one (a coder refused by the allowlist still ends on its budget),
# the layer that stopped the fault is the first of the list, in this order: the answer is the
# *earliest* line of defence that acted, and "only the budget" means that none did. These are the
# package's definitions (`agent_team.layers`), and the answer after each run is read from its trace
# by them, never typed in.
#
# Each fault's description gives the answer away, so it comes after the reveal: answer from the
# form's one line, run, then read the event of the trace that decides the answer, why this fault
# ends that way, and the description, with a cell that checks the run against it. Your predictions are kept with your progress. (In code:
# `guess.choose("budget", "the oracle")`.)

# %% [markdown]
# ## Fault 1 — a coder that never gets past its first cut

# %%
from agent_team.widgets import Predict

guess = Predict.fault("fizz-only coder")
guess

# %%
run = RUNS["fizz-only coder"] = run_fault("fizz-only coder")
brief(run)
final = run_tests(run.repo)
print("oracle on the final repo:", final["errors"][0])

# %%
guess.reveal(run)

# %% [markdown]
# The coder writes the Fizz-only version every time, whatever the tests say. Nothing is refused —
# the patches are legal — and the code runs, but it is wrong. The oracle reports it, round after
# round, yet reporting is not stopping: only the budget can end the run. Expected: `budget`, every coder turn applied, and the oracle still failing on the
# final repo.

# %%
# The run, checked against the text above.
assert run.status == "budget" and run.rounds == 4
assert all(e["applied"] for e in turns(run.trace, "coder"))
assert not final["ok"] and final["failed"] == 2

# %% [markdown]
# ## Fault 2 — a planner that writes code

# %%
guess = Predict.fault("planner writes code")
guess

# %%
run = RUNS["planner writes code"] = run_fault("planner writes code")
brief(run)
planner_errors = refusals(run, "planner")
print("\nrefused:", planner_errors[0])

# %%
guess.reveal(run)

# %% [markdown]
# The planner writes its plan *and* a finished `src/fizzbuzz.py`. That file is not in the planner's
# allowlist, so the allowlist refuses the planner's **whole** turn — the plan too, because a turn
# lands all or nothing. With `PLAN.md` still empty, the planner is asked again before each coder
# turn, and refused again. The real coder still gets there. Expected: `pass`; the allowlist error
# in the trace; and the first coder turn sees the stub, untouched by the planner.

# %%
# The run, checked against the text above.
assert run.status == "pass"
assert planner_errors and all("may not write 'src/fizzbuzz.py'" in err for err in planner_errors)
assert all(not e["applied"] and e["changes"] == [] for e in turns(run.trace, "planner"))
assert turns(run.trace, "coder")[0]["view"]["source"] == STUB_SOURCE

# %% [markdown]
# To see that the *tests* see the stub too, give the greedy planner a coder that does nothing. In
# its only round the oracle tests exactly the repo we started with:

# %%
from agent_team.faults import greedy_planner
from agent_team.policies import output


def idle_coder(goal, view):
    return output("coder", "nothing to do", [], "idle")


run = supervise(max_rounds=1, planner=greedy_planner, coder=idle_coder)
seen = run.tests
print(f"oracle in round 1: {seen['passed']} passed, {seen['failed']} failed")
assert run.repo[SRC_PATH] == STUB_SOURCE
assert seen == run_tests(initial_repo())

# %% [markdown]
# ## Fault 3 — the plan is wiped after planning

# %%
guess = Predict.fault("plan wiped")
guess

# %%
run = RUNS["plan wiped"] = run_fault("plan wiped")
brief(run)
tampers = of_kind(run.trace, "tamper")
replans = [e for e in turns(run.trace, "planner") if e["round"] > 0]

# %%
guess.reveal(run)

# %% [markdown]
# This fault is not a role: it is a bug *around* the roles. A `tamper` hook empties `PLAN.md` before
# every coder turn, as a buggy supervisor or a bad merge might. The supervisor runs with
# `require_plan=True` by default: whenever `PLAN.md` is empty before a coder turn, the planner goes
# again first. Expected: `pass`, a tamper event each round, each followed by a planner turn that
# writes the plan back, so the coder never codes without one.

# %%
# The run, checked against the text above.
assert run.status == "pass"
assert tampers and all(c["path"] == PLAN_PATH and c["after"] == "" for e in tampers for c in e["changes"])
assert len(replans) == len(tampers) and all(e["applied"] for e in replans)
assert all(e["view"]["plan"].strip() for e in turns(run.trace, "coder"))

# %% [markdown]
# ### A choice we made: the team requires a plan
#
# A team could do without a plan: the goal alone tells this coder what to write. Rather than
# decide by taste, wipe the plan, see whether the coder still passes, then decide whether a plan
# is *required*. First the experiment. Switch the requirement off and run
# the same fault:

# %%
loose = run_fault("plan wiped", require_plan=False)
brief(loose)
assert loose.status == "pass"
assert all(e["view"]["plan"] == "" for e in turns(loose.trace, "coder"))
print("\nplan the coder saw in each round:", [e["view"]["plan"] for e in turns(loose.trace, "coder")])

# %% [markdown]
# It passes anyway. Our fake coder does not read the plan, and the spec in the test file is enough
# for fizzbuzz. So is the plan useless? We decided to **require** it (`require_plan=True` is the
# default), and here is why:
#
# - **The plan is part of the state, and an empty one is a symptom.** Something wiped it. Running
#   on as if nothing happened hides a bug; re-planning repairs the state and leaves a visible
#   `PLAN.md was empty, so the planner went again` in the trace.
# - **Real coders read the plan.** A model coding from the goal alone drifts more, and the
#   reviewer has nothing to hold the code against. The fakes pass without a plan; models would not
#   reliably.
# - **It is cheap and bounded.** A planner turn is small, it does not count against `max_rounds`,
#   and the fake planner writes the plan in one go.
#
# The price: a planner that can never produce a plan (like fault 2's) is asked every round. That is
# wasteful but safe, since its turns are refused and the coder still works. If re-planning ever got
# expensive, the next step would be a separate planner budget — not dropping the requirement.

# %% tags=["quiz"]
from agent_team.widgets import Quiz

Quiz("4.1")

# %% [markdown]
# ## Fault 4 — a reviewer that never approves

# %%
guess = Predict.fault("reviewer never approves")
guess

# %%
run = RUNS["reviewer never approves"] = run_fault("reviewer never approves")
brief(run)
last = turns(run.trace, "reviewer")[-1]
print("\nthe supervisor:", last["decision"])

# %%
guess.reveal(run)

# %% [markdown]
# The reviewer asks to rename `n` to `number`, every round, green tests or not. Part 3 showed the
# rule this tests: green tests stop the run and a `request_changes` is overridden and recorded.
# Expected: `pass` in the same two rounds as the healthy team, with `override=True` on the last
# review.

# %%
# The run, checked against the text above.
assert run.status == "pass" and run.rounds == healthy.rounds
assert all(e["verdict"]["verdict"] == "request_changes" for e in turns(run.trace, "reviewer"))
assert last["override"] is True

# %% [markdown]
# ## Fault 5 — a coder that edits the tests

# %%
guess = Predict.fault("coder edits tests")
guess

# %%
run = RUNS["coder edits tests"] = run_fault("coder edits tests")
brief(run)
coder_errors = refusals(run, "coder")
print("\nrefused:", coder_errors[0])

# %%
guess.reveal(run)

# %% [markdown]
# The coder writes the correct solution and, in the same turn, replaces the test file with
# `# every test passes`. The test file is in no role's allowlist, so the turn is refused — all of
# it, the correct source included. The oracle keeps testing the stub. Expected: `budget`, every
# coder turn refused with the allowlist's reason, the test file unchanged and the source still
# the stub.

# %%
# The run, checked against the text above.
assert run.status == "budget"
assert len(coder_errors) == run.rounds and all(TESTS_PATH in err for err in coder_errors)
assert run.repo[TESTS_PATH] == TEST_SPEC and run.repo[SRC_PATH] == STUB_SOURCE

# %% [markdown]
# Notice that the coder's source was correct, and the run still failed. That is the outcome we
# want: a turn that also tries to move the goalposts is refused whole (part 1's all-or-nothing
# rule), and a coder that keeps trying it should end in a budget stop that a person will look at,
# not in a pass that hides what it attempted.
#
# ## Faults 6–8 — code that must not be believed
#
# The next three coders write legal patches (only `src/fizzbuzz.py`), so nothing is refused at the
# allowlist, and their code lands in the repo. Each one is wrong in a way a careless test runner
# would miss. Which layer, if any, still stops it?

# %%
guess = Predict.fault("coder uses __import__")
guess

# %%
run = RUNS["coder uses __import__"] = run_fault("coder uses __import__")
for error in run.tests["errors"]:
    print("-", error)

# %%
guess.reveal(run)

# %% [markdown]
# **Fault 6: `__import__`.** The code reaches for the `os` module. The oracle runs the code in a
# small sandbox and compares results strictly; watch what it says.

# %%
# The run, checked against the text above.
assert run.status == "budget"
assert all(e["applied"] for e in turns(run.trace, "coder"))
assert run.tests["passed"] == 0 and any("`__import__` is not allowed" in e for e in run.tests["errors"])

# %% [markdown]
# The oracle refused the code before running a single case: it reads the source first, and names
# starting with `_` (the way out of any Python sandbox) are not allowed. You can ask it directly,
# without a run, with `source_problems`:

# %%
from agent_team.faults import EXEC_SOURCE
from agent_team.oracle import source_problems

print(EXEC_SOURCE)
print(len(source_problems(EXEC_SOURCE)), "problems;", len(source_problems(STUB_SOURCE)), "in the stub")

# %%
guess = Predict.fault("code loops forever")
guess

# %%
run = RUNS["code loops forever"] = run_fault("code loops forever")
print(run.tests["errors"][0])

# %%
guess.reveal(run)

# %% [markdown]
# **Fault 7: a loop that never ends.** Each test case runs under a step budget. The first case
# that spends it is stopped, and the cases after it are not run at all (code that looped once
# would loop again); all of them count as failed.

# %%
# The run, checked against the text above.
assert run.status == "budget"
assert run.tests["failed"] == 4 and "fizzbuzz(1) was stopped" in run.tests["errors"][0]
assert [case["error"].startswith("not run") for case in run.tests["cases"]] == [False, True, True, True]

# %% [markdown]
# Counting steps rather than seconds makes the verdict the same on a fast laptop and in a slow
# browser tab. (A wall clock is only a backstop.)

# %%
guess = Predict.fault("result lies about equality")
guess

# %% [markdown]
# **Fault 8: a result that lies.** `fizzbuzz` returns an object whose `__eq__` says `True` to
# anything. A test runner that checks `got == want` is fooled by it, in plain Python:

# %%
from agent_team.faults import LIAR_SOURCE

namespace = {}
exec(LIAR_SOURCE, namespace)  # plain Python, outside the sandbox: only to see the trick work
liar = namespace["fizzbuzz"](15)
print("liar == 'FizzBuzz':       ", liar == "FizzBuzz")
print("type(liar) is str:        ", type(liar) is str)

# %%
run = RUNS["result lies about equality"] = run_fault("result lies about equality")
print(run.tests["errors"][0])

# %%
guess.reveal(run)

# %% [markdown]
# The oracle is not fooled, twice over. It refuses `class` in the source altogether (the sandbox
# runs only plain functions), and even a value that got through would have to be exactly a `str`
# before it is compared with the expected answer: the result is never asked whether it is equal.

# %%
# The run, checked against the text above.
assert run.status == "budget"
assert run.tests["passed"] == 0 and "`class` is not allowed" in run.tests["errors"][0]

# %% tags=["quiz"]
Quiz("4.2")

# %% [markdown]
# ## Faults 9–10 — policies that crash or talk nonsense

# %%
guess = Predict.fault("coder crashes")
guess

# %%
run = RUNS["coder crashes"] = run_fault("coder crashes")
coder_errors = refusals(run, "coder")
print(coder_errors[0])

# %%
guess.reveal(run)

# %% [markdown]
# **Fault 9: the coder raises.** The model service is down. The supervisor catches the exception,
# writes it into the trace, skips the turn — and still runs the tests, because after `CODE` always
# comes `TEST`. Expected: `budget`, one skipped turn per round, and the oracle testing the stub.

# %%
# The run, checked against the text above.
assert run.status == "budget" and len(coder_errors) == 4
assert all("RuntimeError" in err for err in coder_errors)
assert [e["state"] for e in run.trace].count("TEST") == 4
assert run.repo[SRC_PATH] == STUB_SOURCE

# %%
guess = Predict.fault("reviewer returns garbage")
guess

# %%
run = RUNS["reviewer returns garbage"] = run_fault("reviewer returns garbage")
reviewer_errors = refusals(run, "reviewer")
print(reviewer_errors[0])

# %%
guess.reveal(run)

# %% [markdown]
# **Fault 10: the reviewer returns garbage.** Instead of an output dict it returns the string
# `"LGTM!!"`. The output is refused, the trace says so, and the run goes on: reviews never decide
# success, the tests do. Expected: `pass`, with no verdict recorded.

# %%
# The run, checked against the text above.
assert run.status == "pass"
assert reviewer_errors and all("refused" in err for err in reviewer_errors)
assert all(e["verdict"] is None for e in turns(run.trace, "reviewer"))

# %% [markdown]
# ## Faults 11–13 — the plan ignored, a stale file, a role that runs the tests itself
#
# Three faults where a role's *word* and the repo part ways. Before each one runs, predict again,
# with the definitions above in mind: what, if anything, is refused, skipped or stopped?

# %%
guess = Predict.fault("coder ignores the plan")
guess

# %%
run = RUNS["coder ignores the plan"] = run_fault("coder ignores the plan")
claim_and_oracle(run)

# %%
guess.reveal(run)

# %% [markdown]
# **Fault 11: the coder ignores the plan.** The plan says "check 15 first"; this coder never reads
# it and checks 3 first. No engine rule enforces a plan, so the turn lands and the code runs; the
# oracle reports the one case the plan was about, every round. Expected: `budget`.

# %%
# The run, checked against the text above.
assert run.status == "budget" and "fizzbuzz(15)" in oracle_errors(run)[0]
assert all(e["applied"] for e in turns(run.trace, "coder"))  # nothing refused it

# %%
guess = Predict.fault("tests run against stale files")
guess

# %%
run = RUNS["tests run against stale files"] = run_fault("tests run against stale files")
claim_and_oracle(run)

# %%
guess.reveal(run)

# %% [markdown]
# **Fault 12: the tests would run against a stale file.** The coder fixes a private copy and *says*
# the fix is in, but sends no patch: the file in the repo is still the stub. A turn with no patch
# is legal, so there is nothing to refuse; the oracle tests the one shared repo right after the
# coder's turn, never a role's copy or its word. Expected: `budget`.

# %%
# The run, checked against the text above.
assert run.status == "budget" and not any(report["ok"] for report in oracle_reports(run.trace))
assert all(e["patches"] == [] and e["failure"] is None for e in turns(run.trace, "coder"))

# %%
guess = Predict.fault("coder runs the tests itself")
guess

# %%
run = RUNS["coder runs the tests itself"] = run_fault("coder runs the tests itself")
claim_and_oracle(run)
first_turn = turns(run.trace, "coder")[0]
print("what the supervisor ignored of the coder's output:", first_turn["ignored"])

# %%
guess.reveal(run)

# %% [markdown]
# **Fault 13: a role runs the tests itself.** Fault 12's coder only *said* the fix was in. This one
# brings evidence: it calls the real oracle on a copy holding the full solution and hands back
# that report, green, 4 of 4, as a `tests` field of its output, the very shape of the supervisor's
# own test report. Then it ships the Fizz-only cut. An output is a thought, patches and a message,
# and the supervisor reads nothing else; the turn in the trace lists what it left out under
# `ignored`. Only the supervisor's own test run counts. Expected: `budget`.

# %%
# The run, checked against the text above.
assert run.status == "budget" and not any(report["ok"] for report in oracle_reports(run.trace))
assert "tests" not in first_turn and first_turn["ignored"] == ["tests"]  # dropped, and said so

# %% tags=["each-new-fault"]
# A fault of the package's table that this part does not narrate (tools/from_tables.py writes these
# cells for each one): predict first, then run it.
guess = Predict.fault("{name}")
guess

# %% tags=["each-new-fault"]
run = RUNS["{name}"] = run_fault("{name}")
brief(run)

# %% tags=["each-new-fault"]
guess.reveal(run)

# %% [markdown] tags=["each-new-fault"]
# **Fault {number}: {name}.** {what}. Expected: `{expect}` ({why}).

# %% tags=["each-new-fault"]
assert run.status == FAULTS["{name}"].expect

# %% [markdown]
# ## All the faults in one table
#
# The table below is built from the runs above, not typed by hand: the status each fault was
# expected to reach, the status it reached, the rounds it took, the layer that stopped it as its
# trace shows it by the definitions at the top of this part (`stopped_by(run)`), and the event of
# the trace that decides it. The cell checks that every layer read from a trace is the one the
# faults table names.

# %%
from agent_team.faults import stopped_by

print(stopped_by(RUNS["reviewer never approves"]))

# %%
from agent_team.render.html import table, wrap
from agent_team.widgets import Rich

import textwrap

HEADERS = ["fault", "expected", "got", "rounds", "stopped by", "the event that shows it"]
# Every fault of the package's table, with the run from above (a fault added to the table runs here).
runs = {name: RUNS.get(name) or run_fault(name) for name in FAULTS}
# Long evidence is cut at a word, and the cut is marked with an ellipsis.
rows = [[name, FAULTS[name].expect, run.status, run.rounds, *stopped_by(run)] for name, run in runs.items()]
assert set(RUNS) <= set(FAULTS) and all(row[1] == row[2] for row in rows)
assert all(row[4] == FAULTS[row[0]].layer for row in rows)  # the trace's layer is the table's
for row in rows:
    row[5] = textwrap.shorten(row[5], 110, placeholder=" …")

as_text = "\n".join(f"{r[0]:<29} {r[1]:<7} {r[2]:<7} {r[3]:<3} {r[4]:<10} {r[5]}" for r in [HEADERS] + rows)
display(Rich(wrap(table(HEADERS, rows)), as_text))

# %% [markdown]
# Every fault met its expected outcome, and the state machine held every time. The "stopped by"
# column is read from each run's trace, and it equals each fault's `layer` in the package's table:
# the **allowlist** (faults {{faults stopped by allowlist}}), the **supervisor's rules** ({{faults stopped by supervisor}}), the
# **oracle** ({{faults stopped by oracle}}) and **only the budget** ({{faults stopped by budget}}: legal code that runs and is
# wrong, whatever anyone said about it). The budget also ends every other run that could not pass.
#
# ## A healthy run and a faulty run, side by side
#
# The comparison aligns two runs by round and marks the first event where they differ. Here: the
# healthy team against the coder that edits the tests. They agree through planning and part ways
# at the first coder turn.

# %%
from agent_team.widgets import CompareRuns

CompareRuns(healthy, RUNS["coder edits tests"], labels=("healthy team", "coder edits tests"))

# %% [markdown]
# ## Exercise 4.1 — an eval of faults
#
# Write `EVAL`, a list of rows `(name, kwargs, expected_status)`: `kwargs` is a dict of keyword
# arguments for `supervise(...)`, and `expected_status` is `"pass"` or `"budget"`. Include part 3's
# two rows for the healthy team (`{"max_rounds": 1}` and `{"max_rounds": 4}`), then add at least
# two rows that inject a fault, such as `{"coder": ..., "max_rounds": 4}` with a policy from
# `agent_team.faults` or one of your own. The grader runs every row and checks how it ends; like the
# notes' own eval, it also checks that a `budget` row ends on code the oracle still fails
# (`not run_tests(result.repo)["ok"]`).
#
# Every sentence is a check of the grader; where the sentence leaves room, the right column says
# what we decided:
#
# | check | what it asks |
# |---|---|
# | `rows` | `EVAL` is a `list`; each row a tuple (or list) of three: a `str` name, a `dict` whose keys are keywords `supervise` accepts (any of them; spelling out a default such as `"seconds": 2.0` is fine), and `"pass"` or `"budget"` |
# | `row limits` | so that you never wait long for the grader: at most 16 rows, `max_rounds` at most 12, `seconds` at most 2 (the default), and the whole eval within 4 s (a policy that never returns costs `seconds` per turn: give its row a small `seconds`, e.g. `0.05`) |
# | `healthy rows` | a row that runs the healthy team with 1 round, expecting `budget`, and one with 4 rounds, expecting `pass`; "healthy" is judged by the run (its trace is the healthy team's), not by the keys |
# | `two faults` | at least two rows inject a fault, judged by **effect**: the run's trace (who acted, what they wrote, what landed, what the tests said, how it stopped) differs from the healthy team's with the same `max_rounds`. `{"coder": None}`, the course's own `fake_coder`, a wrapper around it, or a policy whose only change is its thought runs the healthy trace, so it is no fault |
# | `expectations` | every row's `expected_status` is the status its run really reaches |
# | `budget means red` | a `budget` row ends on code that still fails the oracle |

# %% tags=["exercise"]
from agent_team.faults import fizz_only_coder, stubborn_reviewer, wipe_plan

# BEGIN SOLUTION
EVAL = [
    ("healthy, 1 round", {"max_rounds": 1}, "budget"),
    ("healthy, 4 rounds", {"max_rounds": 4}, "pass"),
    ("fizz-only coder", {"coder": fizz_only_coder, "max_rounds": 4}, "budget"),
    ("reviewer never approves", {"reviewer": stubborn_reviewer, "max_rounds": 4}, "pass"),
    ("plan wiped", {"tamper": wipe_plan, "max_rounds": 4}, "pass"),
    ("planner writes code", {"planner": greedy_planner, "max_rounds": 4}, "pass"),
]
# END SOLUTION
# STUB: EVAL = None  # your list of (name, kwargs, expected_status) rows

# %%
from agent_team.grading import grade_fault_eval

report = grade_fault_eval(EVAL)
report

# %%
# Stuck? Reveal hints one at a time: a nudge, then the approach, then code with the key lines
# left out. Each one you open is noted in your progress; run the grader cell again after a change.
from agent_team.widgets import Hints

Hints("4.1")

# %% [markdown]
# ## Exercise 4.2 — a hardening rule
#
# Fault 6 was caught by the oracle, but only after the coder's code had landed in the repo. A
# *hardening rule* refuses such a turn before it lands. Write `no_exec(role, patch)`: return a short
# reason (a string) when the role is the coder and the patch's content contains `exec` or
# `__import__`; return `None` otherwise. The supervisor applies it after the allowlist, through
# `supervise(..., rules=[no_exec])`.
#
# Why a plain substring test, when a careful engineer might parse the code? A rule of this layer
# must be cheap and fail closed: a parser can be fooled (a name built from a string, a word in a
# comment today and in code tomorrow), a substring cannot, and the price (refusing an innocent
# `# no executor here`) is one more round. The oracle stays behind it as the second layer.
#
# Every sentence is a check of the grader; where the sentence leaves room, the right column says
# what we decided:
#
# | check | what it asks |
# |---|---|
# | `refuses exec` | a coder patch whose content contains `exec` **as plain text, anywhere** (a plain `in` test: inside a word such as `executor`, in a comment or inside a string too, since `getattr(__builtins__, "exec")` reaches it from a string; case matters, so `EXEC` is not `exec`) gets a short reason: a non-blank `str` of at most 200 characters |
# | `refuses __import__` | the same for `__import__` |
# | `allows the rest` | any other coder patch gets exactly `None` (not `False`, not `""`): `import math`, `eval`, `EXEC` are not this rule's business |
# | `other roles` | it is judged by the **role**, not the path: the grader also calls your rule directly, and a planner, reviewer or tester patch gets `None` whatever it contains or wherever it writes |
# | `in the supervisor` | with `rules=[no_exec]` the healthy team still passes, and fault 6's coder turn is refused before it lands |

# %% tags=["exercise"]
def no_exec(role, patch):
    # BEGIN SOLUTION
    ...  # {{body of agent_team.grading.ex_hardening.reference_no_exec}}
    # END SOLUTION

# %%
from agent_team.grading import grade_hardening

report = grade_hardening(no_exec)
report

# %%
# Stuck? Reveal hints one at a time: a nudge, then the approach, then code with the key lines
# left out. Each one you open is noted in your progress; run the grader cell again after a change.
from agent_team.widgets import Hints

Hints("4.2")

# %% [markdown]
# With the rule on, run fault 6 again. Now the coder's turn never lands: the trace shows the rule's
# reason, and the repo keeps the stub. (If your rule is not written yet, it raises when called; the
# supervisor then refuses every coder turn, because a broken safety rule **fails closed**.)

# %%
from agent_team.grading import try_it

hardened = try_it(run_fault, "coder uses __import__", rules=[no_exec], what="fault 6 with your no_exec",
                  seconds=5)
if hardened is not None:
    reasons = refusals(hardened, "coder")
    print(reasons[0] if reasons else "your rule refused no coder turn: the __import__ code landed again "
          "(look at what no_exec returns for role 'coder' and this content)")
    print("the source at the end is the stub:", hardened.repo[SRC_PATH] == STUB_SOURCE)
    ruled = try_it(supervise, max_rounds=4, rules=[no_exec], what="the healthy team with your no_exec",
                   seconds=5)
    if ruled is not None:  # not `healthy`: that name is the baseline run the cells above compare with
        print("the healthy team with the rule:", ruled.status)

# %% tags=["quiz"]
Quiz("4.3")

# %% [markdown]
# ## Recap
#
# - A fault is data: a replaced policy or a tamper hook, plus the status the team must still reach.
# - Each layer stops its own kind of failure, and the trace shows which: the allowlist (forbidden
#   paths, all or nothing), the supervisor's rules (skipped or refused turns, ignored extras,
#   overrides, re-planning), the oracle (code it will not run or must stop: imports, endless
#   loops, classes) and only the budget (legal code that is simply wrong, whatever a role claims).
# - Assert the trace evidence, not only the status: a `pass` for the wrong reason is still a bug.
# - An eval keeps these outcomes pinned; a hardening rule stops a bad patch before it lands, and
#   fails closed when it breaks.
#
# **Next: part 5**, from fakes to a real team: typed contracts between roles, handoffs
# that persist, a deterministic reviewer gate, and a slot where a language model can take a role.

# %% [markdown]
# Where you stand in the whole course (each grader records its last result; run it again after
# changing your code):

# %% tags=["nbval-ignore-output"]
from agent_team.widgets import Progress

Progress()

# %% [markdown]
# **Next: [Part 5 — From fakes to a real team](05_real_team.ipynb)**. Or back to [the course's home page](../index.html#%home) (it opens in a new tab).
