# %% [markdown]
# # Part 1 — Architecture: one shared repo, narrow roles, one oracle
#
# Seat a few language models in one chat and ask them for a function, and you get plenty of
# talk and no reliable way to tell when they are finished. This course builds the opposite: a
# small team whose structure is fixed in code. This part lays its three foundations:
#
# 1. **one shared state**: a tiny repo, held in a Python dict, that every role reads and changes;
# 2. **narrow roles**: each may write only its own files, and code (not good manners) enforces it;
# 3. **an oracle**: a test runner that decides success by *running* the code, so success is
#    measured, never claimed.
#
# If you came expecting a team of planner, coder, reviewer and *tester*: the tester is this
# oracle. It is code, not an agent: no model is ever asked whether the tests pass, and the team
# has three roles, because the fourth seat is taken by a function that runs the tests.
#
# By the end you will be able to read the team's allowlist table, predict which patches the
# repo accepts and which it refuses, say who may declare the team done, and you will have written
# the oracle yourself (**Exercise 1.1**).
#
# About {{minutes}} minutes for a careful first pass. Run the cells
# from top to bottom; each one prints or checks something. Until you do, nothing has run in your
# browser: every cell shows `[ ]`, and the tables and drawings under them are stored with the
# notebook, from a run made when the course was built.
#
# A team like this can be built more than one way. Where we picked one way over another that works
# too, a box headed **A choice we made** names the other way, what we do instead, and why.

# %% [markdown]
# ## The words of this course
#
# We use the same word for the same thing everywhere: in the code, in these notebooks, and in the
# messages the graders write to you. Each word is explained where it first comes up; this table
# collects them for looking one up later.
#
# <details><summary>The words of this course, in one table</summary>
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
#
# </details>

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
# Every file is a plain string, and a role changes a file by sending its **complete new text**:
# no diffs, no line edits, nothing to parse or merge. A patch therefore carries exactly one path,
# and "may this role write there?" is answered by looking that path up in the role's allowlist.
# A few checks on the patch's *shape* come before that lookup; you will predict them below, after
# the allowlist.

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
# others (more on that below). The tester of the introduction is the **oracle**, the test runner
# you will write in exercise 1.1. The reads column is narrower than "everything" on purpose; part 2
# shows what each role is shown and why.
#
# Why bother with three roles, when a single coder could pass fizzbuzz on its own? To get
# **interfaces we can check**: a plan can only come from the planner, a verdict only from the
# reviewer, and the program's behaviour changes only when the coder's file changes. Software teams
# already work this way (someone writes up the plan, someone opens the change, the code's owner
# approves it, and the CI run has the last word), so the habits carry over to real repositories.
# Separate files also rule out a quieter problem: two roles sharing a file would overwrite each
# other, and which version survived would depend only on who happened to speak last.
#
# The rules live in the package as plain data. Here is `ALLOWLIST`, exactly what `apply_turn`
# enforces:

# %%
from agent_team.widgets import show_table  # an HTML table with a text twin

for role, paths in ALLOWLIST.items():
    print(f"ALLOWLIST[{role!r}] = {sorted(paths)}")

# %% [markdown]
# The allowlist table below is **built from that data**: the writes column comes from `ALLOWLIST`
# and the reads column from `VIEW_FIELDS` (what each role is shown). Change a rule in the engine and
# this table changes with it. Only the last column, what each role can point to when its turn went
# well, is text we wrote.

# %%
from agent_team.roles import role

SIGNAL = {  # our words: what each role can point to when its turn went well
    "planner": "PLAN.md is not empty",
    "coder": "none of its own: the oracle judges its code",
    "reviewer": "a verdict (approve / request_changes)",
}
TEAM = [name for name in ALLOWLIST if not role(name).optional]  # an optional role plays only when asked
rows = [(name, ", ".join(VIEW_FIELDS[name]), ", ".join(sorted(ALLOWLIST[name])), SIGNAL[name]) for name in TEAM]
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
# ### The design in three sentences
#
# Sooner or later someone asks how your team of agents works: a colleague at a design review, or
# an interviewer. "We used a multi-agent framework" is no answer, because a framework is where a
# design is written down, not the design itself. Three facts are an answer, and you can put each
# on a whiteboard before writing any code: **what decides success**, **what no model may touch**,
# and **who decides whose turn it is**. The allowlist table above is the drawing that goes with
# them. If you cannot fill in its columns, no framework will fill them in for you.
#
# Here are the three sentences for this course's team, read from the package so that they stay
# true of the code:

