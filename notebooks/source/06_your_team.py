# %% [markdown]
# # Part 6 — Your own team
#
# Parts 1 to 5 built a team and then broke it, always with faults and rules we had prepared for
# you. In this part you extend the team yourself, twice, and each extension is graded end to end:
#
# 1. **A fault of your own** (**exercise 6.1**). Invent a way for the team to go wrong that part 4
#    did not try, say how the run must still end, and write the *evidence* function that finds the
#    proof in the trace. That is an eval: a fault, an expected outcome, and a check that the
#    outcome happened for the right reason.
# 2. **The whole run through the gate** (**exercise 6.2**). Part 5's gate judged step outcomes
#    typed by hand. Here you read a real run as four steps of work, so that a run whose tests
#    passed but whose work is incomplete ends with a status of its own: `blocked`.
#
# The stepper and the comparison from parts 2 to 4 show *your* team at work. About {{minutes}} minutes,
# most of them for the two exercises.
#
# **Words this part uses**
#
# | word | meaning here |
# |---|---|
# | evidence | the trace event that shows a fault being caught: a refusal, an override, an oracle error |
# | evidence function | `evidence(run) -> str or None`: finds that event, and finds nothing in a healthy run |
# | step outcome | as in part 5: a step's `success`, `failed`, `skipped` or `cancelled`, with its risk |
# | `blocked` | the gate's own status: the tests passed, but some step of the work was not done |

# %%
import json

from agent_team.faults import FAULTS, run_fault
from agent_team.limits import call_limited
from agent_team.policies import FULL_SOURCE, fake_reviewer
from agent_team.repo import PLAN_PATH, SRC_PATH
from agent_team.supervisor import supervise
from agent_team.widgets import show_table

healthy = supervise(max_rounds=4)
print("the healthy team:", healthy.status, "in", healthy.rounds, "rounds")

# %% [markdown]
# ## 1. A fault is an eval waiting to be written
#
# In part 4 every fault was data: what goes wrong, the keyword arguments for `supervise` that
# inject it, and the status the team must still reach. One thing was missing from that data: *how
# you know the run ended for the right reason*. A `pass` because the supervisor overrode a stubborn
# reviewer and a `pass` because the reviewer happened to approve look the same from the status
# alone. So your fault carries a fourth piece, an **evidence function**: it searches the trace for
# the event that proves the fault was caught, and returns it in words (or `None` when there is
# none).
#
# Here is that shape for one of part 4's faults, the reviewer that never approves. Its evidence
# is the override on the last review:

# %%
from agent_team.trace import oracle_reports, turns  # the trace's readers: turns, and test reports


def override_seen(run):
    """The override on green tests, in words; None when no review was overridden."""
    for e in turns(run.trace):
        if e.get("override"):
            return f"round {e['round']}: {e['decision']}"
    return None


EXAMPLE = {"name": "reviewer never approves", "kwargs": FAULTS["reviewer never approves"].kwargs,
           "expect": "pass", "evidence": override_seen}
example_run = supervise(**EXAMPLE["kwargs"])
print("status:   ", example_run.status, "(expected", EXAMPLE["expect"] + ")")
print("evidence: ", EXAMPLE["evidence"](example_run))
print("healthy:  ", EXAMPLE["evidence"](healthy))
assert EXAMPLE["evidence"](example_run) and EXAMPLE["evidence"](healthy) is None

# %% [markdown]
# The last line is the part people forget: **evidence must be specific**. A function that finds
# "evidence" in a healthy run too would pass whatever happened, and an eval that cannot fail
# protects nothing.
#
# ## Exercise 6.1 — a fault of your own
#
# Write `MY_FAULT`, a dict with four keys:
#
# * `"name"`: the fault in a few words;
# * `"kwargs"`: keyword arguments for `supervise(...)` that inject it (`planner`, `coder`,
#   `reviewer`, `tamper`, `rules`, `max_rounds`, `require_plan`, `seconds`), using **a policy or
#   hook you write**, not one of part 4's {{faults}} (nor a wrapper around one, nor its code typed
#   in again: the grader compares your run with each of theirs);
# * `"expect"`: the status the team must still reach, `"pass"` or `"budget"`;
# * `"evidence"`: a function `run -> str or None` that finds the proof in the trace, and returns
#   `None` (not `""`) in a healthy run.
#
# The grader runs your fault, checks that it really changes what happens, that the run ends as you
# said and replays identically, and that your evidence is found in your run and only there. A
# policy that hangs (part 5's busy model) is a fault like any other: give it a small `seconds`,
# such as `0.05`, so each hung turn is cut short (the grader runs your fault twice, so `seconds`
# times `max_rounds` may be at most 1).
#
# <details><summary>Ideas, if you need one</summary>
#
# A coder that writes an empty file. A coder that also tries to write the plan (a coder acting as
# planner). A reviewer that "helps" by patching the source. A coder that sends more patches than a
# turn may carry. A coder that hangs like a busy model. For each, first
# run `supervise(...)` with it and read the trace (`RoundStepper(run)`), then decide what to expect.
# </details>

