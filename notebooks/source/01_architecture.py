# %% [markdown]
# # Part 1 — Architecture: one shared repo, narrow roles, one oracle
#
# A team of agents is not a group chat. It is three things, and this part builds each of them:
#
# 1. **one shared state** that every role works on (a tiny repo held in a dict),
# 2. **narrow roles**, each allowed to write only its own files, enforced by code,
# 3. **a stop condition the coder cannot talk its way past**: a test runner, the *oracle*.
#
# By the end you will be able to read the team's allowlist table, predict which patches the
# repo accepts and which it refuses, say who may declare the team done, and you will have written
# the oracle yourself (**Exercise 1.1**).
#
# About 30 minutes. Run the cells from top to bottom; each one prints or checks something.

# %% [markdown]
# ## The words of this course
#
# We use the same word for the same thing everywhere: in the code, in these notebooks, and in the
# messages the graders write to you.
#
# | word | what it means here |
# |---|---|
# | **goal** | what the team is asked to do, in one sentence |
# | **repo** | the shared state: a dict from a file path to that file's text |
# | **patch** | a role's proposal to replace one whole file: `{"path": ..., "content": ...}` |
# | **allowlist** | the paths a role may write; anything else is refused |
# | **role**, **policy** | a role is a slot (planner, coder, reviewer); a policy is the function that fills it |
# | **view** | what one role is shown on its turn |
# | **turn**, **round** | a turn is one role acting once; rounds are counted by coder turns |
# | **oracle** | the test runner, `run_tests(repo)`: the only success signal |
# | **verdict** | the reviewer's `approve` or `request_changes`, with notes |
# | **trace** | the supervisor's ordered record of everything that happened |
# | **budget** | the limit that ends a run without success (`max_rounds`) |

# %%
import json

from agent_team.repo import (ALLOWLIST, GOAL, PLAN_PATH, REVIEW_PATH, SRC_PATH, TESTS_PATH,
                             apply_turn, initial_repo)
from agent_team.views import VIEW_FIELDS

print("goal:", GOAL)

# %% [markdown]
# ## One shared state: the repo
#
# The whole world of the team is one dict. Keys are file paths, values are the files' text. There
# is no hidden memory anywhere else: if it is not in the repo (or in the supervisor's trace, its
# record of the run), the team does not know it.
#
# A fresh repo holds four files: the source with a deliberately wrong `fizzbuzz`, the test spec,
# an empty plan, and an empty list of reviews.

# %%
repo = initial_repo()
for path, text in repo.items():
    print(f"--- {path} ---")
    print(text if text else "(empty)")

# %% [markdown]
# Every file is a plain string, and every change to a file is a **full-file write**. No diffs, no
# line edits. That keeps the rules easy to check: a patch names one path and the complete new text,
# so "may this role write that path?" is a single lookup.

# %%
assert set(repo) == {SRC_PATH, TESTS_PATH, PLAN_PATH, REVIEW_PATH}
assert all(isinstance(text, str) for text in repo.values())
assert repo[PLAN_PATH] == ""  # nobody has planned yet
print("four files, all of them text")

# %% [markdown]
# ## Narrow roles and the allowlist table
#
# Three roles share the repo, and each gets one job:
#
# * the **planner** writes `PLAN.md` and nothing else;
# * the **coder** writes `src/fizzbuzz.py` and nothing else;
# * the **reviewer** writes its verdict in `REVIEW.json` and nothing else.
#
# A fourth participant, the **supervisor**, is not a role at all: it is the Python that runs the
# others (more on that below).
#
# Why split the work at all, when one coder could pass fizzbuzz alone? Because the split forces
# **interfaces**: the planner's only output is a plan, the reviewer's only output is a verdict, and
# only the coder can change behaviour. It is the shape of a real project: a plan in an issue, a pull
# request, a review by the code's owner, and CI as the judge. And if two roles could write the same
# file, you would not have roles, you would have a race.
#
# The table below is **built from the package's real data**: the writes column comes from
# `ALLOWLIST` (what `apply_turn` enforces) and the reads column from `VIEW_FIELDS` (what each role is
# shown). If someone changed a rule in the engine, this table would change with it. Only the last
# column, what each role counts as having done its job, is text we wrote.

# %%
from IPython.display import display
from agent_team.render.html import table, wrap


def show_table(headers, rows, label):
    """Show rows as an HTML table, with a plain-text version for text-only front ends."""
    text = "\n".join(" | ".join(str(cell) for cell in row) for row in [headers, *rows])
    display({"text/html": wrap(table(headers, rows), label=label), "text/plain": text}, raw=True)


