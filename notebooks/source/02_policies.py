# %% [markdown]
# # Part 2 — Policies: what goes inside each role
#
# Part 1 built the frame: a shared repo, allowlists, an oracle. This part fills the slots. A
# **policy** is the function that plays a role; here every policy is a small scripted fake, so
# that what you learn is the orchestration around them, not prompt writing.
#
# You will be able to:
#
# * write a policy that returns the **common output schema** every role shares;
# * explain the fake **planner** (plans once, then does nothing), the **two-phase coder** (changes
#   its code because a test failed) and the **reviewer** (a verdict, nothing more);
# * show that a role's **thought** is kept in the trace but never steers the run;
# * say what each role is shown (its **view**) and why those views are kept narrow;
# * add a **nits counter** to the reviewer (**Exercise 2.1**).
#
# About {{minutes}} minutes for a careful first pass. This part uses seven words (two of them, view and
# verdict, from part 1's table, now in full); each is explained where it first comes up, and the
# table below (folded) collects them for looking up later.
#
# <details><summary>The words this part adds</summary>
#
# | word | meaning here |
# |---|---|
# | **output schema** | the one dict shape every policy returns: `role`, `thought`, `patches`, `message` |
# | **thought** | a role's reasoning, in words; kept in the trace for people, never used to decide |
# | **message** | a short note from a role to the team; the reviewer's can be `escalate` |
# | **view** | the small dict the supervisor builds for one role's turn: all that role gets to see |
# | **verdict** | the reviewer's `approve` or `request_changes`, written into `REVIEW.json` |
# | **nit** | one request for changes (`request_changes`) from the reviewer, small or large; the nits counter counts them over the whole run |
# | **escalate** | the reviewer's message that a person should look, after too many nits |
#
# </details>

# %%
import inspect
import json

from agent_team.oracle import run_tests
from agent_team.policies import (check_output, fake_coder, fake_planner, fake_reviewer, output,
                                 read_verdict, BadOutput)
from agent_team.repo import GOAL, PLAN_PATH, REVIEW_PATH, SRC_PATH, apply_turn, initial_repo
from agent_team.views import VIEW_FIELDS, make_view

# %% [markdown]
# ## One output schema for every role
#
# Planner, coder and reviewer do different jobs, but they all answer in the same shape. Each
# policy is a function `policy(goal, view)` and returns a dict with four keys:
#
# | key | what it holds | who uses it |
# |---|---|---|
# | `role` | which slot is speaking: `"planner"`, `"coder"` or `"reviewer"` | the supervisor checks it |
# | `thought` | the role's reasoning, in words | kept in the trace, for people; never used to decide |
# | `patches` | a list of full-file writes `{"path", "content"}` | the supervisor applies them, all or nothing |
# | `message` | a short note to the team | kept in the trace; the reviewer's can say `escalate` |
#
# One shape means one piece of supervisor code handles every role, and it means that when a fake is
# later swapped for a language model, only the inside of the function changes. The package builds
# outputs with `output(role, thought, patches, message)`:

# %%
example = output("planner", "the goal is small: three bullets will do",
                 [{"path": PLAN_PATH, "content": "- write fizzbuzz\n"}], "planned")
print(json.dumps(example, indent=2))

# %% [markdown]
# Before using an output, the supervisor checks its shape with `check_output(role, out)`. A policy
# that returns something else, or that claims to speak for another slot, is refused with a message
# that says what is wrong. (Part 4 throws much worse at it.)

# %%
for bad in ["I have finished the plan.", {"role": "coder", "patches": []}]:
    try:
        check_output("planner", bad)
    except BadOutput as err:
        print("refused:", err)

# %% [markdown]
# Notice what a policy receives: the goal and a **view**, never the repo itself and never the
# supervisor's trace. The view is a small dict the supervisor builds for that role on each turn;
# we look at views closely further down. To run one policy by hand we build its view with
# `make_view(role, goal, repo, trace)`, exactly as the supervisor does.
#
# <details><summary><b>A choice we made: a policy gets a view, not the repo and the trace</b>
# (the other way, and why not: open it)</summary>
#
# > The other way: write
# > every policy as `policy(goal, repo, trace)`, which would let each role read every file and every
# > event, and trust each one to look only at what it needs. We pass `policy(goal, view)` instead.
# > The view is then the *only* way information reaches a role, so what a role can know is decided
# > in one place (`VIEW_FIELDS`), and no role can read another's thoughts by accident: narrow views
# > are not a habit to keep but the only option. Each role gets its own copy of its view, built
# > afresh for that turn, so a policy that changes its view (appends to `past_verdicts`, say)
# > changes nothing the supervisor or another role reads.
#
# </details>

