# %% [markdown]
# # Part 5 — From fakes to a real team
#
# Parts 1 to 4 ran the team on scripted fakes, so that the orchestration around them was the hard
# part. This part shows how the same design carries into a real tool: the roles exchange typed
# **contracts**, every change of speaker leaves a **handoff**, a deterministic **reviewer gate**
# decides whether the work adds up to success, a blocked gate makes a read-only **retry
# proposal**, and any role slot can be filled by a **language model** through one small adapter.
# Part 6 builds on it: its exercise 6.2 reads a whole run as steps and puts them through this
# part's gate.
#
# **By the end of this part you can**
#
# - write a plan, its executor contracts and a review as typed records that round-trip through JSON;
# - read a run as handoffs (planner → coder → reviewer) derived from its trace;
# - explain why skipped or cancelled work must never end as success, and apply the gate that
#   enforces it — and write that gate yourself (**exercise 5.1**, graded);
# - configure each role from a small TOML file, and put a model behind a role with retries that
#   are bounded and recorded;
# - say what must never happen with code a model wrote.
#
# About {{minutes}} minutes for a careful first pass. Nothing here needs a network or a model account.
#
# Each numbered section below brings one of these ideas and the words that go with it. The
# whole list, for looking a word up later:
#
# <details><summary>The words of this part (ten, one table)</summary>
#
# | word | meaning here |
# |---|---|
# | contract | a typed record one role hands another: a plan, an executor contract, a review report |
# | plan step | one step of a plan: an id, a title, a risk and suggested checks |
# | risk | what a step may do to the world: `read`, `write` (files) or `execute` (runs code) |
# | handoff | what a role tells the next when the floor passes on: summary, status, next action |
# | step outcome | how one step ended: `success`, `failed`, `skipped` or `cancelled` |
# | reviewer gate | a fixed rule over step outcomes that decides whether a run may count as success |
# | retry proposal | the gate's read-only suggestion when it blocks: `retry_step`, `user_decision` or `resume_plan` |
# | role configuration | a role's name, system prompt and model (or policy), from a TOML or JSON file |
# | LLM slot | the adapter that turns a `prompt -> str` function into a role policy |
# | attempt | one call to the model: the prompt, the reply and what was wrong with it |
#
# </details>

# %%
import json

from agent_team.repo import GOAL
from agent_team.supervisor import supervise
from agent_team.widgets import show_table  # an HTML table with a text twin


print("The team's goal:", GOAL)

# %% [markdown]
# ## 1. Contracts: what the roles hand each other
#
# So far a plan was three bullets of free text in `PLAN.md`. A real tool wants more: which step
# comes first, what each step may touch, and how to check it afterwards. A `Plan` is a summary and
# ordered `PlanStep`s, each with an id, a title, a risk and suggested checks.

# %%
from agent_team.realteam.contracts import Plan, PlanStep

plan = Plan("Make fizzbuzz pass its tests", [
    PlanStep("S1", "Write PLAN.md from the test spec", "write", ["PLAN.md is not empty"]),
    PlanStep("S2", "Write fizzbuzz in src/fizzbuzz.py", "write", ["the oracle reports 4 of 4"]),
    PlanStep("S3", "Run the tests", "execute"),
    PlanStep("S4", "Leave a verdict in REVIEW.json", "write"),
])
print(plan.to_markdown())

# %% [markdown]
# Every contract turns into a plain dict of JSON types and comes back **exactly** — the property
# that lets a plan be saved, shown, sent to a model and read back without drifting:

# %%
data = plan.to_dict()
print(json.dumps(data["steps"][0], indent=1))
assert Plan.from_dict(json.loads(json.dumps(data))) == plan

# %% [markdown]
# Reading is strict. A record with a missing, unknown or mistyped field is refused where it is
# read, and the error names the field by its path — not three roles later, where it is used:

# %%
bad = json.loads(json.dumps(data))
bad["steps"][2]["risk"] = "run"
try:
    Plan.from_dict(bad)
except ValueError as err:
    print(err)

