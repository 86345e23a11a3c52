"""``python -m agent_team.grade PATH...``: grade learners' notebooks (see agent_team.classroom).

Host-side only: it starts Node.js, so nothing in the engine imports it.
"""

import sys

from .classroom.cli import main

if __name__ == "__main__":
    sys.exit(main())
