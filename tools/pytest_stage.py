"""A pytest plugin for `make test`'s summary (tools/make_summary.py): what this run counted.

The Makefile loads it into every pytest it runs (`-p tools.pytest_stage`). It does nothing unless
AGENT_TEAM_STAGE_FILE names a file, which `make_summary.py run` sets for the stage it runs; then at
the end of the session it appends one JSON line there: the outcome counts as pytest's own closing
line has them (passed, failed, errors, skipped, xfailed, xpassed, deselected) and every skip's
reason with its count, so the summary can say when a whole engine or the real model was skipped.

It takes the variable out of the environment when pytest starts, so a pytest that a test runs in
turn (a nested run, a recipe's copy of the repository) never writes into the stage's record.
"""

from __future__ import annotations

import json
import os
from collections import Counter

FILE = "AGENT_TEAM_STAGE_FILE"
OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed", "deselected")


def pytest_configure(config):
    config._agent_team_stage_file = os.environ.pop(FILE, None)


def skip_reason(report):
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        reason = str(longrepr[2])
    else:
        reason = str(longrepr or "")
    return reason.removeprefix("Skipped: ").strip() or "(no reason given)"


def record(stats):
    """{counts, skips} from the terminal reporter's stats ({outcome: [reports]})."""
    # As pytest's own closing line counts them: one per report kept under the outcome.
    counts = {outcome: len(stats.get(outcome, [])) for outcome in OUTCOMES}
    skips = Counter(skip_reason(r) for r in stats.get("skipped", []))
    return {"counts": counts, "skips": sorted(skips.items(), key=lambda kv: (-kv[1], kv[0]))}


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    path = getattr(config, "_agent_team_stage_file", None)
    if not path:
        return
    line = record(terminalreporter.stats)
    line["exitstatus"] = int(exitstatus)
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")