SIGNAL = {  # our words: what each role can point to when its turn went well
    "planner": "PLAN.md is not empty",
    "coder": "none of its own: the oracle judges its code",
    "reviewer": "a verdict (approve / request_changes)",
}
rows = [(role, ", ".join(VIEW_FIELDS[role]), ", ".join(sorted(ALLOWLIST[role])), SIGNAL[role])
        for role in ALLOWLIST]
rows.append(("supervisor (code)", "the whole repo and the trace", "nothing (it only appends to the trace)",
             "run_tests(repo) passes, or the budget runs out"))
show_table(["role", "reads (its view)", "writes (its allowlist)", "success signal"], rows,
           label="the allowlist table")

# %% [markdown]
# Two facts in that table carry the whole design, so we pin them with `assert`:
#
# * **no two roles can write the same path**, so no two roles can race for a file;
# * **the test file is in nobody's allowlist.** No role can change what "passing" means.

# %%
paths = [path for allowed in ALLOWLIST.values() for path in allowed]
assert len(paths) == len(set(paths)), "two roles share a path"
assert all(TESTS_PATH not in allowed for allowed in ALLOWLIST.values())
print("every path has at most one writer; nobody may write", TESTS_PATH)

# %% [markdown]
# ## A patch refused, live
#
# Roles never assign `repo[path] = ...` themselves. They return patches, and the supervisor passes
# each turn through `apply_turn(repo, role, patches)`, which returns `(new_repo, error)`.
#
# Here the planner gets ambitious and tries to write the solution itself. Watch what comes back.

# %%
from agent_team.policies import FULL_SOURCE

sneaky = [{"path": SRC_PATH, "content": FULL_SOURCE}]
after, error = apply_turn(repo, "planner", sneaky)
print("error:", error)
assert after is repo                      # the repo we got back is the old one...
assert repo[SRC_PATH].endswith("return str(n)\n")  # ...and the stub is still the stub

# %% [markdown]
# The message says what happened and which rule it broke: the planner's allowlist holds only
# `PLAN.md`. The same planner writing its own file is fine, and note that `apply_turn` never changes
# the repo it was given: it hands back a **new** dict.

# %%
plan = [{"path": PLAN_PATH, "content": "- make fizzbuzz pass the tests\n"}]
after, error = apply_turn(repo, "planner", plan)
print("error:", error)
print("new PLAN.md:", repr(after[PLAN_PATH]))
print("old PLAN.md:", repr(repo[PLAN_PATH]))
assert error is None and after is not repo and repo[PLAN_PATH] == ""

# %% [markdown]
# ### All or nothing
#
# A turn can carry several patches. If **any** of them is refused, **none** of them lands. Here the
# coder writes a correct solution *and* "fixes" the tests so they always pass. The good patch does
# not sneak through alongside the bad one: the whole turn is refused, and the message says which
# patch broke which rule.

# %%
two_patches = [
    {"path": SRC_PATH, "content": FULL_SOURCE},
    {"path": TESTS_PATH, "content": "# every test passes\n"},
]
after, error = apply_turn(repo, "coder", two_patches)
print("error:", error)
assert after is repo and after[SRC_PATH] == repo[SRC_PATH]

# %% [markdown]
# Why not apply the good half? Because a turn is one decision by one role. Half of a decision is
# a state nobody chose, and the next role would have to reason about a repo that no one intended.
# Refusing the whole turn keeps every state of the repo one that some role really proposed.

# %% [markdown]
# ### Quick check

# %%
from agent_team.widgets import Quiz

Quiz(
    "In one turn, the planner sends two patches: a new PLAN.md and a new src/fizzbuzz.py. "
    "What does the repo look like afterwards?",
    ["PLAN.md and src/fizzbuzz.py are both updated",
     "Only PLAN.md is updated; the source patch is dropped",
     "Nothing changes, and the refusal says which patch broke which rule",
     "Only src/fizzbuzz.py is updated, because code matters more than plans"],
    answer=2,
    explanation="A turn lands all or nothing. The source patch is outside the planner's allowlist, "
                "so the whole turn is refused, PLAN.md included, and the reason is recorded.",
    explanations=[
        "That would let the planner act as a coder: the allowlist exists to stop exactly this.",
        "That applies half a turn, leaving a repo state that no role actually proposed.",
        None,
        "That keeps precisely the patch the rules forbid, and drops the one that was allowed.",
    ],
)

# %% [markdown]
# ## The oracle: the only success signal
#
# The oracle is `run_tests(repo)`. It reads the source text out of the repo, turns it into a
# function, and checks four cases. It does not read the plan, the review, or anything a role *says*:
# only what the code *does*.

# %%
from agent_team.oracle import CASES, run_tests
from agent_team.render.html import wrap
from agent_team.render.step import tests_html, tests_text
from agent_team.widgets import Rich

print("cases:", CASES)
report = run_tests(repo)
Rich(wrap(tests_html(report), label="test report"), tests_text(report))