# %% [markdown]
# The coder does not get the whole plan. For each step it gets an `ExecutorContract`: the goal,
# that one step, its risk, and instructions that say to stop after it. A narrow contract is the
# same idea as part 2's narrow views: a role that sees only its step does only its step.
#
# (Many agent tools call the role that carries out a step the *executor*. In
# our team that role is the coder, and we keep the one word, *coder*, everywhere except in the
# contract's class name; section 5 shows the configuration pointing `executor` to `coder`.)

# %%
contract = plan.contracts(GOAL)[1]
print(contract.step_id, contract.risk)
print(contract.instructions)

# %% [markdown]
# ## 2. Handoffs: a run, told by its roles
#
# Each time the floor passes from one role to another, the role that spoke hands off: what it
# did, whether its turn landed, and who acts next on what. The handoffs are **derived from the
# trace**, not stored next to it: the trace stays the one source of truth, so a handoff can never
# disagree with what happened.

# %%
from agent_team.realteam.handoffs import handoffs_from_trace

run = supervise()
handoffs = handoffs_from_trace(run.trace)
show_table(["role", "round", "status", "summary", "next action"],
           [[h.role, h.round, h.status, h.summary, h.next_action] for h in handoffs], "handoffs")
assert [h.role for h in handoffs] == ["planner", "coder", "reviewer", "coder", "reviewer"]

# %% [markdown]
# In the round stepper, each role's handoff shows on its last turn, under **More recorded
# fields**. `trace_with_handoffs` makes a copy of the trace for display; the trace itself is
# not changed.

# %%
from agent_team.realteam.handoffs import trace_with_handoffs
from agent_team.widgets import RoundStepper

stepper = RoundStepper(trace_with_handoffs(run))
stepper

# %%
stepper.go(5)
print(stepper.text.splitlines()[0])
print(trace_with_handoffs(run)[stepper.index]["handoff"]["next_action"])

# %% [markdown]
# ## 3. The reviewer gate
#
# Here is the failure the gate exists for. A planned run executes its steps; one of them is
# skipped (say, a person did not approve it), and since no step raised an error, the execution
# reports success:

# %%
outcomes = [
    {"step": "S1", "status": "success", "risk": "write"},
    {"step": "S2", "status": "skipped", "risk": "write"},
    {"step": "S3", "status": "success", "risk": "execute"},
]
execution_status = "success"  # no step raised, so execution thinks it is done

# %% [markdown]
# Step S2's work was never done, yet the run says success. The **reviewer gate** is a fixed rule
# over the step outcomes — no model, nothing random, so it can be tested over every case and
# trusted as a rule:
#
# - a step that succeeded passes; a step that **failed, was skipped or was cancelled blocks**;
# - risk never blocks by itself: a step that writes files or runs code adds a **risk note** and
#   **suggested checks**, so the person accepting the run knows what to look at;
# - when a run execution marked successful is blocked by the gate, its final status becomes
#   `failed`, and the reason is kept.
#
# <details><summary><b>A choice we made: a gate that can block, beside a reviewer that cannot</b>
# (the other way, and why not: open it)</summary>
#
# > The other way: one
# > reviewer that both advises and blocks. In part 3 the
# > supervisor overrode the reviewer's `request_changes` on green tests; now a "reviewer gate" can
# > turn a success into a failure (and part 3's exercise has a third kind: a reviewer whose
# > approval the tester waits for). The two do not contradict each other, because they judge
# > different things. The reviewer *role* gives an **opinion** on
# > the code, and an opinion never outranks the tests. The gate checks **facts** about the work:
# > was every planned step actually done? It can only take success away from a run whose work is
# > incomplete; it never grants success and never overrides a test. Our fizzbuzz team has a single
# > step that matters, and the oracle already checks it, so `supervise` does not call the gate; it
# > earns its place in longer plans, where steps can be skipped or cancelled.
#
# </details>

# %%
from agent_team.realteam.gate import review_gate, review_run

report = review_run(execution_status, outcomes)
print("final status:", report.status)
print("reason:      ", report.reason)
print("risk notes:  ", report.decision.risk_notes)
assert report.status == "failed" and not report.decision.passed

