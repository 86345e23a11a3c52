""""Test connection": one tiny call to a model, and what went wrong in words a learner can act on.

The client already says every failure in words (:mod:`.wire`, :mod:`.http`); this sorts them into
the few things a learner can fix: the key, the model name or address, CORS, the network, the
time, the rate, the server. The text comes from the model object, which has scrubbed its key
out of it, so nothing here ever holds the key.
"""

import time
from dataclasses import dataclass

from .http import IN_BROWSER, ModelError

__all__ = ["Connection", "check_connection", "diagnose", "PROMPT"]

PROMPT = 'Reply with this JSON object and nothing else: {"ok": true}'

# kind -> what to try, after the client's own words
_TRY = {
    "key": "paste the key again (the next cell asks for it), and check that it is for this provider",
    "model": "check the model's name as the provider spells it, and the address (most end in /v1)",
    "cors": "this server does not answer pages from other sites: see the table in docs/models.md for what "
            "to set on it, or serve the course from 127.0.0.1",
    "network": "check that the server is running and the address is right (a local server: is it started?)",
    "timeout": "the model is slow or busy: try again, or give each call more seconds",
    "rate": "wait a minute, or use a model with a higher limit",
    "server": "the provider failed; try again later",
    "request": "the server refused what was sent; for a server without structured replies pass structured=False",
}


@dataclass(frozen=True)
class Connection:
    """The outcome of one test call: ``ok``, ``kind`` (``"ok"`` or one of the fixable kinds), words."""

    ok: bool
    kind: str
    words: str
    seconds: float
    usage: dict | None = None


def diagnose(err):
    """``(kind, words)`` for a :class:`ModelError` from a test call: what happened, then what to try."""
    text, status = str(err), getattr(err, "status", None)
    if getattr(err, "failure", None) == "timeout":
        kind = "timeout"
    elif status == 0:  # a browser cannot tell a CORS refusal from nothing listening; it says both
        kind = "cors" if IN_BROWSER else "network"
    elif status in (401, 403):
        kind = "cors" if "CORS" in text else "key"
    elif status == 404:
        kind = "model"
    elif status == 429:
        kind = "rate"
    elif isinstance(status, int) and status >= 500:
        kind = "server"
    elif isinstance(status, int):
        kind = "request"
    elif "nothing answered" in text or "connection to" in text:
        kind = "network"
    else:  # an answer that is not the API's (an HTML page, a cut-off body): the address is wrong
        kind = "model"
    return kind, f"{text}. What to try: {_TRY[kind]}."


def check_connection(model, seconds=30.0):
    """Call ``model`` once with a tiny prompt; a :class:`Connection`, never an exception."""
    if not callable(model):
        raise TypeError(f"model must be a model from openai_chat or anthropic_messages, not {type(model).__name__}")
    started, limited = time.monotonic(), _limited(model, seconds)
    try:
        reply = limited(PROMPT)
    except ModelError as err:
        kind, words = diagnose(err)
        return Connection(False, kind, words, round(time.monotonic() - started, 2))
    except Exception as err:  # noqa: BLE001 -- a model of the learner's own: its failure, in words
        from ..limits import describe_error
        return Connection(False, "request", f"the model raised {describe_error(err)}",
                          round(time.monotonic() - started, 2))
    took = round(time.monotonic() - started, 2)
    usage = getattr(limited, "last_usage", None)
    said = reply if isinstance(reply, str) else repr(reply)
    return Connection(True, "ok", f"the model answered in {took:g} s: {said[:80]!r}", took, usage)


def _limited(model, seconds):
    """The model with each call held to ``seconds`` (a copy; the learner's model keeps its own limit)."""
    if hasattr(model, "for_role") and hasattr(model, "seconds"):
        copy = model.for_role(None)
        copy.seconds = min(copy.seconds, seconds)
        return copy
    return model
