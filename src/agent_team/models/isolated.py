"""The CPython isolated runner under its first name: it lives in :mod:`agent_team.runners.isolated`.

Part 7's notebooks, and the copies learners saved of them, import ``agent_team.models.isolated``.
This module makes that name the very same module object, so nothing is copied and every name
(``run_python``, ``ISOLATION`` measured on first use, ...) works under both.
"""

import sys

from ..runners import isolated

sys.modules[__name__] = isolated
