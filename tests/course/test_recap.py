"""The one-page recap sheet (notebooks/recap.md) ships with the site and states the engine's facts."""

import inspect
import json
import re
from pathlib import Path

import pytest

from agent_team import roles
from agent_team.realteam.contracts import ACTIONS
from agent_team.realteam.gate import PRECEDENCE
from agent_team.repo import ALLOWLIST, MAX_CONTENT, MAX_PATCHES, TESTS_PATH
from agent_team.supervisor import supervise
from agent_team.views import VIEW_FIELDS

ROOT = Path(__file__).resolve().parents[2]
RECAP = ROOT / "notebooks" / "recap.md"
if not RECAP.exists():  # the Pyodide run copies the engine and its tests, not the notebooks
    pytest.skip("notebooks/recap.md is not in this copy of the repository", allow_module_level=True)
TEXT = RECAP.read_text(encoding="utf-8")


def test_it_fits_on_one_printed_page():
    lines = TEXT.splitlines()
    assert len(lines) <= 90 and max(len(line) for line in lines) <= 120


def test_it_is_shipped_with_the_site_and_linked_from_the_readme_and_the_last_part():
    config = json.loads((ROOT / "jupyter_lite_config.json").read_text())["LiteBuildConfig"]
    assert "notebooks" in config["contents"]
    assert not any(re.search(pattern, "/recap.md") for pattern in config.get("extra_ignore_contents", []))
    assert "notebooks/recap.md" in (ROOT / "README.md").read_text(encoding="utf-8")
    last = sorted((ROOT / "notebooks" / "source").glob("[0-9][0-9]_*.py"))[-1]
    assert "recap.md" in last.read_text(encoding="utf-8")


def test_every_state_the_supervisor_can_be_in_is_on_the_sheet():
    states = set(re.findall(r'state="([A-Z_]+)"', inspect.getsource(inspect.getmodule(supervise))))
    states |= {"STOP_OK", "STOP_FAIL", "START"}
    states.discard("FAULT")  # injected faults are part 4's tool, not a state of a healthy run
    diagram = TEXT.split("```")[1]
    assert states <= set(re.findall(r"[A-Z_]{4,}", diagram)), states


def test_the_tables_and_rules_match_the_engine():
    for role, paths in ALLOWLIST.items():
        if roles.role(role).optional:
            continue  # not on the default team the sheet describes: it plays only when given a policy
        row = next(line for line in TEXT.splitlines() if line.startswith(f"| {role} |"))
        assert all(f"`{p}`" in row for p in paths), role
        assert all(field.replace("_", " ") in row for field in VIEW_FIELDS[role]), role
    assert TESTS_PATH in TEXT
    assert f"more than {MAX_PATCHES} patches" in TEXT and f"over {MAX_CONTENT:,} characters" in TEXT
    assert all(f"`{action}`" in TEXT for action in ACTIONS) and all(kind in TEXT for kind in PRECEDENCE)