# %% [markdown]
# The gate only takes success away; it never grants it. A run that already failed stays failed,
# and an empty list of outcomes **blocks**: it is what a run that crashed before its first step
# looks like, and "nothing happened" is not success.

# %%
print(review_run("failed", [{"step": "S1", "status": "success"}]).status)
print(review_gate([]).reasons[0])

# %% [markdown]
# The gate over one step of each status, built from the real function:

# %%
rows = []
for status in ("success", "failed", "skipped", "cancelled"):
    decision = review_gate([{"step": "S1", "status": status}])
    proposal = decision.proposal
    rows.append([status, decision.passed, proposal.action if proposal else "-",
                 proposal.text if proposal else "-"])
show_table(["status", "passed", "proposal", "text"], rows, "the gate, one step")

# %% tags=["quiz"]
from agent_team.widgets import Quiz

Quiz("5.1")

# %% [markdown]
# ## 4. Retry proposals
#
# When the gate blocks, it proposes one next step — as data and text. **Nothing retries
# automatically**: the person reads the proposal and decides.
#
# | blocked by | proposal | why |
# |---|---|---|
# | a failed step | `retry_step` on it | the failure is known; retrying after a look at it is concrete |
# | a cancelled step | `resume_plan` from it | the rest of the plan never ran |
# | a skipped step | `user_decision`, with an optional retry | a skip was a person's choice; ask them again |
#
# When several kinds occur, one proposal is chosen, in the order of the table: **failed, then
# cancelled, then skipped**, on the first step of that kind. A failure first, because later steps usually build on
# it; resuming or asking about them before it is fixed would run into it again. A skip last,
# because it needs a person, and we ask them only when nothing can be done without them. The
# reasons still list every blocked step.

# %%
from agent_team.realteam.gate import PRECEDENCE

mixed = [
    {"step": "S1", "status": "skipped"},
    {"step": "S2", "status": "cancelled"},
    {"step": "S3", "status": "failed", "detail": "fizzbuzz(5) returned '5'"},
]
decision = review_gate(mixed)
print("order:", PRECEDENCE)
print("reasons:", *decision.reasons, sep="\n  ")
print("proposal:", decision.proposal.action, decision.proposal.step)
print(decision.proposal.text)
assert decision.proposal.step == "S3"

# %% [markdown]
# ## A planned run, from plan to retry
#
# The gate above judged outcomes typed in by hand. Here a run produces them.
# `execute_plan(plan, goal, do_step, approve)` carries out a plan one step at a time: the coder
# (the *executor* of many agent tools) gets one `ExecutorContract` per step. A step that only reads
# runs at once; a step that writes files or runs code first asks `approve(contract)`, a person's
# yes or no. Every change of hands leaves a handoff, as in section 2.
#
# It starts with the planner's handoff. Next to its summary and next action it carries a **risk
# summary**: which steps will write files or run code, so that whoever approves them knows before
# anything runs.

# %%
from agent_team.realteam.execution import PlanRun, execute_plan, plan_handoff

planned = plan_handoff(plan)
print("summary:     ", planned.summary)
print("risk summary:", planned.risk_summary)
print("next action: ", planned.next_action)
assert planned.risk_summary == "S1 writes files; S2 writes files; S3 runs code; S4 writes files"

# %% [markdown]
# Now run the plan. `do_step` stands in for the coder doing the work (it returns what it did;
# raising would fail the step), and the person asked for approval says no to S2. The executor
# hands off when execution starts, after every step (the skipped one says why) and at the end.

# %%
def do_step(contract):
    return f"done: {contract.title}"


def approve(contract):
    answer = contract.step_id != "S2"
    print(f"approve {contract.step_id} ({contract.risk})?", "yes" if answer else "no")
    return answer


executed = execute_plan(plan, GOAL, do_step, approve)
show_table(["status", "summary", "next action", "risk summary"],
           [[h.status, h.summary, h.next_action, h.risk_summary] for h in executed.handoffs],
           "the executor's handoffs")
print("execution says:", executed.execution_status)