# %%
from agent_team.oracle import CASES
from agent_team.supervisor import supervise

untouchable = [path for path in initial_repo() if not any(path in allowed for allowed in ALLOWLIST.values())]
design = [
    f"Success is run_tests(repo): {len(CASES)} cases kept in the oracle's own code, out of every role's reach.",
    f"No role may write {', '.join(untouchable)}, so no model can change what passing means.",
    f"Turns are routed by {supervise.__name__}(), plain Python that stops after max_rounds coder turns at "
    f"most ({supervise.__kwdefaults__['max_rounds']} unless told otherwise).",
]
print("\n".join(design))
assert untouchable == [TESTS_PATH]

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
# <details><summary><b>A choice we made: the coder may write one file, not a folder</b>
# (the other way, and why not: open it)</summary>
#
# > The other way: let the
# > coder write `src/*.py`, any Python file under `src/`. Our allowlist holds exactly
# > `src/fizzbuzz.py`. The task needs one file, so a wider allowlist gains nothing and costs two
# > things: a coder could put code in new files that no test imports and no reviewer is shown, and a
# > pattern needs matching rules (does `src/../tests/x.py` fit `src/*.py`?) where a set of exact
# > paths needs one lookup. A task that needs a second file would add it to the set by name.
#
# </details>

# %%
helper = [{"path": "src/helpers.py", "content": "def helper():\n    return 1\n"}]
after, error = apply_turn(repo, "coder", helper)
print("error:", error)
assert after is repo and ALLOWLIST["coder"] == {SRC_PATH}

# %% [markdown]
# ### Predict, then run: the shape checks
#
# The allowlist is not the only thing `apply_turn` checks: it also looks at a patch's *shape*, and
# before it looks the path up. Below are six turns from the coder, all aimed at the one file it
# owns. Before running the next cells, decide for each: does `apply_turn` accept it or refuse it?
# (In Jupyter pick in the form; in code, `shape_guess.choose(...)` with six answers, one per turn,
# in order.)

# %%
from agent_team.repo import MAX_CONTENT, MAX_PATCHES
from agent_team.widgets import Predict

SHAPE_CASES = {
    "content is the number 42, not text": [{"path": SRC_PATH, "content": 42}],
    "content of 25,000 characters": [{"path": SRC_PATH, "content": "#" * 25_000}],
    "content of exactly 20,000 characters": [{"path": SRC_PATH, "content": "#" * 20_000}],
    "9 patches in one turn, all to src/fizzbuzz.py": [{"path": SRC_PATH, "content": FULL_SOURCE}] * 9,
    "the path src/../src/fizzbuzz.py": [{"path": "src/../src/fizzbuzz.py", "content": FULL_SOURCE}],
    "the absolute path /src/fizzbuzz.py": [{"path": "/src/fizzbuzz.py", "content": FULL_SOURCE}],
}
shape_guess = Predict("part 1: patch shapes")  # the six turns above, one question each
assert [prompt for prompt, _ in shape_guess.questions] == list(SHAPE_CASES)
shape_guess

# %%
outcomes = {}
for case, patches in SHAPE_CASES.items():
    after, error = apply_turn(repo, "coder", patches)
    outcomes[case] = "refused" if error else "accepted"
    print(f"{case}:\n    {error or 'accepted'}")
    assert (after is repo) == (error is not None)
print(f"\nthe caps: {MAX_CONTENT:,} characters per file, {MAX_PATCHES} patches per turn")

# %%
shape_guess.reveal(list(outcomes.values()))  # the why, and the course's key, are in agent_team.predict

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
# Why check the shape, and check it *before* the allowlist? Our allowlist is a set of exact paths,
# so `src/../tests/test_fizzbuzz.py` would be refused anyway. But in a real tool the repo is a folder
# on disk, where that path *is* the test file under another spelling, and the early check says what
# is wrong with the path instead of only "not allowed". The size caps earn their place later: a
# policy stuck in a loop could send megabytes, and every byte would land in the repo, in the trace
# and in every later view (once a model fills a role, in every later prompt). The cap stops it at
# the door.

