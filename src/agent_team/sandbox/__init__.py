"""The oracle's sandbox: runs a learner's fizzbuzz so that it cannot escape, hang or flood memory.

- :mod:`.rules`: caps and parses the source, applies the static rules, compiles (:func:`prepare`);
- :mod:`.rewrite`: instruments the syntax tree before it is compiled;
- :mod:`.runtime`: the step budget and the helpers the instrumented code calls (:class:`Runtime`);
- :mod:`.guards`: the size limits and the checks before risky operations.

The design and its limits are written up in :mod:`agent_team.oracle`, the only user of this package.
"""

from .rules import SOURCE_NAME, MAX_SOURCE, prepare
from .runtime import BUILTIN_NAMES, Runtime, Stop

__all__ = ["BUILTIN_NAMES", "SOURCE_NAME", "MAX_SOURCE", "Runtime", "Stop", "prepare"]