# %% tags=["exercise"]
# A policy is a function (goal, view) -> its output dict, as in part 2: output(role, thought, patches, message).
from agent_team.policies import fake_coder, fake_reviewer, output  # what a policy of yours builds on

# BEGIN SOLUTION
def reviewer_fixes_code(goal, view):
    """A reviewer that 'helps' by patching the source along with its verdict (a reviewer acting as coder)."""
    out = fake_reviewer(goal, view)
    return {**out, "patches": out["patches"] + [{"path": SRC_PATH, "content": FULL_SOURCE}]}


def reviewer_turn_refused(run):
    for e in turns(run.trace, "reviewer"):
        if not e["applied"] and e["error"]:
            return f"round {e['round']}: {e['error']}"
    return None


MY_FAULT = {
    "name": "the reviewer patches the source",
    "kwargs": {"reviewer": reviewer_fixes_code, "max_rounds": 4},
    "expect": "pass",
    "evidence": reviewer_turn_refused,
}
# END SOLUTION
# STUB: MY_FAULT = None  # {"name": ..., "kwargs": {...}, "expect": "pass" or "budget", "evidence": a function}

# %% [markdown]
# Try it before grading it: your run's ending, your evidence, and what your evidence says about
# the healthy team (it should say nothing).

# %%
from agent_team.grading import try_it

mine = None
if MY_FAULT is None:
    print("MY_FAULT is not written yet: fill in the exercise cell above, then run this cell again.")
else:  # through try_it, as the grader calls it: a policy that never returns is waited for once
    mine = try_it(lambda: supervise(**MY_FAULT["kwargs"]), what="your fault's run", seconds=5)
if mine is not None:
    print(f"your run: {mine.status} after {mine.rounds} rounds | {mine.stop_reason}")
    for label, run in (("your run", mine), ("the healthy run", healthy)):
        found = call_limited(MY_FAULT["evidence"], run, seconds=2.0)
        print(f"evidence on {label}:", found.value if found.ok else f"it failed: {found.error!r}")

# %% [markdown]
# Your team beside the healthy one: the comparison marks the first event where they part ways.
# Then step through your run event by event.

# %%
from agent_team.widgets import CompareRuns, RoundStepper

CompareRuns(healthy, mine, labels=("healthy team", MY_FAULT["name"])) if mine else None

# %%
RoundStepper(mine) if mine else None

# %%
from agent_team.grading import grade_my_fault

report = grade_my_fault(MY_FAULT)
report

# %%
# Stuck? Reveal hints one at a time: a nudge, then the approach, then code with the key lines
# left out. Each one you open is noted in your progress; run the grader cell again after a change.
from agent_team.widgets import Hints

Hints("6.1")

# %% tags=["quiz"]
from agent_team.widgets import Quiz

Quiz("6.1")


# %% [markdown]
# ## 2. The whole run through the gate
#
# `supervise` ends a run on the oracle or the budget, and that answers one question: does the code
# pass? Part 5's gate answers another: **was every step of the work done?** Read a finished run as
# the four steps it always follows:
#
# | step | risk | success means |
# |---|---|---|
# | `plan` | `write` | `PLAN.md` holds a plan at the end of the run (empty: `failed`) |
# | `code` | `write` | at least one coder turn landed a patch (a turn that sends no patch changes nothing; none landed: `failed`; no coder turn at all: `skipped`) |
# | `tests` | `execute` | the last test run was green (red: `failed`; never ran: `skipped`) |
# | `review` | `write` | the last reviewer turn left a verdict (none: `failed`; no reviewer turn: `skipped`) |
#
# Give those outcomes to the gate and a run can pass its tests and still be incomplete. Part 4's
# greedy planner is the clearest case: the coder got fizzbuzz right, so `supervise` says `pass`;
# but every planner turn was refused, so the team finished **without a plan**, and the gate blocks
# it. That is the status this part adds: `blocked`.
#
# ## Exercise 6.2 — a run through the gate
#
# Write `run_outcomes(run)`: given a finished run (`run.trace`, `run.repo`), return the four
# outcomes above as dicts `{"step", "status", "risk"}` (a `"detail"` in words may be added, as
# `gated.run_outcomes` does; the gate refuses any other key), in the order plan, code, tests, review. Each sentence of the table counts as written: the plan is
# read from `PLAN.md` at the end, whoever wrote it and whenever; the code needs *some* coder turn
# that landed a patch, not the last one; the review is the *last* reviewer turn, not any.
# The grader compares them with the reference on healthy runs (0, 1 and 4 rounds), on all of
# part 4's faults and on runs made to tell those readings apart, and checks the status the gate
# then gives each run.
#
# The trace's readers find the events for you: `turns(run.trace, "coder")` is every coder turn
# (a turn that landed has `applied == True`, and its `patches` are what it sent; a reviewer turn
# carries `verdict`, None when it left none), and `oracle_reports(run.trace)` is the report of
# every test run (`["ok"]`: green or not).

