"""The engine's own files as text, for the runners whose Pyodide receives them (pure, read at call time).

The browser's runner worker (:mod:`.browser`) and the class grader's Node worker (:mod:`.node`)
each boot a Pyodide that shares no file system with this interpreter: no host folder is mounted
there, so the engine is sent to it file by file and written into its in-memory file system: its
modules, and the data they read (the recorded runs, ``recordings/*.json``, which part 7's grader
replays).
"""

from pathlib import Path

__all__ = ["PACKAGE", "SUFFIXES", "package_sources"]

PACKAGE = Path(__file__).resolve().parent.parent  # the agent_team folder
SUFFIXES = (".py", ".json")


def package_sources():
    """Every file of agent_team ending in one of SUFFIXES, as ``{"agent_team/…/name.py": text}``, in path order."""
    return {path.relative_to(PACKAGE.parent).as_posix(): path.read_text(encoding="utf-8")
            for path in sorted(PACKAGE.rglob("*")) if path.suffix in SUFFIXES and "__pycache__" not in path.parts}
