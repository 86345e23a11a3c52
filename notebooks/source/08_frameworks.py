# %% [markdown]
# # Appendix — The same ideas in real frameworks
#
# You built a team from scratch: a shared repo, narrow roles, an oracle, and a supervisor that
# decides who speaks, what lands and when to stop. The multi-agent frameworks you are likely to
# meet next package many of the same ideas under other names. This page puts each idea of the
# course beside the place it lives in six of them (and names two more you will meet: AG2 and the
# OpenAI Agents SDK), shows the course's central move (the route is
# code, and only evidence ends a run) written in each one's own API, and says what each leaves to
# you that our supervisor does itself.
#
# **How this page was made.** No framework is installed or imported here, and the short examples
# below are shown, not run. Every statement about a framework comes from that framework's own
# documentation or repository, rewritten in the course's words, with the page linked next to it.
# The versions read, in December 2026:
#
# | framework | version read | status |
# |---|---|---|
# | Microsoft Agent Framework (Python) | `agent-framework-core` 1.13 | Microsoft's current framework; the successor of AutoGen |
# | AutoGen (AgentChat) | `autogen-agentchat` 0.7.5 | in maintenance mode: no new features |
# | LangGraph | `langgraph` 1.2 | active |
# | CrewAI | `crewai` 1.15 (Crews and Flows) | active |
# | MetaGPT | 1.0 (last release of the `geekan/MetaGPT` repository) | little activity since May 2025 |
# | ChatDev | 2.0 "DevAll" (the chat chain is the legacy 1.0 line) | active |
#
# Frameworks change quickly: read each statement as "what the linked page said for that version",
# and check the current page before relying on one.
#
# About {{minutes}} minutes of reading, with a few cells to run at the end. The ideas we follow are the
# seven of the course's supervisor, plus one that every framework handles differently:
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
# | **sandboxed execution** | where model-written code runs: the oracle's isolated runner, never beside a key |

# %%
from agent_team.widgets import show_table

IDEAS = ["turn-taking", "state", "termination", "handoffs", "permissions", "human approval", "replay",
         "sandboxed execution"]
print(len(IDEAS), "ideas:", ", ".join(IDEAS))

