# %% [markdown]
# # Appendix — The same ideas in real frameworks
#
# You built a team from scratch: a shared repo, narrow roles, an oracle, and a supervisor that
# decides who speaks, what lands and when to stop. The multi-agent frameworks you are likely to
# meet next (AutoGen, LangGraph, CrewAI, MetaGPT and ChatDev) package many of the same ideas
# under other names. This page puts each idea of the course beside the place it lives in each
# framework, and says what each one leaves to you that our supervisor does itself.
#
# **How this page was made.** No framework is installed or imported here. Every statement about a
# framework comes from that framework's own documentation, rewritten in the course's words, and
# the pages are linked next to it so you can check them. Frameworks change quickly: read the
# statements as "what the linked page described", and look at the current page before relying on
# one.
#
# About 20 minutes of reading, with a few cells to run at the end. The seven ideas we follow:
#
# | idea | in this course |
# |---|---|
# | **turn-taking** | who speaks next: a fixed state machine in `supervise` |
# | **state** | what the team shares: the repo, plus the supervisor's trace |
# | **termination** | when a run ends: green oracle (`pass`) or spent budget (`budget`), nothing else |
# | **handoffs** | what a role passes on: derived from the trace (`handoffs_from_trace`) |
# | **permissions** | what a role may change: its allowlist, checked on every patch |
# | **human approval** | where a person decides: approvals of risky steps, retry proposals, `escalate` |
# | **replay** | reproducing a run: same inputs, same trace, event for event |

# %%
from agent_team.widgets import show_table

IDEAS = ["turn-taking", "state", "termination", "handoffs", "permissions", "human approval", "replay"]
print(len(IDEAS), "ideas:", ", ".join(IDEAS))

# %% [markdown]
# ## AutoGen (AgentChat)
#
# * **Turn-taking.** A *team* runs the agents. `RoundRobinGroupChat` lets them speak in a fixed
#   order; in a `SelectorGroupChat` a language model reads the conversation and picks the next
#   speaker, unless you pass a selector function of your own
#   ([Selector Group Chat](https://microsoft.github.io/autogen/stable/user-guide/agentchat-user-guide/selector-group-chat.html)).
# * **State.** The members broadcast their messages to each other: the shared state is the
#   conversation. Agents and teams can save their state and load it back
#   ([Managing State](https://microsoft.github.io/autogen/stable/user-guide/agentchat-user-guide/tutorial/state.html)).
# * **Termination.** A team checks a *termination condition* after each agent's response:
#   for example a maximum number of messages, or a given text such as `TERMINATE` appearing in a
#   message; conditions combine with AND and OR, and the team, not the agents, enforces them
#   ([Termination](https://microsoft.github.io/autogen/stable/user-guide/agentchat-user-guide/tutorial/termination.html)).
#   The reference page of `AssistantAgent` shows a default system message that asks the model to
#   reply `TERMINATE` once the task is complete
#   ([agents reference](https://microsoft.github.io/autogen/dev/reference/python/autogen_agentchat/autogen_agentchat.agents.html)).
# * **Handoffs.** An agent can hand the conversation to another by a special tool call (the
#   *handoff* pattern, `HandoffMessage`), which a `Swarm` team follows
#   ([Handoffs](https://microsoft.github.io/autogen/stable/user-guide/core-user-guide/design-patterns/handoffs.html)).
# * **Permissions.** Each agent is given its own list of tools (the `tools` argument of
#   `AssistantAgent`, same reference page).
# * **Human approval.** A `UserProxyAgent` in the team asks a person for input during a run, or
#   the person answers between runs
#   ([Human-in-the-Loop](https://microsoft.github.io/autogen/stable/user-guide/agentchat-user-guide/tutorial/human-in-the-loop.html)).
# * **Replay.** Saved state lets a team carry on where it stopped (Managing State, above).
#
# **What it leaves to you.** The built-in stop rules look at *messages*: a count, or a word some
# agent wrote. Ending on evidence, such as a test run no agent can edit, is a termination
# condition you write yourself. Choosing the next speaker by model is one option among several,
# and the course's rule (route in code) corresponds to the round-robin team or your own selector
# function. Which files a tool may write is up to the tools you hand out.

