"""Real models for the LLM slot, the same code in CPython and in the browser's kernel.

    coder = llm_policy("coder", openai_chat("https://api.openai.com/v1", "gpt-4o-mini",
                                            key=ask_key("OPENAI_API_KEY")), seconds=60)
    result = supervise(coder=coder, seconds=200)
    total_usage(result.trace)      # {"prompt_tokens": ..., "completion_tokens": ..., "calls": ...}

- :func:`openai_chat`: Chat Completions (OpenAI, OpenRouter, Groq, vLLM, llama-server, LM Studio,
  Ollama's /v1); :func:`anthropic_messages`: Anthropic's Messages API.
- :func:`in_tab`: a model run in the learner's own browser tab (llama.cpp in WebAssembly; no key,
  no server), in the course's site only (:mod:`.tab`).
- The key: :func:`ask_key` reads it from an environment variable or asks for it in a password
  box; it is held only in the model object and never printed, traced or saved.
- Model-written code never runs where the key lives: making a model switches the oracle of
  this interpreter to an isolated runner (:mod:`.isolation` says which; the runners live in
  :mod:`agent_team.runners`): in CPython a subprocess (:mod:`agent_team.runners.isolated`, host
  side), in the browser a second worker holding no key that the page starts
  (:mod:`agent_team.runners.browser`).
"""

import os

from ...clip import clip
from ..llm import ScriptedModel
from .client import HttpModel, Secret
from .http import IN_BROWSER, ModelError
from .keys import refuse_misplaced
from .tab import CannotRunHere, in_tab
from .wire import ANTHROPIC, OPENAI

__all__ = ["openai_chat", "anthropic_messages", "in_tab", "CannotRunHere", "ask_key", "NoKey", "total_usage",
           "ModelError", "ScriptedModel"]

MAX_BYTES = 1_000_000  # one reply; a fizzbuzz turn needs a few kilobytes


def _check(base_url, model, key, max_tokens, seconds, max_bytes):
    refuse_misplaced(base_url=base_url, model=model)
    if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
        raise ValueError(f"base_url must be the API's address, like 'https://api.openai.com/v1', "
                         f"not {clip(base_url, 60)!r}")
    if not isinstance(model, str) or not model.strip():
        raise ValueError("model must be the model's name as the server knows it, like 'gpt-4o-mini'")
    if key is not None and (not isinstance(key, (str, Secret))):
        raise TypeError(f"key must be a str (from ask_key()) or None for a server that needs none, "
                        f"not {type(key).__name__}")
    for name, value in (("max_tokens", max_tokens), ("max_bytes", max_bytes)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a whole number >= 1, not {value!r}")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0:
        raise ValueError(f"seconds must be a number > 0 (the most one call may take), not {seconds!r}")


def _make(wire, base_url, model, key, structured, max_tokens, temperature, seconds, max_bytes):
    _check(base_url, model, key, max_tokens, seconds, max_bytes)
    made = HttpModel(wire, base_url.rstrip("/"), model, key, structured=bool(structured),
                     max_tokens=max_tokens, temperature=temperature, seconds=seconds, max_bytes=max_bytes)
    from .isolation import protect  # the oracle's runner for this interpreter
    protect(made.has_key)
    return made


def openai_chat(base_url, model, *, key=None, structured=True, max_tokens=1024, temperature=0.0,
                seconds=60.0, max_bytes=MAX_BYTES):
    """A model over OpenAI Chat Completions at ``base_url`` (which ends in /v1 on most servers).

    ``key=None`` for a local server that needs none. ``structured=True`` asks the server to hold
    each reply to the role's JSON schema; pass False to a server that rejects ``response_format``.
    """
    return _make(OPENAI, base_url, model, key, structured, max_tokens, temperature, seconds, max_bytes)


def anthropic_messages(model, *, key=None, base_url="https://api.anthropic.com/v1", structured=True,
                       max_tokens=1024, temperature=0.0, seconds=60.0, max_bytes=MAX_BYTES):
    """A model over Anthropic's Messages API; ``structured=True`` forces a tool call shaped like the reply."""
    return _make(ANTHROPIC, base_url, model, key, structured, max_tokens, temperature, seconds, max_bytes)


class NoKey(ValueError):
    """No key was typed: said in words, and ``how`` to give one here (the connect form shows it; a
    browser has no environment)."""

    def __init__(self, how):
        super().__init__(f"no key was given: {how}")
        self.how = how


def ask_key(env="OPENAI_API_KEY", prompt=None):
    """The key, from the environment variable ``env`` if it is set, else typed into a password box.

    In the browser's kernel ``getpass`` shows a password box whose text is not saved with the
    notebook. Pass the result straight to a model (``key=ask_key()``), so no variable holds it.
    An empty box is asked once more; a second empty one raises :class:`NoKey`, whose words say how
    to give a key here (a browser has no environment variables, so they are named only in CPython).
    A key is checked as every key is (:func:`.keys.check_key`): a trailing line break is removed,
    with a warning; a space, a line break or a control character inside is refused in words.
    """
    value = os.environ.get(env, "") if env and not IN_BROWSER else ""
    if not value:
        import getpass
        where = "" if IN_BROWSER or not env else f" (or set {env})"
        value = getpass.getpass(prompt or f"API key{where}: ")
        if not value.rstrip("\r\n"):
            value = getpass.getpass("The box was empty. Paste the API key and press Enter: ")
    if not value.rstrip("\r\n"):
        how = ("run the cell again and paste the key into the box" if IN_BROWSER or not env else
               f"paste the key into the box, or set the environment variable {env}")
        raise NoKey(how)
    return Secret(value)


def total_usage(trace):
    """Token counts summed over every model call recorded in a run's trace (or a RunResult)."""
    trace = getattr(trace, "trace", trace)
    total = {"prompt_tokens": 0, "completion_tokens": 0, "calls": 0}
    for event in trace:
        for attempt in event.get("attempts") or ():
            usage = attempt.get("usage")
            if isinstance(usage, dict):
                total["calls"] += 1
                for name in ("prompt_tokens", "completion_tokens"):
                    if isinstance(usage.get(name), int):
                        total[name] += usage[name]
    return total