# %% [markdown]
# ## Microsoft Agent Framework
#
# Microsoft's framework for agents and multi-agent *workflows*, built by the AutoGen and Semantic
# Kernel teams; AutoGen's own README now sends new users here
# ([AutoGen README](https://github.com/microsoft/autogen)).
#
# * **Turn-taking.** A *workflow* is a graph of *executors* (units of work, which may wrap an
#   agent) joined by *edges*; an edge can carry a condition, a function of the message, that
#   decides whether it is followed
#   ([edges](https://learn.microsoft.com/en-us/agent-framework/user-guide/workflows/core-concepts/edges)).
#   Ready-made *orchestrations* (sequential, concurrent, handoff, group chat, Magentic) are built
#   on the same graphs; in a group chat an orchestrator, a model or a selection function of
#   yours, picks the next speaker
#   ([workflows](https://learn.microsoft.com/en-us/agent-framework/workflows/)).
# * **State.** Executors pass typed messages along the edges; the workflow keeps shared state
#   and can save it at *checkpoints* between its steps (workflows page).
# * **Termination.** A workflow ends when no messages are left to deliver, or after
#   `max_iterations` *supersteps* (100 by default, an argument of `WorkflowBuilder`); a group chat
#   also takes a `termination_condition` (a function over the conversation) and `max_rounds`
#   ([`WorkflowBuilder` source](https://github.com/microsoft/agent-framework/tree/main/python/packages/core)).
# * **Handoffs.** The *handoff* orchestration lets agents pass control to each other; in a plain
#   workflow, what an executor sends along an edge is the handoff (workflows page).
# * **Permissions.** Each agent gets its own tools, and a tool can be marked to need a person's
#   approval before it runs (`approval_mode`, core package source above).
# * **Human approval.** An executor can call `ctx.request_info(...)`: the workflow emits a request
#   event and waits for the answer before it goes on
#   ([human in the loop](https://learn.microsoft.com/en-us/agent-framework/user-guide/workflows/orchestrations/human-in-the-loop)).
# * **Replay.** A run restored from a checkpoint carries on from the step it was saved at
#   (workflows page).
# * **Sandboxed execution.** Providers that offer a hosted code interpreter expose it as a tool
#   (`get_code_interpreter_tool()`), so the code runs at the provider; a pre-release package,
#   `agent-framework-hyperlight`, runs model-written code in a local Hyperlight sandbox
#   ([hyperlight package](https://github.com/microsoft/agent-framework/tree/main/python/packages/hyperlight)).
#
# **The course's idea in its API** (shape from the `WorkflowBuilder` and `Executor` docstrings;
# `run_tests`, `apply_allowed` and `coder_agent` stand for your oracle, your allowlist and an
# `Agent`):
#
# ```python
# from agent_framework import Executor, WorkflowBuilder, WorkflowContext, handler
#
# class Coder(Executor):
#     @handler
#     async def write(self, repo: dict, ctx: WorkflowContext[dict]) -> None:
#         reply = await coder_agent.run(prompt_for(repo))       # a model fills the role
#         await ctx.send_message(apply_allowed(repo, reply.text))  # only allowlisted paths land
#
# class Oracle(Executor):                                       # code, not an agent
#     @handler
#     async def judge(self, repo: dict, ctx: WorkflowContext[dict, str]) -> None:
#         if run_tests(repo).green:
#             await ctx.yield_output("pass")                    # evidence ends the run
#         else:
#             await ctx.send_message(repo)                      # back to the coder
#
# coder, oracle = Coder(id="coder"), Oracle(id="oracle")
# workflow = (WorkflowBuilder(start_executor=coder, max_iterations=12)  # the budget
#             .add_edge(coder, oracle).add_edge(oracle, coder).build())
# ```
#
# **What it leaves to you.** The graph is yours, so routing in code comes naturally; but "done"
# is whatever an executor yields, and a run that hits `max_iterations` is a framework limit, not
# a status with a reason. An oracle that no agent can edit, and a budget that counts the work you
# care about (coder turns), are still yours to write.