# %% [markdown]
# The stub returns `str(n)` for everything, so it gets `1` right by accident and the other three
# wrong: **1 passed, 3 failed**. Each error names the input, what came back and what was expected,
# which is exactly what a coder needs to fix it. The report also keeps one row per case (`cases`),
# shown above as a table.
#
# Note the two layers. `tests/test_fizzbuzz.py` in the repo is a **spec for the roles to read**;
# the check itself is Python inside the oracle (`CASES`), out of every role's reach. Roles read
# specs; code grades. The second `assert` below checks that the two layers agree.

# %%
assert (report["ok"], report["passed"], report["failed"]) == (False, 1, 3)
assert all(f"fizzbuzz({n}) == {expected!r}" in repo[TESTS_PATH] for n, expected in CASES)
assert run_tests({**repo, SRC_PATH: FULL_SOURCE})["ok"] is True
print("stub: 1 of 4; correct source: 4 of 4")

# %% [markdown]
# The coder cannot lie to this signal. Suppose it writes a Fizz-only version and announces that
# everything works. The oracle never hears the announcement; it runs the code.

# %%
from agent_team.policies import FIZZ_ONLY_SOURCE

coder_says = "All four cases pass now, trust me."
verdict = run_tests({**repo, SRC_PATH: FIZZ_ONLY_SOURCE})
print("coder says:", coder_says)
print(f"oracle says: {verdict['passed']} passed, {verdict['failed']} failed")
for line in verdict["errors"]:
    print("  -", line)

# %% [markdown]
# How does the oracle run code it did not write? In three steps. It first **reads** the source
# without running it and refuses anything outside a small allowlist of Python: no imports, no names
# starting with `_`, no `eval`. Then it **runs** it in a fresh namespace with a few safe builtins and
# a budget of steps, so an endless loop is stopped and counted as a failure. Finally it **compares**
# each result with the expected string. Whatever goes wrong becomes a failed case with a message;
# the oracle itself never crashes.

# %%
from agent_team.oracle import check_source

print(check_source("import os\ndef fizzbuzz(n):\n    return os.getcwd()\n"))
looping = run_tests({**repo, SRC_PATH: "def fizzbuzz(n):\n    while True:\n        n = n + 1\n"})
print(looping["passed"], "passed;", looping["errors"][0].split(":")[0])  # the rest of the message says why

# %% [markdown]
# > **A teaching sandbox, not a security boundary.** All of this runs inside the same Python
# > process as the rest of the course. It stops honest mistakes and the tricks we know about, but
# > a bug in Python itself, or an operation the guards do not know, could still get out or eat the
# > machine's memory. Here every coder is a scripted fake we wrote, so that is fine. Code written by
# > a real model, which you do not control, belongs in a separate process or virtual machine with
# > limits set by the operating system and no secrets or network within reach.

# %% [markdown]
# ## Why the supervisor is code, not a fourth agent
#
# Someone has to decide whose turn it is, when to run the tests and when to stop. It is tempting
# to hand that to one more model ("the manager agent"). Don't. A model choosing the next speaker
# can keep the conversation going forever, skip the tests because everyone sounds confident, or stop
# because someone said "done". The rules of a turn order are simple and fixed, so write them down
# as code:
#
# 1. the planner speaks once (again only if `PLAN.md` is still empty);
# 2. the coder patches the source;
# 3. the oracle runs, **every time** after the coder;
# 4. green tests: the reviewer leaves its verdict and the run stops with success; red tests: the
#    reviewer comments, and the coder goes again;
# 5. out of rounds: stop without success.
#
# Part 3 builds this state machine in full. For now, watch it run and list who spoke, in order.

# %%
from agent_team.supervisor import supervise

result = supervise(max_rounds=4)
steps = [f"{e['state']}:{e['role']}" if e["type"] == "turn" else e["state"] for e in result.trace]
print(" -> ".join(steps))
print("status:", result.status, "|", result.stop_reason)

# %% [markdown]
# Because the routing is code, the same team and the same goal give the **same trace**, event for
# event, every time you run it. That is what lets us test the orchestration, step through it, and
# grade it. Try getting that guarantee from a manager agent.

# %%
assert supervise(max_rounds=4).trace == result.trace
assert result.status == "pass" and result.rounds == 2
print("same inputs, same trace")

# %% [markdown]
# ## What "done" is, and what it is not
#
# "Done" is **not** a plan that says *complete*. It is not a reviewer's approval. It is not a coder's
# thought that says *this should work*, nor a file called `DONE.md`. All of that is narration.
#
# "Done" is one of two things the supervisor can show you in the trace:
#
# * **success**: `run_tests(repo)["ok"] is True`, or
# * **a budget stop**: the rounds ran out, and the trace shows what the tests said last.
#
# Below, a repo full of confident words and an unchanged stub. The oracle is not impressed.

