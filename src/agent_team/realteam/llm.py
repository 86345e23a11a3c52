"""The LLM slot: turn any ``prompt -> str`` function into a role policy.

A fake policy and a model-backed one fill the same slot with the same output
schema (see :mod:`agent_team.policies`); only the inside differs::

    view --build_prompt--> prompt --model--> reply --parse_reply--> output

Models answer in free text, so the adapter is defensive: it tolerates a
```json fence around the reply, checks the schema, and on a bad reply asks
again (at most ``retries`` more times) with the problem spelled out. A model
that raises or hangs is a failed attempt, never a crash; when every attempt
fails the role does nothing this turn and says why. Every attempt (prompt,
reply, error, and ``failure``: None, "timeout", "error" or "bad reply"; ``status`` and
``retry_after`` from a client's error; ``usage``, the token counts, from a client that reports
them; ``decision``, what was decided after it, and on the last failed one ``stop``) is kept in
``output["attempts"]`` and in ``policy.history``.

Whether to try again after a failed attempt is a *retry decision* (:mod:`agent_team.realteam.retry`,
exercise 7.1): ``llm_policy(role, model, retry=decide)`` asks ``decide(attempts, budget)``,
within the turn's attempts and time; without one, every failure is tried again, at once or after
the wait a server asked for (a 429's ``retry_after``). This is the only place a failed call is
waited for: the client raises, the decision decides, the clock waits, the trace records it.

What a model writes is data. Its patches go through the same allowlist as
any fake's, and the oracle stays the only success signal. Never ``exec``
model-written code outside a real sandbox: the browser tab is not one.

Plugging in a real model is one function ``prompt -> str``; :mod:`agent_team.realteam.models` makes
one for OpenAI-compatible servers and for Anthropic, in CPython and in the browser, with a
key asked for at run time and never stored::

    coder = llm_policy("coder", openai_chat(URL, MODEL, key=ask_key()), seconds=60)
    supervise(coder=coder, seconds=200)   # the supervisor's limit covers all attempts

A model with a ``for_role(role)`` method is given its role once (a client then asks the
server for that role's reply schema); one with ``last_usage`` has its token counts recorded.
"""

import json
import re

from ..clip import clip
from ..limits import call_limited, describe_error, time_left
from ..policies import BadOutput, check_output, read_verdict
from ..repo import ALLOWLIST, MAX_PATCHES, REVIEW_PATH
from .retry import Clock, retry_every_failure, run_attempts, stop_words
from ..roles import PROMPTS, ROLES

__all__ = ["BadReply", "build_prompt", "parse_reply", "call_model", "llm_policy", "ScriptedModel"]


RECORD_CAP = 4_000  # characters of each prompt and reply kept per attempt

