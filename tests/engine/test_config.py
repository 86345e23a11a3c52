"""Per-role configuration: loading TOML and JSON, defaults, turning names into policies, every error."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_team.realteam.config import FAKE, RoleConfig, TeamConfig, load_config
from agent_team.realteam.llm import ScriptedModel
from agent_team.policies import DEFAULT_POLICIES
from agent_team.roles import PROMPTS, ROLES

TOML = """
model = "fake"

[agents.coder]
name = "Ada"
model = "small"
system_prompt = "Write src/fizzbuzz.py only."
"""


def test_toml_text_sets_one_role_and_defaults_the_rest():
    team = load_config(TOML)
    assert (team.coder.name, team.coder.model, team.coder.system_prompt) == (
        "Ada", "small", "Write src/fizzbuzz.py only.")
    assert team["planner"].name == "planner" and team.planner.model == FAKE
    assert team.reviewer.system_prompt == PROMPTS["reviewer"]


def test_json_text_and_a_dict_read_the_same():
    data = {"model": "fake", "agents": {"coder": {"name": "Ada", "model": "small",
                                                  "system_prompt": "Write src/fizzbuzz.py only."}}}
    assert load_config(json.dumps(data)) == load_config(TOML) == load_config(data)


def test_files_by_suffix(tmp_path):
    (tmp_path / "team.toml").write_text(TOML, encoding="utf-8")
    (tmp_path / "team.json").write_text(json.dumps({"agents": {"planner": {"name": "Pat"}}}), encoding="utf-8")
    assert load_config(tmp_path / "team.toml") == load_config(TOML)
    assert load_config(str(tmp_path / "team.toml")) == load_config(TOML)
    assert load_config(tmp_path / "team.json").planner.name == "Pat"


def test_an_empty_config_is_all_defaults():
    team = load_config("")
    assert team == TeamConfig() == load_config("{}")
    assert team.policies() == DEFAULT_POLICIES


def test_policies_map_model_names_to_llm_policies():
    model = ScriptedModel(['{"patches": []}'])
    policies = load_config(TOML).policies(models={"small": model})
    assert policies["planner"] is DEFAULT_POLICIES["planner"]
    assert policies["coder"].__name__ == "llm_coder" and policies["coder"].model is model
    policies["coder"]("goal", {"plan": ""})
    assert model.prompts[0].startswith("Write src/fizzbuzz.py only.")


def test_a_policy_given_from_python_fills_the_slot():
    def mine(goal, view):
        return {"role": "coder", "patches": []}
    team = TeamConfig(coder=RoleConfig("coder", policy=mine))
    assert team.policies()["coder"] is mine
    assert team.to_dict()["agents"]["coder"]["policy"] == "mine"


def test_a_model_name_without_a_function_says_how_to_give_one():
    with pytest.raises(ValueError, match=r"'small' is not among the models given \(none\); pass models="):
        load_config(TOML).policies()


@pytest.mark.parametrize("text, words", [
    ('[agents.executer]\nmodel = "m"', "agents: unknown role 'executer'; write 'coder' instead"),
    ('[agents.executor]\nmodel = "m"\n[agents.coder]\nname = "Ada"', "[agents.executor] and [agents.coder] both "
     "configure the coder; keep one of them (executor is another name for coder)"),
    ('[agents.coder]\nname = "Ada"\n[agents.executor]\nmodel = "m"', "[agents.coder] and [agents.executor] both "
     "configure the coder; keep one of them (executor is another name for coder)"),
    ('[agents.executor]\nprompt = "x"', "agents.executor: unknown field 'prompt'; write 'system_prompt' instead"),
    ('[agents.tester]\nmodel = "m"', "unknown role 'tester'; the roles here are planner, coder, reviewer"),
    ('[agents.coder]\nprompt = "x"', "agents.coder: unknown field 'prompt'; write 'system_prompt' instead"),
    ('[agents.coder]\nsystem_promt = "x"', "write 'system_prompt' instead"),
    ('[agents.coder]\ntemperature = 0.2', "unknown field 'temperature'; the fields here are name"),
    ('[agents.coder]\nmodel = 3', "agents.coder.model must be a string in quotes"),
    ('[agents.coder]\nmodel = ""', "agents.coder.model is empty"),
    ('[agents.coder]\nname = ["a"]', "agents.coder.name must be a string"),
    ("model = 3", "model must be a model name in quotes"),
    ('modle = "x"', "unknown field 'modle'; write 'model' instead"),
    ('[coder]\nmodel = "x"', "'coder' must sit under agents; write [agents.coder]"),
    ('agents = "coder"', "agents must be a table of roles"),
    ('[agents]\ncoder = "small"', "agents.coder must be a table"),
    ("model = fake", "not valid TOML"),
    ('{"agents": {"coder": {"model": 1}}}', "agents.coder.model must be a string"),
    ('{"agents": }', "not valid JSON"),
    ("[1, 2]", "not valid TOML"),
])
def test_every_mistake_names_the_field_and_what_to_write(text, words):
    with pytest.raises(ValueError) as err:
        load_config(text)
    assert words in str(err.value)


def test_other_bad_sources(tmp_path):
    with pytest.raises(ValueError, match="cannot read the config file"):
        load_config(str(tmp_path / "missing.toml"))
    (tmp_path / "bad.json").write_text("[1]", encoding="utf-8")
    with pytest.raises(ValueError, match=r"config file .*bad\.json.*top level must be a table"):
        load_config(tmp_path / "bad.json")
    with pytest.raises(ValueError, match="not int"):
        load_config(5)


@pytest.mark.parametrize("make, words", [
    (lambda: RoleConfig("tester"), "role is 'tester'"),
    (lambda: RoleConfig("coder", model=""), "coder.model is empty"),
    (lambda: RoleConfig("coder", name=1), "coder.name must be a str"),
    (lambda: RoleConfig("coder", policy="fake_coder"), "coder.policy must be a function"),
    (lambda: RoleConfig("coder", model="m", policy=print), "both a model and a policy"),
    (lambda: TeamConfig(coder=RoleConfig("planner")), "coder must be a RoleConfig for the coder"),
])
def test_building_a_config_in_python_checks_the_same(make, words):
    with pytest.raises(ValueError, match=words):
        make()


def test_asking_for_an_unknown_role():
    with pytest.raises(KeyError, match="the roles are planner, coder, reviewer"):
        TeamConfig()["tester"]


names = st.text(min_size=1, max_size=12).filter(str.strip)


@settings(deadline=None)  # timing varies on a busy machine; the logic does not
@given(st.dictionaries(st.sampled_from(ROLES), st.fixed_dictionaries(
    {}, optional={"name": st.text(max_size=12), "system_prompt": st.text(max_size=40), "model": names})),
    st.none() | names)
def test_any_valid_config_loads_the_same_from_json_and_a_dict(agents, default):
    data = {"agents": agents} if default is None else {"agents": agents, "model": default}
    team = load_config(json.dumps(data))
    assert team == load_config(data)
    for role in ROLES:
        given_here = agents.get(role, {})
        assert team[role].model == given_here.get("model", default)
        assert team[role].system_prompt == given_here.get("system_prompt", PROMPTS[role])


def test_the_executor_table_of_the_design_notes_fills_the_coder_slot():
    team = load_config('[agents.executor]\nmodel = "gpt-small"\n'
                       'system_prompt = "Execute exactly the approved step and stop."\n')
    assert team["coder"].model == "gpt-small"
    assert team["coder"].system_prompt == "Execute exactly the approved step and stop."
    assert team["planner"].model is None and team["reviewer"].model is None
    assert team.to_dict()["agents"]["coder"]["model"] == "gpt-small"  # written back in the course's word
    assert "executor" not in team.to_dict()["agents"]