# %% [markdown]
# Execution says `success`, because no step raised: the failure of section 3, this time produced
# by a real run. `reviewed()` applies the gate, keeps its report and adds the reviewer's handoff.
# The run is now `failed`, and the retry proposal carries two more fields: the **suggested
# command** that would carry it out, and **requires approval**, which is true whenever there is a
# command to run.

# %%
final = executed.reviewed()
proposal = final.review.decision.proposal
print("final status:      ", final.status)
print("recommended action:", proposal.action, "on", proposal.step)
print("suggested command: ", proposal.command)
print("requires approval: ", "yes" if proposal.requires_approval else "no")
print("reviewer hands off:", final.handoffs[-1].next_action)
assert (executed.execution_status, final.status) == ("success", "failed") and proposal.requires_approval

# %% [markdown]
# Nothing has run: the command is text for a person to read. The whole story is saved as **one
# record**, the plan with its outcomes, the executor's and the reviewer's handoffs and the review,
# so the saved run answers three questions on its own: what was planned (with its risks), what the
# executor completed or skipped, and what the reviewer recommends. Like every contract it survives
# a trip through JSON unchanged:

# %%
saved_run = json.dumps(final.to_dict())
restored = PlanRun.from_dict(json.loads(saved_run))
assert restored == final
print(f"{len(saved_run):,} characters of JSON; handoffs by", [h.role for h in restored.handoffs])

# %% [markdown]
# The person agrees, and runs the suggested command, saying yes this time. Only S2 runs, and the
# gate passes it. The retry is a run of its own, judged on its own outcomes: the first run's record
# stays `failed`, because that is what happened in it. Between the two runs every step is now done,
# but no gate has judged the pair; whether that is enough to accept the plan is the person's call,
# with both records in front of them.

# %%
assert proposal.command == "execute_plan(plan, goal, do_step, approve, steps=['S2'])"
retried = execute_plan(plan, GOAL, do_step, lambda contract: True, steps=["S2"]).reviewed()
print([(o.step, o.status) for o in retried.outcomes], "->", retried.status)
assert retried.status == "success"

# %% [markdown]
# ## Exercise 5.1 — the reviewer gate
#
# Write `gate(outcomes)`. `outcomes` is a list of dicts in plan order, possibly empty, possibly long;
# each has `"step"` (the step's id: a str or an int, unique in the list, and not necessarily
# `"S1"`, `"S2"`, … in order), `"status"` (`"success"`, `"failed"`, `"skipped"` or `"cancelled"`)
# and `"risk"` (`"read"`, `"write"` or `"execute"`). Return `{"passed": ..., "action": ..., "step": ...}`.
# Every sentence below is a rule, and the grader checks each one, in this order; the first failing
# line of its report names the rule broken.
#
# | the exercise says | check |
# |---|---|
# | return a dict with `"passed"` (a bool), `"action"` (`None` or one of the three actions) and `"step"` (`None` or a step id); other keys are ignored | shape |
# | when every step succeeded, `passed` is `True` and `action` and `step` are `None` | success passes |
# | otherwise `passed` is `False`: a failed step gets `"retry_step"` on it | failed |
# | a cancelled step gets `"resume_plan"` from it | cancelled |
# | a skipped step gets `"user_decision"` on it | skipped |
# | an empty list blocks, with `"user_decision"` and step `None` | empty list |
# | risk never changes the answer | risk does not block |
# | when several kinds occur: failed, then cancelled, then skipped | precedence |
# | the step is the first of that kind **in list order**, whatever its id (not the smallest id, not the first after sorting) | first in list order |
# | `step` is that outcome's `"step"` exactly as given: same value, same type | ids as given |
# | every outcome counts, however long the list | every outcome counts |

# %% tags=["exercise"]
ACTIONS = {"failed": "retry_step", "cancelled": "resume_plan", "skipped": "user_decision"}


def gate(outcomes):
    # BEGIN SOLUTION
    if not outcomes:
        return {"passed": False, "action": "user_decision", "step": None}
    for kind in ("failed", "cancelled", "skipped"):
        for outcome in outcomes:
            if outcome["status"] == kind:
                return {"passed": False, "action": ACTIONS[kind], "step": outcome["step"]}
    return {"passed": True, "action": None, "step": None}
    # END SOLUTION

