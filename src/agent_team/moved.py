"""Old module names that saved notebooks still import, each the very same module as its new home.

A learner's notebook saved before part 5-7's modules moved into :mod:`agent_team.realteam` says
``from agent_team.contracts import Plan``; that line keeps working, and gives the module itself,
not a copy (a second copy would hold its own state: the oracle's runner, the recordings' cache).
The course's own notebooks use the new names. One table, read by an import hook the package
installs first on ``sys.meta_path``, so ``agent_team.models.http`` under its old name is never
found again in the folder it moved to as a second module.
"""

import importlib
import importlib.abc
import importlib.util
import sys

__all__ = ["MOVED", "new_name", "install"]

# old name -> where it lives now (a name below an old package moves with it)
MOVED = {
    **{f"agent_team.{name}": f"agent_team.realteam.{name}"
       for name in ("contracts", "handoffs", "gate", "execution", "advice", "config", "gated", "llm", "retry",
                    "models", "recordings")},
    "agent_team.models.isolated": "agent_team.runners.isolated",
}


def new_name(name):
    """Where the module first called ``name`` lives now, or None when it never moved."""
    if name in MOVED:
        return MOVED[name]
    parent, _, leaf = name.rpartition(".")
    while parent:
        if parent in MOVED:
            return f"{MOVED[parent]}.{name[len(parent) + 1:]}"
        parent, _, leaf = parent.rpartition(".")
    return None


class _OldName(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old name first; loading it puts the new module in ``sys.modules`` under the old name
    too (the import system hands back whatever ``sys.modules`` holds after ``exec_module``)."""

    def find_spec(self, fullname, path=None, target=None):
        return importlib.util.spec_from_loader(fullname, self) if new_name(fullname) else None

    def create_module(self, spec):
        return None  # a placeholder, replaced in exec_module

    def exec_module(self, module):
        sys.modules[module.__name__] = importlib.import_module(new_name(module.__name__))


def install():
    """Put the hook first on ``sys.meta_path``, once per interpreter (a reload does not add another)."""
    if not any(type(finder).__name__ == _OldName.__name__ and type(finder).__module__ == __name__
               for finder in sys.meta_path):
        sys.meta_path.insert(0, _OldName())
