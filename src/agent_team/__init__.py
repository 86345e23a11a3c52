"""agent_team: the engine of the course "A Team of Agents: Plan, Code, Review, Test".

The pure engine (everything but ``agent_team.widgets``) uses only the standard
library, so it runs unchanged in CPython and in Pyodide in the browser. Parts 1-4
are the modules here; parts 5-7 (the real team) are :mod:`agent_team.realteam`.
"""

from . import moved

__version__ = "0.1.0"

moved.install()  # saved notebooks' old module names (moved.py)