# %% [markdown]
# ## AutoGen (AgentChat)
#
# AutoGen's README marks it as in maintenance mode: no new features, community managed, with
# Microsoft Agent Framework as its successor ([README](https://github.com/microsoft/autogen)). It
# is here because much of what you will read about multi-agent teams was written with it.
#
# Not to be confused with **AG2** ("formerly AutoGen"): the community project that two of
# AutoGen's creators, Chi Wang and Qingyun Wu, moved to a new organization, AG2AI, in November
# 2024. It kept AutoGen **0.2**'s API (`ConversableAgent`, `GroupChat`, `import autogen`; on PyPI
# as `ag2`, `autogen` and `pyautogen`) while Microsoft's AutoGen was rewritten as the 0.4 line
# described here
# ([AG2 README](https://github.com/ag2ai/ag2)). A tutorial that calls `initiate_chat` is written
# for that older API, AG2's, not for the teams below; AG2's README now announces a new package on
# its way to 1.0, so check which AG2 a page means, too.
#
# * **Turn-taking.** A *team* runs the agents. `RoundRobinGroupChat` lets them speak in a fixed
#   order; in a `SelectorGroupChat` a language model reads the conversation and picks the next
#   speaker, unless you pass a `selector_func` of your own
#   ([Selector Group Chat](https://microsoft.github.io/autogen/stable/user-guide/agentchat-user-guide/selector-group-chat.html)).
# * **State.** The members broadcast their messages to each other: the shared state is the
#   conversation. Agents and teams can save their state and load it back
#   ([Managing State](https://microsoft.github.io/autogen/stable/user-guide/agentchat-user-guide/tutorial/state.html)).
# * **Termination.** A team checks a *termination condition* after each response: a number of
#   messages, a text such as `TERMINATE` in a message, a token count, a timeout, or a function of
#   your own (`FunctionalTermination`); conditions combine with AND and OR, and the team, not the
#   agents, enforces them
#   ([Termination](https://microsoft.github.io/autogen/stable/user-guide/agentchat-user-guide/tutorial/termination.html)).
# * **Handoffs.** An agent can hand the conversation to another by a special tool call
#   (`HandoffMessage`; the agents it may hand to are its `handoffs` argument). A `Swarm` team picks
#   each next speaker from the latest `HandoffMessage`, so the agents route themselves
#   ([Swarm](https://microsoft.github.io/autogen/stable/user-guide/agentchat-user-guide/swarm.html)).
# * **Permissions.** Each agent is given its own list of tools (the `tools` argument of
#   `AssistantAgent`).
# * **Human approval.** A `UserProxyAgent` in the team asks a person for input during a run, or
#   the person answers between runs
#   ([Human-in-the-Loop](https://microsoft.github.io/autogen/stable/user-guide/agentchat-user-guide/tutorial/human-in-the-loop.html)).
# * **Replay.** Saved state lets a team carry on where it stopped (Managing State, above).
# * **Sandboxed execution.** Code executors run code blocks from messages, either on the host
#   (`LocalCommandLineCodeExecutor`) or in a Docker container (`DockerCommandLineCodeExecutor`)
#   ([command line code executors](https://microsoft.github.io/autogen/stable/user-guide/core-user-guide/components/command-line-code-executors.html)).
#
# **The course's idea in its API** (`run_tests` stands for your oracle):
#
# ```python
# from autogen_agentchat.conditions import FunctionalTermination, MaxMessageTermination
# from autogen_agentchat.teams import RoundRobinGroupChat
#
# def tests_green(messages) -> bool:        # evidence, not a word in a message
#     return run_tests(current_repo()).green
#
# team = RoundRobinGroupChat([planner, coder, reviewer],      # a fixed order: routing in code
#     termination_condition=FunctionalTermination(tests_green) | MaxMessageTermination(12))
# ```
#
# **What it leaves to you.** The ready-made stop rules look at *messages*; ending on evidence,
# such as a test run no agent can edit, is a condition you write. Choosing the next speaker by
# model is one option among several; the course's rule corresponds to the round-robin team or
# your own selector function. Which files a tool may write is up to the tools you hand out.

# %% [markdown]
# ## LangGraph
#
# * **Turn-taking.** The team is a graph: nodes do work, and edges, fixed or *conditional* (a
#   routing function over the state), decide what runs next
#   ([Graph API](https://docs.langchain.com/oss/python/langgraph/graph-api)).
# * **State.** One shared state, described by a schema, which every node reads and updates. With a
#   *checkpointer* a snapshot of it is saved at every step, in a *thread*
#   ([Persistence](https://docs.langchain.com/oss/python/langgraph/persistence)).
# * **Termination.** A conditional edge routes to `END` when your condition holds. A *recursion
#   limit* on the number of steps stops a loop that does not end by raising `GraphRecursionError`;
#   since early 2026 its default is very high (10,007 steps), so a budget that matters is one you
#   set in the run's config
#   ([GRAPH_RECURSION_LIMIT](https://docs.langchain.com/oss/python/langgraph/GRAPH_RECURSION_LIMIT)).
# * **Handoffs.** A node can return a `Command` that names the next node and carries an update to
#   the state: the destination and the payload of a handoff (Graph API page).
# * **Permissions.** Each agent node uses the tools you give it.
# * **Human approval.** `interrupt()` pauses the graph where it is called, the checkpointer keeps
#   the state, and the run resumes with the person's answer
#   ([human-in-the-loop](https://docs.langchain.com/oss/python/langgraph/add-human-in-the-loop)).
#   On resume, the node that called `interrupt()` runs again from its start, so whatever it did
#   before the `interrupt()` (a file written, a request sent) happens twice unless it is safe to
#   repeat ([Interrupts](https://docs.langchain.com/oss/python/langgraph/interrupts)).
# * **Replay.** Saved checkpoints let you go back to a past step and replay it or branch off from
#   it ("time travel", Persistence page).
# * **Sandboxed execution.** Nothing is built in; LangChain's separate, "under development"
#   `langchain-sandbox` runs Python in Pyodide under Deno, the same WebAssembly Python this
#   course runs in ([langchain-sandbox](https://github.com/langchain-ai/langchain-sandbox)).
#
# **The course's idea in its API** (`State`, `plan`, `code` and `run_tests` are yours):
#
# ```python
# from langgraph.graph import END, START, StateGraph
#
# def after_tests(state: State) -> str:          # the route is code
#     return END if state["tests_green"] else "code"
#
# graph = StateGraph(State)
# graph.add_node("plan", plan); graph.add_node("code", code); graph.add_node("test", run_tests)
# graph.add_edge(START, "plan"); graph.add_edge("plan", "code"); graph.add_edge("code", "test")
# graph.add_conditional_edges("test", after_tests)
# app = graph.compile()
# app.invoke({"goal": "fizzbuzz"}, {"recursion_limit": 12})   # the budget, set by you
# ```
#
# **What it leaves to you.** Of the six, LangGraph is closest to this course: routing is your
# code. But the graph has no idea what "done" means; a route to `END` on a passing test run, and
# a test that no node can rewrite, are yours to build. Its recursion limit counts steps of any
# kind and ends in an exception, where our budget counts coder turns and ends in a status with a
# reason.