# %% tags=["exercise"]
def run_outcomes(run):
    # BEGIN SOLUTION
    def outcome(step, risk, done, never=False):
        return {"step": step, "risk": risk, "status": "skipped" if never else "success" if done else "failed"}

    tests = oracle_reports(run.trace)
    coder, reviewer = turns(run.trace, "coder"), turns(run.trace, "reviewer")
    return [
        outcome("plan", "write", bool(run.repo.get(PLAN_PATH, "").strip())),
        outcome("code", "write", any(e["applied"] and e["patches"] for e in coder), never=not coder),
        outcome("tests", "execute", bool(tests) and tests[-1]["ok"], never=not tests),
        outcome("review", "write", bool(reviewer) and reviewer[-1].get("verdict") is not None, never=not reviewer),
    ]
    # END SOLUTION

# %% [markdown]
# Try it on the greedy planner's run first: the plan step should fail, and the others succeed.

# %%
greedy = run_fault("planner writes code")
outcomes = try_it(run_outcomes, greedy, what="your run_outcomes")
if outcomes is not None:  # else try_it has said why (not written yet, an error, or no return within 2 s)
    print(json.dumps(outcomes, indent=1))

# %%
from agent_team.grading import grade_run_outcomes

report = grade_run_outcomes(run_outcomes)
report

# %%
# Stuck? Reveal hints one at a time: a nudge, then the approach, then code with the key lines
# left out. Each one you open is noted in your progress; run the grader cell again after a change.
from agent_team.widgets import Hints

Hints("6.2")

# %% [markdown]
# ## 3. Your team, end to end
#
# Every fault of part 4, and yours, with the two endings side by side: what `supervise` says, and
# what the gate says once your `run_outcomes` has read the run.
#
# Before it runs, one row to predict:

# %% tags=["quiz"]
Quiz("6.2")

# %%
from agent_team.realteam.gated import gated

runs = [(name, run_fault(name)) for name in FAULTS] + ([(MY_FAULT["name"] + " (yours)", mine)] if mine else [])
rows, hung = [], False
for name, run in runs:
    if hung:  # one wait is enough: a run_outcomes that hung once is not called again
        rows.append([name, run.status, "(not called: run_outcomes did not return above)"])
        continue
    judged = call_limited(lambda: gated(run, run_outcomes(run)), seconds=2.0)
    if judged.ok:
        verdict = judged.value.status
    elif judged.kind == "timeout":
        hung, verdict = True, "run_outcomes did not return within 2 s"
    elif isinstance(judged.error, NotImplementedError):
        verdict = "(write run_outcomes first)"
    else:
        verdict = f"failed: {judged.error!r}"[:60]
    rows.append([name, run.status, verdict])
show_table(["run", "supervise says", "through the gate"], rows, "your team, end to end")

# %% [markdown]
# Where the two columns differ, the tests passed but the work was not all done: a plan that was
# never written, or a review that never landed. Neither would have shown up in the status alone.
# The code of such a run is correct and its work incomplete: a blocked run is one to look at, not
# one to throw away, and the gate's proposal says which step to retry.
#
# <details><summary><b>A choice we made: the gate judges a finished run; it does not stop one</b>
# (a design note: open it to see why)</summary>
#
# > We could have put
# > the gate inside `supervise` and stopped a run the moment a step failed. But the supervisor's
# > ending is already complete and replayable, and a step such as `review` is only known at the
# > end. So the gate reads the finished run and can only take a `pass` away (`blocked`); a
# > `budget` run stays `budget`. Parts 1 to 5 keep their meaning, and the gate adds its question on
# > top.
#
# </details>

# %% [markdown]
# <details><summary><b>A choice we made: no fifth role in this part</b> (a design
# note: open it to see why)</summary>
#
# > A natural capstone would be a role of your
# > own, such as a security reviewer. In the engine a role is one row of a table (`roles.py`: its
# > turn, its allowlist, its view, its prompt, its place in the diagram), and adding one is a
# > three-file change that the course repository's guide for contributors walks through and a test repeats. But it is a change
# > to the package, and a grader could only judge it by importing your edited engine, which a
# > notebook in the browser does not have. So this part grades what you extend *through* the public
# > functions of parts 1 to 5 (policies, hooks, evals, the gate), and leaves the fifth role to the
# > recipe, for when you work on the repository itself.
#
# </details>
#
# ## Recap
#
# * A fault becomes an **eval** when it carries its expected status *and* evidence that is found in
#   the faulty run and nowhere else.
# * Your fault ran under the same supervisor as part 4's {{faults}}, and the state machine held.
# * Reading a run as **four steps** lets the reviewer gate judge a whole run: tests can pass while
#   the work is incomplete, and such a run ends `blocked`, never `pass`.
#
# **Next, part 7 — Your team with a real model:** the same team with a real model in its roles,
# recorded or your own, and what holds. And the whole course on one page: [the recap sheet](../recap.html#%recap).

# %% [markdown]
# Where you stand in the whole course (each grader records its last result; run it again after
# changing your code):

# %% tags=["nbval-ignore-output"]
from agent_team.widgets import Progress

Progress()

# %% [markdown]
# **Next: [Part 7 — Your team with a real model](07_real_model.ipynb)**. Or back to [the course's home page](../index.html#%home) (it opens in a new tab).