# %%
from agent_team.grading import grade_gate

report = grade_gate(gate)
report

# %%
# Stuck? Reveal hints one at a time: a nudge, then the approach, then code with the key lines
# left out. Each one you open is noted in your progress; run the grader cell again after a change.
from agent_team.widgets import Hints

Hints("5.1")

# %% [markdown]
# ## 5. Configuring the roles
#
# Each role slot takes a configuration: a display name, a system prompt, and a model name (or,
# from Python, a policy function). A small TOML file describes the team, and every role it leaves
# out gets the defaults: the course's fake and the default system prompt. The file holds **names
# only** — never functions, never keys.

# %%
from agent_team.realteam.config import load_config

TEAM_TOML = """
model = "fake"                 # every role without a model of its own

[agents.coder]
name = "Ada"
model = "scripted"
system_prompt = "You are the coder. Write src/fizzbuzz.py only. Reply with JSON only."
"""

team = load_config(TEAM_TOML)
show_table(["role", "name", "model", "system prompt"],
           [[role, team[role].name, team[role].model, team[role].system_prompt[:60]]
            for role in ("planner", "coder", "reviewer")], "team configuration")

# %% [markdown]
# A mistake in the file is refused with the field it concerns and what to write instead. People
# coming from other tools often name a role we do not have, or say `prompt` for the system prompt:

# %%
for mistake in ('[agents.tester]\nmodel = "scripted"', '[agents.coder]\nprompt = "Be brief."',
                "[agents.coder]\nmodel = 3"):
    try:
        load_config(mistake)
    except ValueError as err:
        print(err)

# %% [markdown]
# <details><summary><b>A choice we made: <code>[agents.executor]</code> is read as the coder</b>
# (the other way, and why not: open it)</summary>
#
# > A configuration written for
# > another tool may name its roles `[agents.planner]`, `[agents.executor]` and `[agents.reviewer]`.
# > The other way: refuse `executor`, to keep one word per role. We accept it instead, as a second
# > name for the coder's table, so that a configuration written that way loads as it is; and
# > we keep our one word everywhere else: the slot is still `team["coder"]`, and a configuration
# > written back out (`to_dict`) says `coder`. Two names for one slot could disagree with each
# > other, so a file that sets both `[agents.executor]` and `[agents.coder]` is refused.
#
# </details>

# %%
NOTES_TOML = """
[agents.executor]
model = "fake"
system_prompt = "Carry out the one approved step, then stop and report."
"""
from_notes = load_config(NOTES_TOML)
print("the coder slot:  ", from_notes["coder"].model, "|", from_notes["coder"].system_prompt)
print("written back as: ", sorted(from_notes.to_dict()["agents"]))
try:
    load_config(NOTES_TOML + '[agents.coder]\nname = "Ada"\n')
except ValueError as err:
    print(err)
assert from_notes["coder"].system_prompt.startswith("Carry out")

# %% [markdown]
# ## 6. The LLM slot
#
# A fake policy and a model-backed one fill the same slot with the same output schema. Only the
# inside differs: `llm_policy(role, model)` builds the role's prompt from its **narrow view** and
# its system prompt, calls `model(prompt) -> str`, parses the reply (a ```` ```json ```` fence is
# fine), checks it against the schema, and on a bad reply asks again with the problem spelled out
# — at most `retries` more times. A model that raises or hangs is a failed attempt, never a crash.
#
# No network here: a `ScriptedModel` answers from a list. This one answers badly twice — prose,
# then a patch in the wrong shape — and well the third time.

# %%
from agent_team.realteam.llm import ScriptedModel, llm_policy
from agent_team.policies import FULL_SOURCE

good_reply = "```json\n" + json.dumps({
    "role": "coder", "thought": "handle 15 first", "message": "wrote fizzbuzz",
    "patches": [{"path": "src/fizzbuzz.py", "content": FULL_SOURCE}]}) + "\n```"
model = ScriptedModel([
    "Sure! I would write fizzbuzz with the modulo operator.",
    json.dumps({"role": "coder", "patches": "src/fizzbuzz.py"}),
    good_reply,
])
policies = team.policies(models={"scripted": model})
coder = policies["coder"]
run = supervise(**policies)
print(run.status, "in", run.rounds, "round(s)")
assert run.status == "pass" and run.rounds == 1