# %% [markdown]
# ## CrewAI
#
# CrewAI has two ways to organise work: *Crews*, agents that carry out tasks by a process, and
# *Flows*, event-driven code that decides what runs when, and can call crews from its steps.
#
# * **Turn-taking.** A crew runs its tasks `sequential`ly or `hierarchical`ly, where a manager (a
#   model or an agent you supply) assigns tasks and checks results
#   ([Processes](https://docs.crewai.com/en/concepts/processes)). In a Flow, methods marked
#   `@start()` run first, `@listen(...)` methods run when what they listen to finishes, and a
#   `@router(...)` method returns a label that decides which listeners run next
#   ([Flows](https://docs.crewai.com/en/concepts/flows)).
# * **State.** In a crew, one task's output becomes context for the next; a Flow has a state
#   object, a dict or a Pydantic model, that every method reads and writes (Flows page).
# * **Termination.** A crew is done when its tasks are; per agent, `max_iter` (20 by default)
#   caps the iterations on one task, and `max_execution_time` caps its seconds
#   ([Agents](https://docs.crewai.com/en/concepts/agents)). A Flow ends when no method is left
#   to run.
# * **Handoffs.** Task outputs passed on as context; an agent with `allow_delegation` may hand
#   work to another agent (Agents page).
# * **Permissions.** Tools are given per agent, and a task can list the tools it needs
#   ([Tasks](https://docs.crewai.com/en/concepts/tasks)).
# * **Human approval.** A task can ask a person to review the agent's answer (`human_input`), a
#   task *guardrail* can check an output and send it back (up to `guardrail_max_retries`, 3 by
#   default), and in a Flow `@human_feedback` pauses for a person's review (Tasks and Flows pages).
# * **Replay.** `crewai replay -t <task_id>` reruns the latest kickoff from a chosen task
#   ([replay tasks](https://docs.crewai.com/en/learn/replay-tasks-from-latest-crew-kickoff)); a
#   Flow marked `@persist` saves its state and can be started again from it (Flows page).
# * **Sandboxed execution.** The documentation now marks the `CodeInterpreterTool` as removed and
#   the agent's `allow_code_execution` as deprecated, and points to dedicated sandbox services
#   ([Code Interpreter](https://docs.crewai.com/en/tools/ai-ml/codeinterpretertool)).
#
# **The course's idea in its API** — a Flow, where the route is code (`write_code` and
# `run_tests` are yours):
#
# ```python
# from crewai.flow.flow import Flow, listen, or_, router, start
# from pydantic import BaseModel
#
# class Run(BaseModel):
#     coder_turns: int = 0
#     status: str = ""
#
# class TeamFlow(Flow[Run]):
#     @start()
#     def begin(self):
#         self.state.status = "running"
#
#     @listen(or_(begin, "red"))         # runs again each time the router says "red": the loop
#     def code(self):
#         self.state.coder_turns += 1
#         write_code()                   # a crew or an agent may do this step
#
#     @router(code)
#     def oracle(self):                  # evidence and the budget decide, nothing else
#         if run_tests().green:
#             return "green"
#         return "red" if self.state.coder_turns < 3 else "budget"
#
#     @listen("green")
#     def passed(self):
#         self.state.status = "pass"
# ```
#
# **What it leaves to you.** In a hierarchical crew the one who validates results is itself a
# model, the "manager agent" part 1 advised against, and a task counts as finished when its agent
# produced an output. Flows move routing into code, as this course does; what the router checks
# (tests the coder cannot edit) and the budget are still yours.