# %% [markdown]
# ### Quick check

# %%
from agent_team.widgets import Quiz

Quiz("1.1")


# %% [markdown]
# ## The oracle: the only success signal
#
# The oracle is `run_tests(repo)`. It reads the source text out of the repo, turns it into a
# function, and checks four cases. It does not read the plan, the review, or anything a role *says*:
# only what the code *does*.

# %%
from agent_team.oracle import CASES, run_tests
from agent_team.render.html import wrap
from agent_team.render.tests_table import tests_html, tests_text
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
# The rules exist twice, on purpose. The file `tests/test_fizzbuzz.py` is documentation: the
# planner reads it to learn what to aim for. The copy that counts is `CASES`, inside the oracle's
# Python, where no role can reach it. Anyone may read the documentation; only the oracle's copy is
# ever run. The second `assert` below makes sure the two copies say the same thing.

# %%
assert (report["ok"], report["passed"], report["failed"]) == (False, 1, 3)
assert all(f"fizzbuzz({n}) == {expected!r}" in repo[TESTS_PATH] for n, expected in CASES)
assert run_tests({**repo, SRC_PATH: FULL_SOURCE})["ok"] is True
print("stub: 1 of 4; correct source: 4 of 4")

# %% [markdown]
# ### Test-driven development, with a team
#
# If you have written code test-first, this loop will look familiar. In test-driven development
# the tests exist before the code and fail (**red**), you write the code that makes them pass
# (**green**), and green is when you stop. Our team runs exactly that cycle, with roles in it:
# the spec and the oracle are there before any code, the stub starts red, the coder's only job is
# to turn it green, and the first green ends the run. What the team adds to plain TDD is a
# division of powers: the tests are frozen, so the coder cannot make them easier, and it is the
# supervisor, not the coder, that notices green and stops.
#
# The cycle in a real run: the oracle's answer before any code, then after each coder turn.

# %%
from agent_team.trace import oracle_reports  # the trace's readers pick out events of one kind

cycle = supervise(max_rounds=4)
colours = ["green" if report["ok"] else "red" for report in oracle_reports(cycle.trace)]
before = "green" if run_tests(initial_repo())["ok"] else "red"
print(f"before any code:       {before}")
print(f"after each coder turn: {' -> '.join(colours)} | then the run stops: {cycle.status}")
assert colours[-1] == "green" and "green" not in colours[:-1]  # it stops at the first green

# %% [markdown]
# Nothing a role *says* reaches this signal. Suppose the coder writes a Fizz-only version and
# announces that everything works. The oracle never hears the announcement; it runs the code.

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
from agent_team.oracle import source_problems

refused = {  # step 1, reading: each source is refused before a single line of it runs
    "an import": "import os\ndef fizzbuzz(n):\n    return os.getcwd()\n",
    "a name starting with _": "def fizzbuzz(n):\n    return n.__class__\n",
    "eval": "def fizzbuzz(n):\n    return eval('str(n)')\n",
}
for what, source in refused.items():
    print(f"{what}: {source_problems(source)[0][:70]}...")
    assert source_problems(source)

# %% [markdown]
# Step 2 in action: a `fizzbuzz` that never returns. The step budget stops it, the case counts as
# failed, and `run_tests` returns normally with a message that says what happened.

# %%
looping = run_tests({**repo, SRC_PATH: "def fizzbuzz(n):\n    while True:\n        n = n + 1\n"})
print(looping["passed"], "passed,", looping["failed"], "failed")
print(looping["errors"][0])
assert looping["ok"] is False and looping["passed"] == 0

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
# This is not the only sensible order (one could, for example, review code *before* testing it).
# Part 3 compares the options and says why we chose this one. For now, watch it run and list who
# spoke, in order.

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
# ## When is the team done?
#
# Not when somebody says so. A plan announcing that the work is *complete*, an approving review, a
# coder's thought that *it should work now*, a file named `DONE.md`: each is something a role
# wrote, and the trace keeps it as a record of what was said, nothing more.
#
# The supervisor ends a run in exactly two ways, and both leave evidence in the trace:
#
# * **pass**: the oracle reported `run_tests(repo)["ok"] is True`;
# * **budget**: the rounds ran out, and the trace holds the last test report, showing what still
#   failed.
#
# Below, the unchanged stub surrounded by confident claims. Only the oracle's answer matters.

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
Quiz("1.2")