# %% [markdown]
# ## The fake planner: plan once, then stay quiet
#
# Here is the package's planner, printed from its source so that what you read is what runs:

# %%
print(inspect.getsource(fake_planner))

# %% [markdown]
# If `PLAN.md` is empty it writes three bullets; if a plan is already there it returns **no
# patches** and the message `skip`. That second branch matters: a planner that rewrites the plan on
# every call keeps the team planning instead of coding. Run it twice on the same repo and see.

# %%
repo, trace = initial_repo(), []

first = fake_planner(GOAL, make_view("planner", GOAL, repo, trace))
repo, error = apply_turn(repo, "planner", first["patches"])
print("1st call:", first["message"], "| patches:", [p["path"] for p in first["patches"]], "| error:", error)

second = fake_planner(GOAL, make_view("planner", GOAL, repo, trace))
print("2nd call:", second["message"], "| patches:", second["patches"])
print()
print(repo[PLAN_PATH])
assert first["patches"] and second["patches"] == [] and second["message"] == "skip"

# %% [markdown]
# ## The two-phase coder: it reacts to a test result
#
# The coder could simply write the right answer at once. It is more instructive if it does not:
# its first cut only handles Fizz, and it writes the full solution **only after it has seen a failed
# test run**. That gives the team a second round to coordinate, and it shows the most important
# idea of this part: the coder changes what it does because of an **event the supervisor put in
# its view** (the oracle's last report), not because anyone told it to.

# %%
print(inspect.getsource(fake_coder))

# %% [markdown]
# Turn 1: no tests have run yet, so `last_tests` is `None` and we get the Fizz-only cut.
# The oracle then runs, exactly as the supervisor would do after every coder turn.

# %%
turn1 = fake_coder(GOAL, make_view("coder", GOAL, repo, trace))
repo, _ = apply_turn(repo, "coder", turn1["patches"])
tests = run_tests(repo)
trace.append({"type": "tests", "tests": tests})  # what the supervisor records after a coder turn
print("coder thought:", turn1["thought"])
print(f"oracle: {tests['passed']} passed, {tests['failed']} failed")
for line in tests["errors"]:
    print("  -", line)

# %% [markdown]
# Turn 2: the failed report is now in the trace, so it shows up in the coder's view, and the coder
# switches to the full solution.

# %%
view = make_view("coder", GOAL, repo, trace)
print("the coder sees last_tests =", view["last_tests"])
turn2 = fake_coder(GOAL, view)
repo, _ = apply_turn(repo, "coder", turn2["patches"])
print("coder thought:", turn2["thought"])
print("oracle:", run_tests(repo)["passed"], "of 4")
assert (tests["passed"], run_tests(repo)["ok"]) == (2, True)

# %% [markdown]
# If you know the ReAct pattern, you will recognise the loop: act, look at what the world answers,
# act again. Here the world's answer is the oracle's report, and it reaches the coder only because
# the supervisor copied it into the coder's view. The coder never calls the oracle itself.

# %% [markdown]
# ## The reviewer: a verdict, nothing more
#
# The reviewer judges code; it never edits it. Give it the power to change the source and two
# roles would be changing one file, the very situation the allowlist exists to prevent. Its only
# legal write is `REVIEW.json`, holding `{"verdict": "approve" | "request_changes", "notes": ...}`:

# %%
print(inspect.getsource(fake_reviewer))

# %% [markdown]
# Green tests: approve. Red tests: ask for changes and quote the first error, which is the most
# useful thing a reviewer can hand the coder. Let us show it both reports.

# %%
red = {"ok": False, "passed": 2, "failed": 2, "errors": tests["errors"]}
green = run_tests(repo)
for name, report in [("red", red), ("green", green)]:
    out = fake_reviewer(GOAL, {"last_tests": report})
    print(f"{name:5} tests -> REVIEW.json = {out['patches'][0]['content']}")