# %% [markdown]
# ## MetaGPT
#
# The pages below are MetaGPT's documentation site (docs.deepwisdom.ai) and its repository's
# examples, for version 1.0.
#
# * **Turn-taking.** Roles take part in a standard operating procedure: each role *watches* for
#   messages caused by certain actions (`_watch([...])`), and acts when one arrives; the team runs
#   for a given number of rounds
#   ([MultiAgent 101](https://docs.deepwisdom.ai/main/en/guide/tutorials/multi_agent_101.html)).
# * **State.** Roles publish messages to a shared *environment*, and each role keeps a memory of
#   what it observed (same page).
# * **Termination.** `team.run(n_round=...)` bounds the rounds, and `team.invest(...)` gives the
#   team a budget in dollars: the run stops with an error once the cost reaches it (same page).
# * **Handoffs.** A message records the action that caused it; the role that watches that action
#   picks it up (same page).
# * **Permissions.** A role's abilities are the actions it is given, with `set_actions([...])`
#   ([the repository's multi-agent example](https://github.com/geekan/MetaGPT/blob/main/examples/build_customized_multi_agents.py)).
# * **Human approval.** Setting `is_human=True` on a role lets a person play it from the terminal
#   ([Human Engagement](https://docs.deepwisdom.ai/main/en/guide/tutorials/human_engagement.html)).
# * **Replay.** The team, its environment and every role's memory are serialized, so an
#   interrupted run can be recovered and resume from the action that failed
#   ([Breakpoint Recovery](https://docs.deepwisdom.ai/main/en/guide/tutorials/breakpoint_recovery.html)).
# * **Sandboxed execution.** Its `RunCode` action runs a script as a subprocess of the host, with
#   a timeout, not in a sandbox
#   ([run_code.py](https://github.com/geekan/MetaGPT/blob/main/metagpt/actions/run_code.py)).
#
# **The course's idea in its API** (`RunTests` stands for an action that runs your tests and
# reports the result; `SimpleWriteCode` is the coder's action, as in the repository's example):
#
# ```python
# from metagpt.roles import Role
# from metagpt.team import Team
#
# class Oracle(Role):
#     name: str = "Oracle"
#     profile: str = "runs the tests"
#
#     def __init__(self, **kwargs):
#         super().__init__(**kwargs)
#         self.set_actions([RunTests])          # its only ability
#         self._watch([SimpleWriteCode])        # it acts after each coder turn
#
# team = Team()
# team.hire([SimpleCoder(), Oracle()])
# team.invest(investment=1.0)                   # a budget, in dollars
# await team.run(n_round=6, idea="write fizzbuzz")
# ```
#
# **What it leaves to you.** The run ends when the rounds or the money run out, and what counts as
# success is whatever the last role published. In the tutorial's team the tester *writes* tests
# and the reviewer comments on them, but no step runs them: an oracle that runs the code, on tests
# the team cannot change, and a stop on its verdict, are yours to add.