# %% [markdown]
# ## LangGraph
#
# * **Turn-taking.** The team is a graph: nodes do work, and edges, fixed or *conditional*
#   (a routing function over the state), decide what runs next
#   ([loops and recursion limit](https://langchain-ai.github.io/langgraph/how-tos/recursion-limit)).
# * **State.** One shared state, described by a schema, which every node reads and updates. With a
#   *checkpointer* a snapshot of it is saved at every step, in a *thread*
#   ([Persistence](https://langchain-ai.github.io/langgraph/concepts/persistence)).
# * **Termination.** A conditional edge routes to `END` when your condition holds; a recursion
#   limit on the number of steps stops a loop that does not end, by raising an error
#   (recursion limit page, above).
# * **Handoffs.** A node can return a `Command` that names the next node and carries an update to
#   the state: the destination and the payload of a handoff
#   ([agent handoffs](https://langchain-ai.github.io/langgraph/how-tos/agent-handoffs)).
# * **Permissions.** Each agent node uses the tools you give it (the handoff page wraps a handoff
#   itself in a tool).
# * **Human approval.** `interrupt()` pauses the graph where it is called, the state is kept by
#   the checkpointer, and the run resumes with the person's answer, for approving or editing an
#   action ([human-in-the-loop](https://docs.langchain.com/oss/python/add-human-in-the-loop)).
# * **Replay.** Saved checkpoints let you go back to a past step and replay it or branch off from
#   it ("time travel", Persistence page).
#
# **What it leaves to you.** Of the five, LangGraph is closest to this course: routing is your
# code. But the graph has no idea what "done" means; a route to `END` on a passing test run, and
# a test that no node can rewrite, are yours to build. Its recursion limit counts steps of any
# kind and ends in an exception, where our budget counts coder turns and ends in a status with a
# reason.

# %% [markdown]
# ## CrewAI
#
# * **Turn-taking.** A *crew* runs its tasks by a *process*: `sequential` (in the order of the
#   task list) or `hierarchical`, where a manager, a language model or an agent you supply,
#   assigns tasks to agents and checks their results
#   ([Processes](https://docs.crewai.com/en/concepts/processes),
#   [hierarchical process](https://docs.crewai.com/how-to/hierarchical-process)).
# * **State.** In the sequential process the output of one task becomes context for the next
#   (Processes page).
# * **Termination.** The crew is done when its tasks are; per agent, `max_iter` (25 by default)
#   caps the iterations on one task, and a maximum execution time can be set
#   ([customizing agents](https://docs.crewai.com/en/learn/customizing-agents)).
# * **Handoffs.** Task outputs passed on as context; an agent with `allow_delegation` may hand
#   work to another agent (customizing agents page).
# * **Permissions.** Tools are given per agent, and a task can list the tools it needs
#   ([Tasks](https://docs.crewai.com/en/concepts/tasks)).
# * **Human approval.** A task can ask a person to review the agent's final answer
#   (`human_input`), and a task *guardrail* can check an output and send it back for another try
#   (Tasks page).
# * **Replay.** `crewai replay -t <task_id>` runs the latest kickoff again from a chosen task
#   ([replay tasks](https://docs.crewai.com/en/learn/replay-tasks-from-latest-crew-kickoff)).
#
# **What it leaves to you.** In the hierarchical process the one who validates results is itself
# a model, which is the "manager agent" part 1 advised against. A task counts as finished when
# its agent produced an output; whether the code passes tests it cannot edit is a guardrail or a
# tool you write.

# %% [markdown]
# ## MetaGPT
#
# The pages below are MetaGPT's documentation site (docs.deepwisdom.ai), read from its source.
#
# * **Turn-taking.** Roles take part in a standard operating procedure: each role *watches* for
#   messages caused by certain actions, and acts when one arrives; the team runs for a given
#   number of rounds ([MultiAgent 101](https://docs.deepwisdom.ai/main/en/guide/tutorials/multi_agent_101.html)).
# * **State.** Roles publish messages to a shared *environment*, and each role keeps a memory of
#   what it observed (same page).
# * **Termination.** `team.run(n_round=...)` bounds the rounds, and `team.invest(...)` gives the
#   team a budget in dollars (same page).
# * **Handoffs.** A message records the action that caused it; the downstream role that watches
#   that action picks it up (same page).
# * **Permissions.** A role's abilities are the actions it is given (`_init_actions`, same page).
# * **Human approval.** Setting `is_human=True` on a role lets a person play it from the terminal
#   ([Human Engagement](https://docs.deepwisdom.ai/main/en/guide/tutorials/human_engagement.html)).
# * **Replay.** The team, its environment and every role's memory are serialized, so an
#   interrupted run can be recovered (`--recover_path`) and resume from the action that failed
#   ([Breakpoint Recovery](https://docs.deepwisdom.ai/main/en/guide/tutorials/breakpoint_recovery.html)).
#
# **What it leaves to you.** The run ends when the rounds or the money run out, and what counts
# as success is whatever the last role published. In the tutorial's team the tester *writes* tests
# and the reviewer comments on them, but no step runs them: an oracle that runs the code, on tests
# the team cannot change, is yours to add.