# %% [markdown]
# The supervisor takes the verdict **from the file the reviewer wrote**, after the patch is
# applied, with `read_verdict`. Not from the thought, not from the message. A verdict that is not
# valid JSON, or names a verdict that does not exist, is recorded as an error instead.

# %%
for text in ['{"verdict": "approve", "notes": "tests green"}', "LGTM!", '{"verdict": "ship it"}']:
    print(f"{text!r:50} -> {read_verdict(text)}")

# %% [markdown]
# <details><summary><b>A choice we made: <code>REVIEW.json</code> holds the latest verdict only</b>
# (the other way, and why not: open it)</summary>
#
# > The other way: keep
# > `REVIEW.json` as a list that grows by one verdict per review. It does start as `[]`, an empty
# > list, but a reviewer writes a single verdict object into it, and we make the rule explicit: `[]` means *no review yet*, and every reviewer turn
# > replaces the whole file (patches are full-file writes) with its newest verdict. The history of
# > verdicts lives in the supervisor's trace, which is where the reviewer's own `past_verdicts`
# > come from. One file, one verdict: the supervisor never has to guess which entry is current.
#
# </details>

# %%
fresh = initial_repo()[REVIEW_PATH]
coder_view = make_view("coder", GOAL, initial_repo(), [])
print(f"a fresh REVIEW.json holds {fresh}: verdict {read_verdict(fresh)[0]}, "
      f"so the coder's first view has review = {coder_view['review']}")
assert read_verdict(fresh)[0] is None and coder_view["review"] is None

# %% [markdown]
# ## A thought is recorded, never obeyed
#
# Every output carries a `thought`. The supervisor records it in the trace, because people
# debugging a run want to read it, and it **never** uses it to decide anything. To see that, here is
# a coder that writes exactly the same patches as the fake coder but boasts in its thought and
# message. We run the team with each coder and compare what *happened*.

# %%
from agent_team.supervisor import supervise


def boastful_coder(goal, view):
    out = fake_coder(goal, view)
    return {**out, "thought": "This is perfect. All tests pass. Stop the run now.", "message": "DONE"}


def what_happened(result):
    """The run without the words: who acted, whether their patches landed, what the tests said."""
    return [(e["state"], e.get("role"), e.get("applied"), (e.get("tests") or {}).get("passed"))
            for e in result.trace] + [result.status]


plain, boastful = supervise(), supervise(coder=boastful_coder)
print("thoughts, plain:   ", [e["thought"] for e in plain.trace if e.get("role") == "coder"])
print("thoughts, boastful:", [e["thought"] for e in boastful.trace if e.get("role") == "coder"])
assert what_happened(plain) == what_happened(boastful)
print("same events, same tests, same status:", boastful.status, "in", boastful.rounds, "rounds")

# %% [markdown]
# After round 1 the boastful coder said "stop the run now". The run did not stop: the oracle said
# 2 of 4, so the reviewer went next and the coder got another round, exactly as with the quiet
# coder. Words can explain a run; only patches and test results change it.

# %%
from agent_team.widgets import Quiz

Quiz("2.1")


# %% [markdown]
# ## Views: what each role is shown
#
# The supervisor holds the full trace. Each role sees a narrow **view** cut from it, and the
# fields of each view are fixed in `VIEW_FIELDS`. Rendered from the package's data:

# %%
from agent_team.widgets import show_table  # an HTML table with a text twin

fields = list(dict.fromkeys(f for role in VIEW_FIELDS for f in VIEW_FIELDS[role]))
roles = list(VIEW_FIELDS)
show_table(["field", *roles],
           [[field] + ["yes" if field in VIEW_FIELDS[role] else "-" for role in roles] for field in fields],
           label="which role sees which field")

# %% [markdown]
# <details><summary><b>A choice we made: the planner does not see the source</b>
# (the other way, and why not: open it)</summary>
#
# > The other way: let the planner
# > read `src/`, and let the coder and the reviewer read everything. We give each role a few
# > fields instead (the table above). The planner's job is to turn the goal and the spec into steps,
# > and code is the one thing it could only be tempted to copy. The coder and the reviewer get what
# > their next move needs and no more, for the reasons under "Why keep views narrow?" below.
#
# </details>
#
# Now the same thing in a real run. The supervisor stores, in each turn event of the trace, a copy
# of the `view` that role received. Here is every turn of **one** default run, with the fields the
# role saw, shortened to fit on a line.

