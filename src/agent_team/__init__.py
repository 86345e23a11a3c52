"""agent_team: the engine of the course "A Team of Agents: Plan, Code, Review, Test".

The pure engine (everything but ``agent_team.widgets``) uses only the standard
library, so it runs unchanged in CPython and in Pyodide in the browser.
"""

__version__ = "0.1.0"