# %% [markdown]
# Every attempt is recorded: the prompt, the reply, and what was wrong with it. The error of a bad
# reply is fed back into the next prompt, so the model is told what to fix.

# %%
attempts = coder.history[0]
show_table(["attempt", "reply (start)", "what was wrong"],
           [[a["attempt"], a["reply"][:50].replace("\n", " "), a["error"] or "nothing: used"]
            for a in attempts], "attempts")
print(model.prompts[1].split("\n\n")[-1])

# %% [markdown]
# The prompt itself is built from the coder's view only — the goal, the plan, the source, the
# last tests and the last review; no test spec, no other role's thoughts — with a role tag, so
# that roles sharing a model do not start imitating each other:

# %%
print(model.prompts[0][:700])

# %% [markdown]
# That was the start of one prompt. Here is, in full, what the coder would be sent in round 2 of
# a default run, with the default system prompt: the system prompt, the role tag, the files it may
# write, its view, and the reply format. Read it as a model would; it is all the coder gets to
# know. The planner's and the reviewer's prompts have the same parts, cut from their own views.

# %%
from agent_team.realteam.llm import build_prompt
from agent_team.roles import PROMPTS
from agent_team.trace import turns

default_run = supervise()
turn_of = {(e["role"], e["round"]): e for e in turns(default_run.trace)}
for role, rnd in (("coder", 2), ("planner", 0), ("reviewer", 1)):
    view = turn_of[role, rnd]["view"]
    prompt = build_prompt(role, GOAL, view)
    assert prompt.startswith(PROMPTS[role]) and f"Role: {role}" in prompt
    if role == "coder":
        print(f"======== the coder's prompt in round {rnd} ({len(prompt):,} characters) ========")
        print(prompt, end="\n\n")
    else:
        print(f"the {role}'s prompt in round {rnd}: {len(prompt):,} characters, its view: {', '.join(view)}")

# %% [markdown]
# When every attempt fails, the role does nothing this turn and says why, and the team goes on:
# the oracle still runs, the budget still counts.

# %%
mute = llm_policy("coder", ScriptedModel([TimeoutError("the service is busy")]), retries=1)
run = supervise(coder=mute, max_rounds=2)
print(run.status, "-", run.stop_reason)
print(turns(run.trace, "coder")[0]["message"])
assert run.status == "budget"

# %% [markdown]
# ### A model beside the gate: the advisory reviewer
#
# The gate is deterministic and should stay that way. A model can still help the person who
# decides, as long as it only **advises**. `advise(report, model)` shows the model the gate's own
# summary of a run and asks for a recommendation: `accept`, `retry_step`, `resume_plan`,
# `user_decision` or `inspect` (look closer before deciding), with risk notes and tests to run.
# The advice is kept beside the gate's report. It never changes the report's status, runs
# nothing and retries nothing; a model that fails gives advice with an error and no action.
#
# Here is the prompt for the planned run above, the one the gate blocked, and one answer:

# %%
from agent_team.realteam.advice import advice_prompt, advise

print(advice_prompt(final.review))
adviser = ScriptedModel([json.dumps({"action": "inspect", "notes": "S2 never ran; find out why it was denied",
                                     "suggested_tests": ["run the oracle once S2 is done"]})])
advice = advise(final.review, adviser)
print("\nthe model advises:", advice.action, "-", advice.notes)
print("the run's status: ", final.review.status, "(the gate's, unchanged)")
assert advice.action == "inspect" and final.review.status == "failed"

# %% [markdown]
# ### The eval: the gate against a model
#
# Is the advice any good? Measure before you trust: put the same cases through the gate and
# through the model, and look at where they part ways. `compare_reviewers(cases, model)` does
# that. The model here is a stand-in with a shortcut of its own, the kind a hurried reader takes:
# it asks for a retry when a step failed and accepts everything else.

# %%
from agent_team.realteam.advice import agreement, compare_reviewers


