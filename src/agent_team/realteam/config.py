"""Per-role configuration: who fills each slot, with which system prompt and which model.

A small TOML (or JSON) file describes the team; roles it leaves out get the
defaults (the course's fake policy and the default system prompt)::

    model = "fake"                 # every role without a model of its own

    [agents.coder]
    name = "Ada"
    model = "my-model"             # a name you map to a prompt -> str function
    system_prompt = "Write src/fizzbuzz.py only. JSON patches only."

A file holds names, never functions or keys: ``team.policies(models={"my-model": ask})``
turns each name into a policy, with ``"fake"`` meaning the course's fake.
``[agents.executor]`` is read as ``[agents.coder]`` (the name the design notes' tool uses).
"""

import dataclasses
import difflib
import json
import os
import tomllib
from dataclasses import dataclass

from ..clip import safe_repr
from ..limits import describe_error
from .llm import llm_policy
from ..policies import DEFAULT_POLICIES
from ..roles import PROMPTS, ROLES

__all__ = ["FAKE", "RoleConfig", "TeamConfig", "load_config"]

FAKE = "fake"  # the model name that means: the course's scripted fake policy
TOP_FIELDS = ("model", "agents")
ROLE_FIELDS = ("name", "system_prompt", "model")
# Words people reach for from other tools; the message names ours instead.
_SYNONYMS = {"executor": "coder", "prompt": "system_prompt", "system": "system_prompt",
             "model_name": "model", "llm": "model", "agent": "agents", "roles": "agents"}
# Role tables read under another name. The planner/executor/reviewer tool of the design notes
# calls the role that carries out a step the executor, so its [agents.executor] fills our coder
# slot and its config files load unchanged; a file may name the slot only once.
ROLE_ALIASES = {"executor": "coder"}


@dataclass
class RoleConfig:
    """One role slot: display name, system prompt, and either a model name or a policy function."""

    role: str
    name: str | None = None           # None: the role's own name
    system_prompt: str | None = None  # None: PROMPTS[role]
    model: str | None = None          # None: the fake, unless a policy is given
    policy: object = None             # a function (goal, view) -> output, set from Python only

    def __post_init__(self):
        if self.role not in ROLES:
            raise ValueError(f"role is {self.role!r}; write one of {', '.join(ROLES)}")
        for key in ("name", "system_prompt", "model"):
            value = getattr(self, key)
            if value is not None and not isinstance(value, str):
                raise ValueError(f"{self.role}.{key} must be a str, not {type(value).__name__}")
        if self.model is not None and not self.model.strip():
            raise ValueError(f"{self.role}.model is empty; write a model name, or leave it out for the fake")
        if self.policy is not None and not callable(self.policy):
            raise ValueError(f"{self.role}.policy must be a function (goal, view) -> output, "
                             f"not {type(self.policy).__name__}")
        if self.policy is not None and self.model is not None:
            raise ValueError(f"{self.role} has both a model and a policy; keep one")
        self.name = self.role if self.name is None else self.name
        self.system_prompt = PROMPTS[self.role] if self.system_prompt is None else self.system_prompt

    def make_policy(self, models=None):
        """The function that fills this slot: the given policy, the fake, or an LLM policy.

        None for an optional role (see roles.py) given neither: it then sits the run out.
        """
        if self.policy is not None:
            return self.policy
        if self.model is None or self.model == FAKE:
            return DEFAULT_POLICIES.get(self.role)
        models = models or {}
        if self.model not in models:
            known = ", ".join(sorted(models)) or "none"
            raise ValueError(f"the {self.role}'s model {self.model!r} is not among the models given "
                             f"({known}); pass models={{{self.model!r}: ask}} with ask(prompt) -> str, "
                             f"or set model = {FAKE!r}")
        return llm_policy(self.role, models[self.model], self.system_prompt)


class TeamConfig:
    """A configuration for every role of the table in roles.py; ``team["coder"]`` or ``team.coder`` reads one.

    ``TeamConfig(coder=RoleConfig("coder", ...))``: roles left out get ``RoleConfig(role)``.
    """

    def __init__(self, **slots):
        for role, slot in slots.items():
            if role not in ROLES:
                raise _unknown("TeamConfig", role, ROLES, "role")
            if slot is not None and (not isinstance(slot, RoleConfig) or slot.role != role):
                raise ValueError(f"{role} must be a RoleConfig for the {role} (RoleConfig({role!r}, ...)), "
                                 f"not {safe_repr(slot, 60)}")
        self._slots = {role: slots.get(role) or RoleConfig(role) for role in ROLES}

    def __getattr__(self, name):
        slots = self.__dict__.get("_slots", {})
        if name in slots:
            return slots[name]
        raise AttributeError(f"a TeamConfig has no {name!r}; the roles are {', '.join(ROLES)}")

    def __getitem__(self, role):
        if role not in ROLES:
            raise KeyError(f"no role {role!r}; the roles are {', '.join(ROLES)}")
        return self._slots[role]

    def __eq__(self, other):
        return isinstance(other, TeamConfig) and self._slots == other._slots

    def __repr__(self):
        return f"TeamConfig({', '.join(f'{r}={s!r}' for r, s in self._slots.items())})"

    def policies(self, models=None):
        """``{role: fn}`` for every role that plays, ready for ``supervise(**team.policies())``."""
        chosen = {role: self[role].make_policy(models) for role in ROLES}
        return {role: fn for role, fn in chosen.items() if fn is not None}

    def to_dict(self):
        """The configuration as it would be written in a file (policies shown by name)."""
        out = {}
        for role in ROLES:
            slot = dataclasses.asdict(self[role])
            slot.pop("role")
            policy = slot.pop("policy")
            slot = {k: v for k, v in slot.items() if v is not None}
            if policy is not None:
                slot["policy"] = getattr(policy, "__name__", repr(policy))
            out[role] = slot
        return {"agents": out}