# %% [markdown]
# ## ChatDev
#
# ChatDev's own guide is the `wiki.md` of its repository, for the chat-chain version described
# below ([wiki](https://github.com/OpenBMB/ChatDev/blob/main/wiki.md)).
#
# * **Turn-taking.** A *chat chain* of phases, set in `ChatChainConfig.json` (demand analysis,
#   language choice, coding, code review, test, documentation); in each phase two roles talk, for
#   at most `max_turn_step` turns, and a composed phase repeats its sub-phases up to `cycleNum`
#   times.
# * **State.** A chain environment that every phase reads from and writes its conclusion into,
#   plus the software folder being built.
# * **Termination.** A phase ends when its roles conclude (the phase prompt asks for a marked
#   conclusion) or its turns run out; a composed phase can stop its loop early, as the test phase
#   does once no bugs are reported.
# * **Handoffs.** A phase's conclusion, written into the chain environment, is what the next
#   phase starts from.
# * **Permissions.** Roles are defined by their prompts (`RoleConfig.json` holds each role's
#   background prompt).
# * **Human approval.** The *Human* configuration adds a phase after code review in which a
#   person plays the reviewer and asks for changes until they type `End`.
# * **Replay.** A visualizer replays a run's log (the dialogue only), and *Git mode* commits the
#   generated software after each phase.
#
# **What it leaves to you.** Its test phase, which runs the generated program and loops while
# errors are reported, is the closest thing to our oracle in the five; but "it runs without an
# error" is weaker than "it passes tests the coder cannot edit", and phases such as the language
# choice end when the roles declare their conclusion.

# %% [markdown]
# ## Side by side
#
# The same facts in one table: for each idea, the name it goes by in each framework (with the
# pages above as sources), and the course's own mechanism in the first column.

# %%
COURSE = {
    "turn-taking": "supervise(): a fixed state machine",
    "state": "the repo + the supervisor's trace",
    "termination": "green oracle (pass) or budget",
    "handoffs": "handoffs_from_trace(trace)",
    "permissions": "ALLOWLIST, checked on every patch",
    "human approval": "approve(step), retry proposals, escalate",
    "replay": "same inputs, same trace",
}
FRAMEWORKS = {
    "AutoGen": {
        "turn-taking": "round robin, model-chosen speaker, or your selector",
        "state": "shared conversation; save/load state",
        "termination": "conditions over messages (count, text, ...)",
        "handoffs": "HandoffMessage; Swarm",
        "permissions": "tools per agent",
        "human approval": "UserProxyAgent",
        "replay": "resume from saved state",
    },
    "LangGraph": {
        "turn-taking": "graph edges; conditional routing functions",
        "state": "one state schema; checkpoints per step",
        "termination": "route to END; recursion limit (error)",
        "handoffs": "Command(goto=..., update=...)",
        "permissions": "tools per node",
        "human approval": "interrupt() and resume",
        "replay": "time travel over checkpoints",
    },
    "CrewAI": {
        "turn-taking": "sequential or hierarchical process",
        "state": "task outputs as context",
        "termination": "tasks done; max_iter per agent",
        "handoffs": "task context; allow_delegation",
        "permissions": "tools per agent and task",
        "human approval": "human_input; guardrails",
        "replay": "crewai replay -t <task_id>",
    },
    "MetaGPT": {
        "turn-taking": "roles watch actions (SOP)",
        "state": "environment messages; role memory",
        "termination": "n_round; invested budget",
        "handoffs": "messages tagged with their action",
        "permissions": "each role's own actions",
        "human approval": "is_human=True role",
        "replay": "breakpoint recovery",
    },
    "ChatDev": {
        "turn-taking": "chat chain of phases",
        "state": "chain environment; software folder",
        "termination": "phase conclusion; turn and cycle caps",
        "handoffs": "phase conclusion into the environment",
        "permissions": "role prompts",
        "human approval": "Human config: person as reviewer",
        "replay": "log replay; Git mode",
    },
}
assert all(set(row) == set(IDEAS) for row in [COURSE, *FRAMEWORKS.values()])
show_table(["idea", "this course", *FRAMEWORKS],
           [[idea, COURSE[idea], *(FRAMEWORKS[name][idea] for name in FRAMEWORKS)] for idea in IDEAS],
           "the course beside five frameworks")