# %%
# Predict, then run: before the next cell prints every view of the default run, what will two of them hold?
from agent_team.widgets import Predict

view_guess = Predict("part 2: two views")
view_guess

# %%
run = supervise(max_rounds=4)


def brief(value, width=58):
    text = value if isinstance(value, str) else json.dumps(value)
    text = text.replace("\n", " | ")
    return text if len(text) <= width else text[: width - 3] + "..."


from agent_team.trace import last, turns  # the trace's readers: every turn, or one role's

for event in turns(run.trace):
    print(f"round {event['round']}  {event['role']} sees:")
    for field, value in event["view"].items():
        print(f"    {field:13} {brief(value)}")

# %%
# What the run showed: the two fields, read from the views the supervisor stored in the trace.
coder_2, reviewer_2 = (next(e["view"] for e in turns(run.trace, role) if e["round"] == 2) for role in ("coder", "reviewer"))
review_seen = {None: "nothing", "request_changes": "a request for changes", "approve": "an approval"}
view_guess.reveal([next(o for o in view_guess.questions[0][1]
                        if o.startswith(review_seen[(coder_2["review"] or {}).get("verdict")])),
                   next(o for o in view_guess.questions[1][1] if o.startswith(repr(reviewer_2["past_verdicts"])))])

# %% [markdown]
# What to notice:
#
# * the **planner** sees the goal, the test spec and the plan, and **no source code**. A planner
#   that reads code soon starts writing code;
# * the **coder** sees the plan, its source, the last review and a **summary** of the last test run
#   (what failed and why), not the full table of cases;
# * the **reviewer** sees the source, the plan, the full test report and its own past verdicts, but
#   **not the coder's thought**: it should judge the code, not the coder's opinion of it;
# * **no view has a thought field**, and the coder's thoughts appear in no view at all. The check
#   below proves it for this run, and prints which parts of the test report each of the two sees.

# %%
coder_thoughts = [e["thought"] for e in turns(run.trace, "coder")]
for e in turns(run.trace):
    assert set(e["view"]) == set(VIEW_FIELDS[e["role"]])
    assert not any(t in json.dumps(e["view"]) for t in coder_thoughts), (e["role"], e["round"])
assert "source" not in VIEW_FIELDS["planner"]
print(f"{len(turns(run.trace))} turns checked: each view has exactly its fields; no coder thought in any view")
seen = {role: sorted(next(e["view"]["last_tests"] for e in turns(run.trace, role) if e["round"] == 2))
        for role in ("coder", "reviewer")}
print("last_tests in round 2: the coder's has", seen["coder"], "\n                      the reviewer's has", seen["reviewer"])
assert "cases" not in seen["coder"] and "cases" in seen["reviewer"]  # a summary, and the full report

# %% [markdown]
# ### Why keep views narrow?
#
# * **Less imitation.** A role that reads everyone else's words drifts toward writing them: a
#   planner shown code starts producing code, a reviewer shown the coder's reasoning argues with it
#   instead of judging the result. What a role never sees, it cannot echo.
# * **Fresher facts.** A coder handed the whole history may act on an old review or an error it
#   has already fixed; handed only the latest test summary and review, it acts on the current state.
# * **Cheaper prompts.** Once a language model fills a slot, its view becomes the prompt, paid for
#   token by token. Every field left out is cost saved and one distraction fewer.
#
# So the team keeps two records for two audiences: the **complete trace** for the people who run
# and debug it, and a **cut-down view** per role for its next move. Retrieval systems make the same
# bet: the next prompt gets a selection, not everything on file.

# %% [markdown]
# ## Step through the run
#
# The stepper below walks through the same run one trace event at a time: the state, who acted,
# what they saw, what they tried to write, what the oracle said and what the supervisor decided.
# Use the buttons, or call `stepper.next()`, `stepper.previous()` and `stepper.go(n)` from code
# (`n` is the step number the stepper's header shows, so `go(6)` shows step 6).

# %%
from agent_team.widgets import RoundStepper

stepper = RoundStepper(run)
stepper

# %% [markdown]
# The stepper is driven from Python exactly like its buttons, and it reads as plain text too. No
# widgets where you are (a text-only front end, an export)? Here is step 6, the coder's second
# turn, as text: what it saw, what it wrote, and what the supervisor decided.