_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n(.*?)```", re.DOTALL)


class BadReply(ValueError):
    """A model's reply cannot be used; ``str(err)`` is what the model is told on its next attempt."""


def build_prompt(role, goal, view, system_prompt=None, problem=None):
    """The full prompt for one attempt: system prompt, role tag, the role's view, the reply format.

    The role tag matters: roles that share a transcript without one start
    imitating each other. ``problem`` is the previous attempt's error.
    """
    if not isinstance(view, dict):
        raise TypeError(f"view must be the dict the supervisor passes (see agent_team.views), "
                        f"not {type(view).__name__}")
    schema = {"role": role, "thought": "one short sentence", "message": "one short sentence",
              "patches": [{"path": sorted(ALLOWLIST[role])[0], "content": "the whole new file"}]}
    parts = [system_prompt or PROMPTS[role], f"Role: {role}", f"Goal: {goal}",
             f"You may write only: {', '.join(sorted(ALLOWLIST[role]))}"]
    for name, value in view.items():
        if name != "goal":
            shown = value if isinstance(value, str) else json.dumps(value, indent=1)
            parts.append(f"## {name}\n{shown}")
    parts.append("Reply with one JSON object and nothing else, like:\n" + json.dumps(schema))
    if REVIEW_PATH in ALLOWLIST[role]:
        parts.append(f'The content of {REVIEW_PATH} is itself JSON: '
                     '{"verdict": "approve" or "request_changes", "notes": "..."}')
    if problem:
        parts.append(f"Your previous reply could not be used: {problem}. Reply again, with only the JSON object.")
    return "\n\n".join(parts)


def _decode(reply):
    """JSON from a reply: as it is, inside a ```json fence, or the one object amid prose."""
    fenced = _FENCE.search(reply)
    text = fenced.group(1) if fenced else reply
    try:
        return json.loads(text)
    except ValueError as err:
        first = err
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:  # "Here is my answer: {...}" is common and harmless
        try:
            return json.loads(text[start:end + 1])
        except ValueError:
            pass
    raise first


def parse_reply(role, reply):
    """The output a reply stands for, checked; :class:`BadReply` says what is wrong with it."""
    if not isinstance(reply, str):
        raise BadReply(f"the model returned {type(reply).__name__}, not text")
    try:
        data = _decode(reply)
    except ValueError as err:
        where = f" at line {err.lineno} column {err.colno}" if hasattr(err, "lineno") else ""
        raise BadReply(f"the reply is not JSON ({getattr(err, 'msg', err)}{where})") from None
    except RecursionError:
        raise BadReply("the reply is JSON nested too deeply to read") from None
    if not isinstance(data, dict):
        raise BadReply(f"the reply is a JSON {type(data).__name__}; it must be one object")
    if "patches" not in data:
        raise BadReply('the reply has no "patches"; write "patches": [] to change nothing')
    try:
        out = check_output(role, data)
    except BadOutput as err:
        raise BadReply(f"the reply breaks the output schema: {err}") from None
    if len(out["patches"]) > MAX_PATCHES:
        raise BadReply(f"the reply has {len(out['patches'])} patches; at most {MAX_PATCHES}")
    for i, patch in enumerate(out["patches"]):
        if not isinstance(patch, dict) or set(patch) != {"path", "content"} or \
                not all(isinstance(patch[k], str) for k in ("path", "content")):
            raise BadReply(f'patch {i} must be {{"path": str, "content": str}} and nothing else')
        if patch["path"] == REVIEW_PATH and REVIEW_PATH in ALLOWLIST[role]:
            _, problem = read_verdict(patch["content"])
            if problem:
                raise BadReply(problem)
    return out


def call_model(model, prompt, seconds):
    """One call ``model(prompt)`` limited to ``seconds``: ``(reply, failure, error)``.

    ``failure`` is None when the model answered (``reply`` is then whatever it returned),
    else "timeout" or "error" as the trace's turns say it, and ``error`` says so in words.
    """
    reply, failure, error, _ = _call(model, prompt, seconds)
    return reply, failure, error


def _call(model, prompt, seconds):
    """:func:`call_model`, and the HTTP facts of a failed call: ``{"status", "retry_after"}``."""
    call = call_limited(model, prompt, seconds=seconds)
    facts = {"status": None, "retry_after": None}
    if call.kind == "timeout":
        return None, "timeout", f"the model did not answer within {seconds:g} s", facts
    own = getattr(call.error, "failure", None)
    if call.kind == "error" and own in ("timeout", "error"):  # a client's own words (agent_team.realteam.models)
        facts = {"status": _whole(getattr(call.error, "status", None)),
                 "retry_after": _seconds(getattr(call.error, "retry_after", None))}
        return None, own, f"the model call failed: {clip(str(call.error), 600)}", facts
    if call.kind == "error":
        return None, "error", f"the model raised {describe_error(call.error)}", facts
    return call.value, None, None, facts


def _whole(value):
    return value if type(value) is int else None


def _seconds(value):
    return float(value) if type(value) in (int, float) and value >= 0 and value == value else None


def llm_policy(role, model, system_prompt=None, retries=2, *, seconds=30.0, retry=None, turn_seconds=None,
               clock=None):
    """A policy ``(goal, view) -> output`` for ``role`` that asks ``model(prompt) -> str``.

    At most ``1 + retries`` calls per turn, each limited to ``seconds``. After a failed call,
    ``retry(attempts, budget)`` decides: try again after a wait, or stop and why
    (:mod:`agent_team.realteam.retry`; without one, every failure is tried again, after a 429's
    ``retry_after`` or at once). A turn's
    attempts and waits fit in ``turn_seconds`` (by default what is left of the caller's time
    limit, else ``(1 + retries) * seconds``), read from ``clock`` (real time by default). The
    returned policy keeps every turn's attempts in ``policy.history``.
    """
    if role not in ROLES:
        raise ValueError(f"role is {role!r}; write one of {', '.join(ROLES)}")
    if not callable(model):
        raise TypeError(f"model must be a function prompt -> str, not {type(model).__name__}")
    if system_prompt is not None and not isinstance(system_prompt, str):
        raise TypeError(f"system_prompt must be a str or None (for the default), not {type(system_prompt).__name__}")
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise ValueError(f"retries must be a whole number >= 0 (extra attempts after the first), not {retries!r}")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0:
        raise ValueError(f"seconds must be a number > 0 (the limit per model call), not {seconds!r}")
    if retry is not None and not callable(retry):
        raise TypeError(f"retry must be a function (attempts, budget) -> decision, or None, not {type(retry).__name__}")
    if turn_seconds is not None and (isinstance(turn_seconds, bool) or not isinstance(turn_seconds, (int, float))
                                     or not turn_seconds > 0):
        raise ValueError(f"turn_seconds must be a number > 0 (a turn's time, every attempt and wait), "
                         f"or None, not {turn_seconds!r}")
    decide, clock = retry or retry_every_failure, clock or Clock()
    if callable(getattr(model, "for_role", None)):  # a client that holds each role to its reply schema
        model = model.for_role(role)
    history = []

    def policy(goal, view):
        problem = None

        def attempt(n):
            nonlocal problem
            prompt = build_prompt(role, goal, view, system_prompt, problem)
            reply, failure, error, facts = _call(model, prompt, seconds)
            if failure is None:
                try:
                    made["out"] = parse_reply(role, reply)
                except BadReply as err:
                    # Only a reply's own problem is fed back; a crash or a timeout
                    # is nothing the model said, so the prompt stays as it was.
                    error = problem = str(err)
                    failure = "bad reply"
            record = {"attempt": n, "prompt": clip(prompt, RECORD_CAP, count=True),
                      "reply": clip(reply, RECORD_CAP, count=True) if isinstance(reply, str) else None,
                      "error": error, "failure": failure, **facts}
            if hasattr(model, "last_usage"):  # token counts, from a client that reports them
                record["usage"] = _usage(model.last_usage)
            return record

        made = {}
        left = time_left()
        budget = turn_seconds or (left if left is not None else (1 + retries) * seconds)
        attempts, reason = run_attempts(attempt, decide, attempts=1 + retries, seconds=budget, clock=clock)
        history.append(attempts)
        if reason is None:
            return {**made["out"], "attempts": attempts}
        attempts[-1]["stop"] = reason
        error = attempts[-1]["error"]
        why = f"no usable reply in {len(attempts)} attempt{'s' if len(attempts) > 1 else ''}; last: {error}"
        if retry is not None:  # the learner's words for why it stopped (the default's are the old ones)
            why += f"; stopped: {stop_words(reason)}"
        return {"role": role, "thought": why, "patches": [], "message": f"no change: {why}",
                "attempts": attempts}

    policy.__name__ = policy.__qualname__ = f"llm_{role}"
    policy.role, policy.model, policy.history = role, model, history
    return policy


def _usage(value):
    """A client's token counts as the trace keeps them: whole numbers or None, nothing else."""
    if not isinstance(value, dict):
        return None
    return {name: value.get(name) if type(value.get(name)) is int else None
            for name in ("prompt_tokens", "completion_tokens")}


class ScriptedModel:
    """A fake model for tests and notebooks: answers from a list, the last answer repeating.

    An answer that is an exception instance is raised instead of returned.
    Every prompt it was given is kept in ``prompts``.
    """

    def __init__(self, replies):
        replies = list(replies) if isinstance(replies, (list, tuple)) else None
        if not replies:
            raise ValueError("replies must be a non-empty list of str (or exceptions to raise)")
        self.replies, self.prompts = replies, []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        answer = self.replies[min(len(self.prompts), len(self.replies)) - 1]
        if isinstance(answer, BaseException):
            raise answer
        return answer