# %% [markdown]
# ## Exercise 1.1 — write the oracle
#
# Write `run_tests(repo)`: `exec` the source in `repo["src/fizzbuzz.py"]` into a fresh dict, take
# `fizzbuzz` out of it, check the four `CASES`, and return `{"ok": bool, "passed": int, "failed":
# int, "errors": [str, ...]}`. The stub must score 1 of 4 and a correct `fizzbuzz` 4 of 4. Source
# that does not compile, has no `fizzbuzz`, or raises on some input must come out as failed cases
# with a message saying what went wrong: **`run_tests` itself never raises**.
#
# Every sentence is a check of the grader; where the sentence leaves room, the right column says
# what we decided:
#
# | check | what it asks |
# |---|---|
# | `never raises` | any exception (anything `except Exception` catches), while loading or on a case, becomes failed cases |
# | `report shape` | a plain `dict`; `ok` a `bool`, `passed` and `failed` `int`s, `errors` a `list` of `str` (other keys are ignored) |
# | `one fresh dict` | a new dict on every call, made inside `run_tests`, so nothing is left from the source before (not a dict kept between calls, not your own `globals()`); one dict, used as the source's globals, so a helper it defines next to `fizzbuzz` is found |
# | `the four CASES` | `passed` counts the cases whose result equals the expected string (`1` is not `"1"`, `"Fizz "` is not `"Fizz"`); `failed` the others; a source that cannot load fails all four |
# | `ok` | `True` exactly when all four passed |
# | `errors explain` | no message when all four pass; at least one when any fails; every exception named by its type, `type(err).__name__` (`ValueError`): its text may be empty |
# | `type before ==` | a result counts only if it is exactly a `str` equal to the expected one: check `type(got) is str` before `==`, since a result's own `==` is its code and may raise |
#
# *Hint:* plain `exec` is fine here (every source the grader uses is one we wrote), so you need none
# of the package's static checks or step budget, and no `cases` rows.

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
from agent_team.grading import try_it

tried = try_it(run_tests, initial_repo(), what="your run_tests")
if tried is not None:
    print(tried)

# %% [markdown]
# The grader runs your `run_tests` on sources whose results are known: the stub, a correct solution,
# a Fizz-only cut, crashes with exceptions of many types (on a case or while loading), wrong types,
# a syntax error, no `fizzbuzz`, a helper function, and 80 more built at random from the same parts.
# It reports every check of the table above; the first failing one is the one to fix.

# %%
from agent_team.grading import grade_run_tests

report = grade_run_tests(run_tests)
report

# %%
# Stuck? Reveal hints one at a time: a nudge, then the approach, then code with the key lines
# left out. Each one you open is noted in your progress; run the grader cell again after a change.
from agent_team.widgets import Hints

Hints("1.1")

# %% [markdown]
# ## Recap
#
# * The team shares **one repo**, a dict of path → text; roles change it only through patches.
# * Each role has an **allowlist**; a turn lands **all or nothing**, and no role can touch the tests.
# * The **oracle** runs the code and is the only success signal; what roles *say* is only recorded.
# * The **supervisor is code**: fixed turn order, tests after every coder turn, a budget, and the
#   same trace for the same inputs. Only it ends a run: on a passing oracle, or out of budget.
#
# **Next, part 2 — Policies:** what goes *inside* each role: the common output schema, the fake
# planner, coder and reviewer, and what each of them is allowed to see.

# %% [markdown]
# Where you stand in the whole course (each grader records its last result; run it again after
# changing your code):

# %% tags=["nbval-ignore-output"]
from agent_team.widgets import Progress

Progress()

# %% [markdown]
# **Next: [Part 2 — Policies: what goes inside each role](02_policies.ipynb)**. Or back to [the course's home page](../index.html#%home) (it opens in a new tab).