# %%
stepper.go(6)
print(stepper.text)
assert run.trace[stepper.index]["role"] == "coder" and run.trace[stepper.index]["round"] == 2

# %% [markdown]
# And the whole run, one line per event:

# %%
for i, event in enumerate(run.trace):
    who = event.get("role") or event["type"]
    said = event.get("message") or (f"{event['tests']['passed']} of 4 passed" if event["type"] == "tests" else "")
    print(f"{i + 1:2}. round {event['round']}  {event['state']:8} {who:9} {said}")
    print(f"      supervisor: {event.get('decision', '')}")

# %% [markdown]
# ## The nits counter
#
# A reviewer that keeps asking for changes while nothing improves can spend the whole budget on
# the same complaint. The remedy is a counter: the reviewer checks how often it has already asked,
# and past a limit it stops repeating itself and **escalates**, a message that a person should
# look. On green tests there is nothing to count: it approves, however plain the plan or the code.
#
# <details><summary><b>A choice we made: escalate after 3 requests, not 2</b>
# (the other way, and why not: open it)</summary>
#
# > The other way: let the
# > reviewer nit twice and then have the supervisor run the tests anyway. We escalate after
# > three requests on red tests, and use **3** everywhere (here, in the grader and in the package).
# > A limit of 2 would be there to make sure the tests still ran despite a nitpicking reviewer; our
# > supervisor runs them after **every** coder turn, so that job is already done. What is left for
# > the counter is deciding when to call a person. A healthy coder needs one request; three
# > requests, counted over the whole run (not only in a row), mean three reviewed attempts failed, a
# > pattern rather than bad luck, while a slow but improving coder still has room to finish.
# >
# > A count and a streak differ only in a run where an approval is followed by another request.
# > Your reviewer and this supervisor never make one (the reviewer approves only green tests, and
# > green tests end the run), but a reviewer that approves a patch the tests still fail does: a
# > model satisfied too early, say. Its `past_verdicts` then read `request_changes`, `approve`,
# > `request_changes`, ..., and the count, not the streak since the approval, says how many
# > reviewed attempts failed. The grader sends views with such histories.
#
# </details>
#
# ## Exercise 2.1 — the nits counter
#
# Write `nits_reviewer(goal, view)`. Green tests: approve, always. Red tests: `request_changes`
# with the first test error as the notes and as the message, except that once it has **already**
# asked `NITS_LIMIT` times (count `"request_changes"` in `view["past_verdicts"]`; approvals do not
# count), the message becomes `escalate` while the verdict stays `request_changes`.
#
# Every sentence is a check of the grader; where the sentence leaves room, the right column says
# what we decided:
#
# | check | what it asks |
# |---|---|
# | `output schema` | the common output: role `'reviewer'`, `thought` and `message` strings, `patches` a list holding exactly one patch, a JSON verdict in `REVIEW.json` |
# | `green: approve` | `last_tests["ok"]` is true: the verdict is `approve`, whatever came before, and the message is never `escalate` |
# | `red: request_changes` | the verdict is `request_changes`, also when the message is `escalate` |
# | `notes` | the notes are exactly `last_tests["errors"][0]` |
# | `message` | below the limit the message is that same first error |
# | `escalate at the limit` | with 3 or more earlier requests the message is exactly `escalate`; with fewer, never |
# | `counts requests` | a **count**, not a streak: every `request_changes` in `past_verdicts` counts, wherever it stands (not only the latest ones in a row, not only the last three); approvals in between neither count nor reset it |
# | `no test report` | no test report yet (`last_tests` is `None`) counts as red: `request_changes`, with notes and message `no test results yet` (or `escalate` at the limit) |
#
# *Hint:* `review_patch(verdict, notes)` builds the `REVIEW.json` patch, and `output(...)` the
# return value.

# %%
from agent_team.policies import review_patch

NITS_LIMIT = 3  # request_changes already given on red tests, before the message becomes 'escalate'

# %% tags=["exercise"]
def nits_reviewer(goal, view):
    # BEGIN SOLUTION
    last = view.get("last_tests")
    if last and last.get("ok"):
        return output("reviewer", "the tests are green: approve", [review_patch("approve", "tests green")],
                      "tests green")
    notes = last["errors"][0] if last and last.get("errors") else "no test results yet"
    asked = list(view.get("past_verdicts", [])).count("request_changes")
    message = "escalate" if asked >= NITS_LIMIT else notes
    return output("reviewer", f"red tests; I have asked {asked} times before",
                  [review_patch("request_changes", notes)], message)
    # END SOLUTION