def _unknown(where, key, fields, noun="field"):
    """The error for a key we do not know, naming the one meant when we can tell."""
    meant = _SYNONYMS.get(str(key).lower())
    if meant is None or meant not in fields:
        # a misspelt synonym ('executer') counts as the synonym, so it names our word too
        words = [*fields, *(w for w, ours in _SYNONYMS.items() if ours in fields)]
        near = difflib.get_close_matches(str(key), words, n=1)
        meant = _SYNONYMS.get(near[0], near[0]) if near else None
    hint = f"write {meant!r} instead" if meant else f"the {noun}s here are {', '.join(fields)}"
    return ValueError(f"{where}: unknown {noun} {key!r}; {hint}")


def _read(source):
    """``(data, where)`` from TOML/JSON text, a path to a .toml/.json file, or an already-parsed dict."""
    if isinstance(source, dict):
        return source, "config"
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                           and source.strip().lower().endswith((".toml", ".json"))):
        path = os.fspath(source).strip()
        try:
            with open(path, "rb") as handle:
                text = handle.read().decode("utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise ValueError(f"cannot read the config file {path!r} ({describe_error(err)}); check the path, "
                             "or pass the TOML or JSON text itself") from None
        return _parse(text, path.lower().endswith(".json"), f"config file {path!r}"), f"config file {path!r}"
    if not isinstance(source, str):
        raise ValueError(f"load_config takes TOML or JSON text, a path, or a dict, not {type(source).__name__}")
    return _parse(source, source.lstrip().startswith("{"), "config"), "config"


def _parse(text, is_json, where):
    if is_json:
        try:
            return json.loads(text)
        except ValueError as err:
            raise ValueError(f"{where} is not valid JSON ({err}); keys and strings need double quotes "
                             "and there is no comma after the last item") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{where} is not valid TOML ({err}); strings need quotes, as in "
                         'model = "fake", and role tables look like [agents.coder]') from None


def load_config(source):
    """A :class:`TeamConfig` from TOML or JSON text, a ``.toml``/``.json`` path, or a dict.

    Any mistake raises ``ValueError`` naming the field and what to write instead.
    """
    data, where = _read(source)
    if not isinstance(data, dict):
        raise ValueError(f"{where}: the top level must be a table (a JSON object), not {type(data).__name__}")
    for key in data:
        if key not in TOP_FIELDS:
            if key in ROLES:
                raise ValueError(f"{where}: {key!r} must sit under agents; write [agents.{key}]")
            raise _unknown(where, key, TOP_FIELDS)
    default = data.get("model")
    if default is not None and (not isinstance(default, str) or not default.strip()):
        raise ValueError(f"{where}: model must be a model name in quotes, like model = {FAKE!r}, "
                         f"not {safe_repr(default, 40)}")
    agents = data.get("agents", {})
    if not isinstance(agents, dict):
        raise ValueError(f"{where}: agents must be a table of roles, like [agents.coder], not {type(agents).__name__}")
    slots, written = {}, {}  # role -> its RoleConfig, and the table name the file used for it
    for name, table in agents.items():
        role = ROLE_ALIASES.get(name, name)
        if role not in ROLES:
            raise _unknown(f"{where}: agents", name, ROLES, "role")
        if role in written:
            alias = name if name != role else written[role]
            raise ValueError(f"{where}: [agents.{written[role]}] and [agents.{name}] both configure the {role}; "
                             f"keep one of them ({alias} is another name for {role})")
        written[role] = name
        if not isinstance(table, dict):
            raise ValueError(f"{where}: agents.{name} must be a table with {', '.join(ROLE_FIELDS)}, "
                             f"not {type(table).__name__}")
        for key, value in table.items():
            if key not in ROLE_FIELDS:
                raise _unknown(f"{where}: agents.{name}", key, ROLE_FIELDS)
            if not isinstance(value, str):
                raise ValueError(f"{where}: agents.{name}.{key} must be a string in quotes, "
                                 f'like {key} = "...", not {type(value).__name__} {safe_repr(value, 40)}')
            if key == "model" and not value.strip():
                raise ValueError(f"{where}: agents.{name}.model is empty; write a model name, "
                                 f"or leave it out to use the default")
        slots[role] = RoleConfig(role, table.get("name"), table.get("system_prompt"), table.get("model", default))
    return TeamConfig(**{role: slots.get(role) or RoleConfig(role, model=default) for role in ROLES})