def hurried_model(prompt):
    gate_line = next(line for line in prompt.splitlines() if line.startswith("Gate:"))
    return json.dumps({"action": "retry_step" if " failed" in gate_line else "accept", "notes": "a quick look"})


CASES = [
    ("every step done", "success", [{"step": "S1", "status": "success", "risk": "write"}]),
    ("S2 skipped", "success", [{"step": "S1", "status": "success"}, {"step": "S2", "status": "skipped"}]),
    ("S2 failed", "failed", [{"step": "S1", "status": "success"}, {"step": "S2", "status": "failed"}]),
    ("cancelled at S1", "cancelled", [{"step": "S1", "status": "cancelled"}]),
]
rows = compare_reviewers(CASES, hurried_model)
show_table(["case", "gate", "model", "agree", "final status"],
           [[r["case"], r["gate"], r["model"], r["agree"], r["status"]] for r in rows], "gate against model")
print(f"agreement: {agreement(rows):.0%}")
assert [r["agree"] for r in rows] == [True, False, True, False]

# %% [markdown]
# The model agrees on the easy cases, and would accept a skipped step and a cancelled plan: the
# very outcomes the gate exists to stop. Because the gate decides and the model only advises, a
# wrong recommendation costs a person a second look, never a wrong status. An eval like this, run
# over many more cases, is how you would decide whether a model has earned a bigger say: on
# evidence, not on how convincing its notes sound.

# %% [markdown]
# ### Plugging in a real model: part 7
#
# Any `prompt -> str` function fills the slot, and `agent_team.realteam.models` makes one for a real
# model (`openai_chat` for OpenAI-compatible servers, `anthropic_messages` for Anthropic), with the
# key asked for at run time and never stored. **Part 7** puts one in your team: connect a model of
# your own, or replay the recorded runs of a real one with no key and no network.
#
# Two rules carry over from here unchanged:
#
# - **Never `exec` model-written code outside a real sandbox.** A browser tab is not one: code in
#   the page can read what the page can read, your key included. Part 7 runs it in an isolated
#   runner that never holds the key.
# - **The oracle stays the only success signal.** A model writing "tests pass" has written a
#   message, nothing more. Its patches go through the same allowlist as any fake's, and only the
#   oracle's report decides success; a gate can take success away but never grant it.

# %% tags=["quiz"]
Quiz("5.2")


# %% [markdown]
# ## Recap
#
# - Roles exchange **typed contracts** (plan, executor contract, review report, handoff) that
#   round-trip through JSON exactly and are refused, by field, when they are wrong.
# - **Handoffs** are derived from the trace, so the trace stays the one source of truth.
# - The **reviewer gate** is a fixed rule about facts: failed, skipped or cancelled work blocks
#   success; risk adds notes, never blocks; a blocked gate **proposes** a next step and retries
#   nothing. Unlike a reviewer's opinion, it may take success away, but it never grants it.
# - A **model** fills a role through one adapter with bounded, recorded retries; its code is data,
#   never `exec`'d outside a real sandbox, and the **oracle** still decides.
#
# The team you built is small, but every rule in it — taking turns, allowlists, an oracle, a
# budget, a gate — is one a real multi-agent tool needs.
#
# **Next, part 6 — Your own team:** a fault of your own with the evidence that it was caught, and
# a whole run read as four steps and judged by this part's gate.

# %% [markdown]
# **The whole course on one page.** [The recap sheet](../recap.html#%recap) holds the state machine,
# every rule and every word of parts 1 to 5 on a single page to print or keep open beside your own
# code (it opens in a new tab; `recap.md`, in the top folder of the file browser, is the same
# text). Part 6 follows, where you extend the team yourself, then part 7, where a real model takes
# a role, and an appendix that puts the same ideas beside the frameworks you are likely to meet.

# %% [markdown]
# Where you stand in the whole course (each grader records its last result; run it again after
# changing your code):

# %% tags=["nbval-ignore-output"]
from agent_team.widgets import Progress

Progress()

# %% [markdown]
# **Next: [Part 6 — Your own team](06_your_team.ipynb)**. Or back to [the course's home page](../index.html#%home) (it opens in a new tab).