# %%
chatty = {
    **initial_repo(),
    PLAN_PATH: "- everything is COMPLETE\n- DONE\n",
    REVIEW_PATH: json.dumps({"verdict": "approve", "notes": "looks great, ship it"}),
    "DONE.md": "done!",
}
print("ok:", run_tests(chatty)["ok"], "| passed:", run_tests(chatty)["passed"], "of 4")
assert run_tests(chatty)["ok"] is False

# %% [markdown]
# And a run that is out of budget ends as exactly that: a `budget` status and a reason in words,
# not a success and not a crash.

# %%
short_run = supervise(max_rounds=1)
print(short_run.status, "|", short_run.stop_reason)
assert short_run.status == "budget"

# %%
Quiz(
    "Who is allowed to declare the team done?",
    ["The coder, when its thought says the code works",
     "The planner, once PLAN.md is written",
     "The supervisor, when run_tests passes (or when the budget runs out)",
     "Any role that writes a DONE.md file"],
    answer=2,
    explanation="Only the supervisor ends a run, and only on evidence it can show in the trace: the "
                "oracle passing, or the budget spent (a stop without success).",
    explanations=[
        "A thought is a claim about the code, not a test of it. The oracle runs the code; the thought "
        "is only recorded.",
        "A written plan says what should happen, not whether the code works. The planner speaks before "
        "any code exists.",
        None,
        "DONE.md is just text in a file. No role may even write it, and the oracle never reads it.",
    ],
)

# %% [markdown]
# ## Exercise 1.1 — write the oracle
#
# Write `run_tests(repo)`. It takes the source in `repo["src/fizzbuzz.py"]`, runs it in a fresh
# dict, takes the `fizzbuzz` function out of that dict, and checks the four `CASES`. Return
# `{"ok": bool, "passed": int, "failed": int, "errors": [str, ...]}`.
#
# Three rules: the stub must fail 3 of 4; a correct `fizzbuzz` passes 4 of 4; and **the test runner
# itself never crashes**. Source that does not compile, has no `fizzbuzz`, or raises on some input
# just means failed cases, each with an error message that says what went wrong.
#
# Yours does not need the package's static checks or step budget: plain `exec` into a fresh dict is
# fine here, because every source the grader feeds it is one we wrote. (You can leave out the
# package's `cases` rows too; the grader checks the four keys above.)

# %% tags=["exercise"]
def run_tests(repo):
    # BEGIN SOLUTION
    errors, passed = [], 0
    namespace = {}
    try:
        exec(repo.get(SRC_PATH, ""), namespace)
        fizzbuzz = namespace["fizzbuzz"]
    except Exception as err:  # a syntax error, or no fizzbuzz: every case fails
        problem = f"could not load fizzbuzz: {type(err).__name__}: {err}"
        return {"ok": False, "passed": 0, "failed": len(CASES), "errors": [problem]}
    for n, expected in CASES:
        try:
            got = fizzbuzz(n)
        except Exception as err:
            errors.append(f"fizzbuzz({n}) raised {type(err).__name__}: {err}")
            continue
        if type(got) is str and got == expected:
            passed += 1
        else:
            errors.append(f"fizzbuzz({n}) returned {got!r}; expected {expected!r}")
    return {"ok": not errors, "passed": passed, "failed": len(CASES) - passed, "errors": errors}
    # END SOLUTION

# %% [markdown]
# Try it on the stub first. This cell only prints; the grader below is the judge.

# %%
try:
    print(run_tests(initial_repo()))
except NotImplementedError as err:
    print("not written yet:", err)

# %% [markdown]
# The grader runs your `run_tests` on seven sources whose results are known (the stub, a correct
# solution, a Fizz-only cut, one that crashes on 5, one that returns numbers, one that does not
# compile, one with no `fizzbuzz`) and reports every check.

# %%
from agent_team.grading import check_run_tests
from agent_team.widgets import show_report

report = check_run_tests(run_tests)
show_report(report)

# %% [markdown]
# ## Recap
#
# * The team shares **one repo**, a dict of path → text; roles change it only through patches.
# * Each role has an **allowlist**; a turn lands **all or nothing**, and no role can touch the tests.
# * The **oracle** runs the code and is the only success signal; what roles *say* is narration.
# * The **supervisor is code**: fixed turn order, tests after every coder turn, a budget, and the
#   same trace for the same inputs.
#
# **Next, part 2 — Policies:** what goes *inside* each role: the common output schema, the fake
# planner, coder and reviewer, and what each of them is allowed to see.

# %% [markdown]
# Where you stand in the whole course (each grader records its last result; run it again after
# changing your code):

# %%
# NBVAL_IGNORE_OUTPUT
from agent_team.widgets import Progress

Progress()