# %% [markdown]
# ## ChatDev
#
# ChatDev 2.0 ("DevAll", January 2026) turned the virtual software company of ChatDev 1.0 into a
# general platform: a team is a *graph* of nodes written in YAML, built and run from a web console
# or its Python SDK; the chat chain of 1.0 (CEO, CTO, programmer, reviewer, tester in fixed phases)
# lives on in a legacy branch and as one of 2.0's example workflows
# ([README](https://github.com/OpenBMB/ChatDev)).
#
# * **Turn-taking.** Nodes (`agent`, `python`, `human`, `subgraph`, loop counters and others)
#   joined by edges; an edge can have a condition, such as keywords that must or must not appear
#   in the message, or a function of yours; a graph with cycles is run loop by loop
#   ([workflow authoring](https://github.com/OpenBMB/ChatDev/blob/main/docs/user_guide/en/workflow_authoring.md),
#   [execution logic](https://github.com/OpenBMB/ChatDev/blob/main/docs/user_guide/en/execution_logic.md)).
# * **State.** Messages along the edges, plus a shared `code_workspace/` folder that `python`
#   nodes read and write (workflow authoring page).
# * **Termination.** A run ends at the graph's `end` nodes; a `loop_counter` node releases the way
#   out of a loop after `max_iterations` turns, and a `loop_timer` after `max_duration` seconds
#   ([loop counter](https://github.com/OpenBMB/ChatDev/blob/main/docs/user_guide/en/nodes/loop_counter.md)).
# * **Handoffs.** What a node sends along an edge, optionally filtered by an edge *processor*
#   (for example a regular expression that extracts a verdict) (workflow authoring page).
# * **Permissions.** Each `agent` node gets its own model, prompt and tools.
# * **Human approval.** A `human` node stops the run until a person answers in the web console
#   ([human node](https://github.com/OpenBMB/ChatDev/blob/main/docs/user_guide/en/nodes/human.md)).
# * **Replay.** The web console shows a run's logs and intermediate artifacts as it goes (README).
# * **Sandboxed execution.** A `python` node runs a script with the host's interpreter in the
#   shared workspace, with a timeout (60 s by default); the README offers Docker Compose for the
#   whole application
#   ([python node](https://github.com/OpenBMB/ChatDev/blob/main/docs/user_guide/en/nodes/python.md)).
#
# **The course's idea in its API** — YAML, where a `python` node is the oracle and keyword
# conditions route on its verdict (`run_tests.py` prints `GREEN` or `RED`):
#
# ```yaml
# graph:
#   id: course_team
#   start: [Coder]
#   end: [Done]
#   nodes:
#     - {id: Coder, type: agent, config: {provider: openai, name: gpt-4o-mini, api_key: "${API_KEY}"}}
#     - {id: Tests, type: python, config: {timeout_seconds: 30}}
#     - {id: Budget, type: loop_counter, config: {max_iterations: 3, message: budget}}
#     - {id: Done, type: passthrough}
#   edges:
#     - {from: Coder, to: Tests}
#     - {from: Tests, to: Done, condition: {type: keyword, config: {any: [GREEN]}}}
#     - {from: Tests, to: Coder, condition: {type: keyword, config: {none: [GREEN]}}}
#     - {from: Tests, to: Budget, condition: {type: keyword, config: {none: [GREEN]}}}
#     - {from: Budget, to: Coder}
#     - {from: Budget, to: Done}
# ```
#
# **What it leaves to you.** Routing is written down, in YAML rather than Python, and a keyword
# condition is the closest thing to "a thought is never obeyed" only if the keyword comes from
# a script, not from an agent. In ChatDev 1.0's chain, phases ended when the roles declared a
# conclusion; in 2.0 the graph is yours, and so is the oracle.

