"""The real team, parts 5-7: typed contracts and handoffs between roles, the reviewer's gate,
planned execution, advice, per-role configuration and the gated run (part 5 and 6); the LLM slot,
its retry decision, real models and their recordings (part 7).

Everything here may use the parts 1-4 core (``agent_team.supervisor``, ``oracle``, ``policies``,
...); nothing in the core imports from here. Import each module by its name
(``from agent_team.realteam.contracts import Plan``); this package's face exports nothing.
"""