# %% [markdown]
# ## What our supervisor enforces, checked once more
#
# Each framework above gives you the parts; a few guarantees come only from how you put them
# together. These are the ones this course's supervisor enforces itself, whatever the roles do.
# The cell below checks each of them live, on the package you used in parts 1 to 6:
#
# 1. **Words never end a run.** A coder that writes `TERMINATE` (the word a text-mention stop rule
#    listens for) does not stop anything; only the oracle or the budget does.
# 2. **The tests are out of reach.** A patch to the test file is refused, whoever sends it.
# 3. **The route is code.** Two runs with the same inputs give the same trace, event for event,
#    so any run can be replayed and compared.
# 4. **Unfinished work is never success.** A skipped step turns a "successful" execution into a
#    failed one at the gate.

# %%
from agent_team.faults import fizz_only_coder
from agent_team.gate import review_run
from agent_team.repo import ALLOWLIST, TESTS_PATH, apply_turn, initial_repo
from agent_team.supervisor import supervise


def terminating_coder(goal, view):
    return {**fizz_only_coder(goal, view), "message": "TERMINATE"}


checks = {}
said_stop = supervise(max_rounds=3, coder=terminating_coder)
checks["words never end a run"] = said_stop.status == "budget" and said_stop.rounds == 3
checks["the tests are out of reach"] = all(
    apply_turn(initial_repo(), role, [{"path": TESTS_PATH, "content": "# all pass\n"}])[1] for role in ALLOWLIST)
checks["the route is code"] = supervise(max_rounds=4).trace == supervise(max_rounds=4).trace
checks["unfinished work is never success"] = review_run(
    "success", [{"step": "S1", "status": "success"}, {"step": "S2", "status": "skipped"}]).status == "failed"
for name, held in checks.items():
    print(f"{'holds' if held else 'BROKEN':6} {name}")
assert all(checks.values())

# %% [markdown]
# ### Quick check

# %%
from agent_team.widgets import Quiz

Quiz(
    "You move the course's team into a framework whose built-in stop rule ends the run when a "
    "message contains TERMINATE. What keeps the course's guarantee that only evidence ends a run?",
    ["Nothing more: the coder only ever writes TERMINATE once it believes the code works",
     "A second model that reads the conversation and must confirm each TERMINATE first",
     "Your own stop rule that runs the tests (out of every agent's reach), and a cap on coder turns",
     "A much higher message limit, so that the team always has time to get the code right"],
    answer=2,
    explanation="The guarantee comes from what decides the stop: a test run no agent can edit, and a "
                "budget. The framework gives you the hook (a termination condition, a routing function, "
                "a guardrail); what you hang on it is the design.",
    explanations=[
        "That trusts the coder's own claim, exactly what part 1 ruled out: a thought or a message "
        "is recorded, never obeyed.",
        "A second model's confirmation is another claim. It may catch mistakes, but it is not a test "
        "run, and it can be wrong in the same way.",
        None,
        "More messages only lets a wrong team run longer. A limit is a budget, not a success signal.",
    ],
)

# %% [markdown]
# ## Recap
#
# * Every framework here has places for the same seven ideas: who speaks, what is shared, when it
#   stops, what is handed on, who may do what, where a person decides, and how a run is replayed.
# * They differ in **who decides**: a model (a selector, a manager), your code (edges, a fixed
#   order), or the roles' own words (a stop word, a phase conclusion).
# * The course's guarantees (evidence ends the run, tests out of reach, routing in code, unfinished
#   work never counted as success) are design choices you can carry into any of them.
#
# **The whole course on one page:** [recap.md](recap.md), next to the part notebooks, holds the
# state machine, every rule and every word. Print it, or keep it open while you build your own team.
