"""The roles table: every row is complete, and everything said to derive from it does."""

import pytest

from agent_team import roles
from agent_team.realteam.config import TeamConfig, load_config
from agent_team.realteam.contracts import Handoff
from agent_team.realteam.llm import build_prompt
from agent_team.policies import DEFAULT_POLICIES
from agent_team.render.diagram import SUPERVISOR
from agent_team.repo import ALLOWLIST, TESTS_PATH, apply_turn, initial_repo
from agent_team.supervisor import supervise
from agent_team.views import FACTS, VIEW_FIELDS, make_view


@pytest.mark.parametrize("row", roles.TABLE, ids=lambda row: row.name)
def test_every_role_is_complete(row):
    assert row.optional or row.name in DEFAULT_POLICIES, f"give the {row.name} a fake in policies.DEFAULT_POLICIES"
    assert set(row.sees) <= set(FACTS), f"the {row.name} is shown facts no view has: {set(row.sees) - set(FACTS)}"
    assert TESTS_PATH not in row.writes  # no role can change what "passing" means
    assert row.prompt.strip() and row.state in SUPERVISOR.nodes


def test_names_states_and_files_are_unique():
    names = [r.name for r in roles.TABLE]
    states = [r.state for r in roles.TABLE]
    files = [p for r in roles.TABLE for p in r.writes]
    assert len(set(names)) == len(names) and len(set(states)) == len(states) and len(set(files)) == len(files)
    assert roles.ROLES == tuple(names)
    on_team = [r for r in roles.TABLE if not r.optional]
    assert all(any(r.turn == t for r in on_team) for t in roles.TURNS)  # someone plans, codes and reviews


@pytest.mark.parametrize("row", roles.TABLE, ids=lambda row: row.name)
def test_everything_else_derives_from_the_row(row):
    name = row.name
    assert ALLOWLIST[name] == row.writes and VIEW_FIELDS[name] == row.sees
    assert tuple(make_view(name, "goal", initial_repo(), [])) == row.sees
    path = sorted(row.writes)[0]
    assert apply_turn(initial_repo(), name, [{"path": path, "content": "x"}])[1] is None
    assert build_prompt(name, "goal", make_view(name, "goal", initial_repo(), [])).startswith(row.prompt)
    assert TeamConfig()[name].system_prompt == row.prompt
    assert load_config(f'[agents.{name}]\nname = "Sam"')[name].name == "Sam"
    assert Handoff(role=name, summary="s", status="success", next_action="n").role == name


def test_the_supervisor_gives_every_role_its_turns_in_table_order():
    run = supervise(max_rounds=1, require_plan=False)
    spoke = [e["role"] for e in run.trace if e["type"] == "turn"]
    on_team = [n for t in roles.TURNS for n in roles.roles_at(t) if not roles.role(n).optional]
    assert spoke == on_team
    assert all(e["state"] == roles.role(e["role"]).state for e in run.trace if e["type"] == "turn")


def test_a_bad_row_or_name_is_a_clear_error():
    with pytest.raises(ValueError, match="turn is 'later'; write one of plan, code, review"):
        roles.Role("tester", "later", "TEST2", frozenset({"T.md"}), ("goal",), "p")
    with pytest.raises(ValueError, match="writes nothing"):
        roles.Role("tester", "code", "TEST2", frozenset(), ("goal",), "p")
    with pytest.raises(KeyError, match="no role 'tester'; the roles are planner, coder, reviewer"):
        roles.role("tester")