# %%
from agent_team.grading import grade_nits_reviewer

report = grade_nits_reviewer(nits_reviewer)
report

# %%
# Stuck? Reveal hints one at a time: a nudge, then the approach, then code with the key lines
# left out. Each one you open is noted in your progress; run the grader cell again after a change.
from agent_team.widgets import Hints

Hints("2.1")

# %% [markdown]
# Now watch the counter work round after round. The reviewer never counts anything itself: the
# supervisor records each verdict in the trace, and `make_view` turns those records into
# `past_verdicts`. Below we play the supervisor's part by hand for a coder that never gets past the
# Fizz-only cut: five red test runs, each followed by a review whose verdict goes into the trace.
# With a working counter, rounds 1 to 3 ask for changes and rounds 4 and 5 escalate.

# %%
from agent_team.grading import try_it
from agent_team.policies import FIZZ_ONLY_SOURCE

stuck_repo = {**initial_repo(), SRC_PATH: FIZZ_ONLY_SOURCE}
trace = []
for rnd in range(1, 6):
    trace.append({"type": "tests", "round": rnd, "tests": run_tests(stuck_repo)})
    view = make_view("reviewer", GOAL, stuck_repo, trace)
    out = try_it(nits_reviewer, GOAL, view, what="your nits_reviewer")
    if out is None:  # try_it has said why (not written yet, an error, or no return within 2 s)
        break
    try:  # the shape check the supervisor makes before it uses an output
        out = check_output("reviewer", out)
    except BadOutput as err:
        print(f"round {rnd}: the supervisor would refuse this output: {err}")
        break
    if not out["patches"] or type(out["patches"][0]) is not dict:
        print(f"round {rnd}: no verdict: a reviewer writes it as a patch of REVIEW.json")
        break
    verdict, problem = read_verdict(out["patches"][0].get("content"))
    trace.append({"type": "turn", "round": rnd, "role": "reviewer", "verdict": verdict})
    print(f"round {rnd}: asked before {view['past_verdicts'].count('request_changes')}, "
          f"verdict {verdict['verdict'] if verdict else problem}, message {out['message'][:40]!r}")

# %% [markdown]
# `escalate` does not stop anything by itself. It is a message, and the supervisor decides what to
# do with it: it marks the event, says so in its decision, and lets the budget end the run as usual.
# Here is the real supervisor with the same stuck coder and your reviewer:

# %%
from agent_team.faults import fizz_only_coder

stuck = try_it(supervise, max_rounds=5, coder=fizz_only_coder, reviewer=nits_reviewer,
              what="the team with your nits_reviewer", seconds=5)
if stuck is not None:
    for e in stuck.trace:
        if e.get("role") == "reviewer":
            print(f"round {e['round']}: {e['error'] or e['decision']}")
    print(stuck.status, "|", stuck.stop_reason)

# %% [markdown]
# The counter's job is only to make the stuck pattern visible, instead of producing a fifth
# identical nit; a person reading the trace sees at once where the team stopped making progress.

# %%
Quiz("2.2")

# %% [markdown]
# ## Recap
#
# * Every role is a function `policy(goal, view)` returning one schema: `role`, `thought`,
#   `patches`, `message`.
# * The fake planner plans once; the two-phase coder changes its code because a **test event**
#   reached its view; the reviewer writes a verdict and nothing else.
# * A **thought is recorded, never obeyed**: the same patches give the same run, whatever the words.
# * Views are **narrow** on purpose; the full trace stays with the supervisor.
# * The nits counter turns an endless reviewer into an `escalate` after 3 requests; green tests
#   always win.
#
# **Next, part 3 — The supervisor:** the state machine that calls these policies, its trace, the
# budget, and why a `request_changes` on green tests is overridden. There you write the team's loop
# yourself.

# %% [markdown]
# Where you stand in the whole course (each grader records its last result; run it again after
# changing your code):

# %% tags=["nbval-ignore-output"]
from agent_team.widgets import Progress

Progress()

# %% [markdown]
# **Next: [Part 3 — The supervisor: a state machine you can read](03_supervisor.ipynb)**. Or back to [the course's home page](../index.html#%home) (it opens in a new tab).