# %% [markdown]
# ## One more: the OpenAI Agents SDK
#
# OpenAI's Python SDK (`openai-agents`, the successor of its Swarm experiment) has few pieces: an
# *agent* (a model with instructions and tools), *handoffs* (one agent passes the conversation to
# another by a tool call, as in AutoGen's Swarm), and *guardrails*, checks on a run's input or
# its final output that stop the run by raising an exception when their tripwire fires
# ([Agents SDK](https://openai.github.io/openai-agents-python/),
# [Guardrails](https://openai.github.io/openai-agents-python/guardrails/)). In the course's words:
# routing by handoff is the model's choice, and a guardrail is a check on words, not an oracle on
# the code; a supervisor in code and a test no agent can edit are still yours to add.

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
    "sandboxed execution": "the oracle's isolated runner",
}
FRAMEWORKS = {
    "Agent Framework": {
        "turn-taking": "workflow graph; conditional edges",
        "state": "typed messages; checkpoints",
        "termination": "no messages left; max_iterations",
        "handoffs": "messages on edges; handoff orchestration",
        "permissions": "tools per agent; approval_mode",
        "human approval": "ctx.request_info()",
        "replay": "resume from a checkpoint",
        "sandboxed execution": "hosted code interpreter; Hyperlight (pre-release)",
    },
    "AutoGen": {
        "turn-taking": "round robin, model-chosen speaker, or your selector",
        "state": "shared conversation; save/load state",
        "termination": "conditions over messages, tokens, time",
        "handoffs": "HandoffMessage; Swarm",
        "permissions": "tools per agent",
        "human approval": "UserProxyAgent",
        "replay": "resume from saved state",
        "sandboxed execution": "Docker code executor",
    },
    "LangGraph": {
        "turn-taking": "graph edges; conditional routing functions",
        "state": "one state schema; checkpoints per step",
        "termination": "route to END; recursion limit (error)",
        "handoffs": "Command(goto=..., update=...)",
        "permissions": "tools per node",
        "human approval": "interrupt() and resume",
        "replay": "time travel over checkpoints",
        "sandboxed execution": "none built in; langchain-sandbox",
    },
    "CrewAI": {
        "turn-taking": "crew process; Flow listeners and routers",
        "state": "task outputs as context; Flow state",
        "termination": "tasks done; max_iter per agent",
        "handoffs": "task context; allow_delegation",
        "permissions": "tools per agent and task",
        "human approval": "human_input; guardrails; @human_feedback",
        "replay": "crewai replay; @persist",
        "sandboxed execution": "external sandbox services",
    },
    "MetaGPT": {
        "turn-taking": "roles watch actions (SOP)",
        "state": "environment messages; role memory",
        "termination": "n_round; invested budget",
        "handoffs": "messages tagged with their action",
        "permissions": "set_actions per role",
        "human approval": "is_human=True role",
        "replay": "breakpoint recovery",
        "sandboxed execution": "none: host subprocess",
    },
    "ChatDev 2.0": {
        "turn-taking": "YAML graph; edge conditions",
        "state": "messages; shared code_workspace",
        "termination": "end nodes; loop counter and timer",
        "handoffs": "edge payloads and processors",
        "permissions": "model, prompt and tools per node",
        "human approval": "human node",
        "replay": "run logs in the console",
        "sandboxed execution": "none: host python node",
    },
}
assert all(set(row) == set(IDEAS) for row in [COURSE, *FRAMEWORKS.values()])
show_table(["idea", "this course", *FRAMEWORKS],
           [[idea, COURSE[idea], *(FRAMEWORKS[name][idea] for name in FRAMEWORKS)] for idea in IDEAS],
           "the course beside six frameworks")

# %% [markdown]
# ## When a model fills the slot
#
# Part 7 put a real model in the team's roles, and with it came four pieces the scripted fakes
# never needed: a **model client** that talks to a provider, **structured output** that holds a
# reply to a shape, **retries** for the replies and the calls that fail, and a **budget** in
# tokens and time as well as in turns. The same pages, read for those four (where a framework's
# pages say nothing of one, the table says so rather than guess):
#
# * **Agent Framework.** A chat client per provider (OpenAI, Azure, Anthropic, Gemini, Ollama,
#   Bedrock and others are packages of the repository); a typed reply through `response_format`;
#   retries written as *agent middleware* (its docs show a `RetryMiddleware` as the example);
#   budgets as `max_iterations` and a group chat's `max_rounds`.
# * **AutoGen.** Model clients in `autogen-ext` (the OpenAI one takes `max_retries`); a typed
#   reply with `output_content_type` on `AssistantAgent`; `TokenUsageTermination` and
#   `TimeoutTermination` as budgets.
# * **LangGraph.** Any LangChain chat model; `with_structured_output` on the model; a
#   `RetryPolicy` per node (`retry_policy=` when the node is added); the recursion limit.
# * **CrewAI.** An `LLM` per agent; a task's `output_pydantic`; an agent's `max_retry_limit` (2 by
#   default) on errors and a guardrail's retries on bad output; `max_iter`, `max_rpm` and
#   `max_execution_time`.
# * **MetaGPT.** The model from its configuration file; an `ActionNode` fills a declared schema and
#   retries up to 6 times; `invest()` as a budget in dollars.
# * **ChatDev 2.0.** Provider, URL and key per `agent` node; no structured output in the pages
#   read (an edge processor can extract a field with a regular expression); a `retry` block per
#   node, by default on HTTP 408, 409, 425, 429 and 5xx answers; loop counters and timers.
#
# The course's column comes from its own package; a test keeps it true.

# %%
from agent_team.realteam.llm import llm_policy
from agent_team.realteam.models import anthropic_messages, openai_chat, total_usage

MODEL_PIECES = ["model client", "structured output", "retries", "budget"]
COURSE_MODEL = {
    "model client": f"{openai_chat.__name__}(), {anthropic_messages.__name__}(): prompt -> str",
    "structured output": "each role's JSON schema, sent to the server",
    "retries": f"{llm_policy.__name__}(): bounded attempts, each in the trace",
    "budget": f"coder turns and seconds; {total_usage.__name__}() for tokens",
}
FRAMEWORKS_MODEL = {
    "Agent Framework": ["chat client per provider", "response_format", "agent middleware", "max_iterations; max_rounds"],
    "AutoGen": ["model clients (autogen-ext)", "output_content_type", "client max_retries", "token and timeout terminations"],
    "LangGraph": ["LangChain chat models", "with_structured_output", "RetryPolicy per node", "recursion limit"],
    "CrewAI": ["LLM per agent", "output_pydantic", "max_retry_limit; guardrail retries", "max_iter; max_rpm; max_execution_time"],
    "MetaGPT": ["LLM from config", "ActionNode schema", "ActionNode retries (6)", "invest() in dollars"],
    "ChatDev 2.0": ["provider per node", "none found; regex extraction", "retry per node (429, 5xx)", "loop counter and timer"],
}
assert all(len(row) == len(MODEL_PIECES) for row in FRAMEWORKS_MODEL.values())
show_table(["piece", "this course", *FRAMEWORKS_MODEL],
           [[piece, COURSE_MODEL[piece], *(FRAMEWORKS_MODEL[name][i] for name in FRAMEWORKS_MODEL)]
            for i, piece in enumerate(MODEL_PIECES)],
           "with a model in the slot")

# %% [markdown]
# Two readings of these tables. First, **sandboxed execution is where the frameworks differ
# most**: MetaGPT and ChatDev run model-written code on the host with a timeout (so does AutoGen's
# local executor); the others offer a container, a provider's interpreter or a separate sandbox. The course runs the oracle in a runner that
# has no network and never sees a key, because a model's code is the one input nobody reviewed.
# Second, **every framework can stop on a budget, but none stops on evidence by itself**: the
# limits count steps, rounds, messages, tokens or dollars. Which evidence counts as "done" is the
# decision the framework hands back to you.

# %% [markdown]
# ## What our supervisor enforces, checked once more
#
# Each framework above gives you the parts; a few guarantees come only from how you put them
# together. These are the ones this course's supervisor enforces itself, whatever the roles do.
# The cell below checks each of them live, on the package you used in parts 1 to 7:
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
from agent_team.realteam.gate import review_run
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

Quiz("8.1")

# %% [markdown]
# ## Recap
#
# * Every framework here has places for the same ideas: who speaks, what is shared, when it
#   stops, what is handed on, who may do what, where a person decides, how a run is replayed, and
#   where model-written code runs.
# * They differ in **who decides**: a model (a selector, a manager), your code (edges, routers, a
#   fixed order), or the roles' own words (a stop word, a declared conclusion).
# * Their limits count steps, rounds, tokens or dollars; **evidence** as the stop, and a runner for
#   model-written code that holds no keys, are design choices you carry into any of them.
#
# **The whole course on one page:** [the recap sheet](../recap.html#%recap) (a new tab; `recap.md` in the
# file browser is the same text) holds the state machine, every rule and every word. Print it, or keep it open while you build your own team.

# %% [markdown]
# **That was the last part.** Back to [the course's home page](../index.html#%home) (it opens in a new tab).
