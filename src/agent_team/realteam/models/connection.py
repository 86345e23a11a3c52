""""Test connection": one tiny call to a model, and what went wrong in words a learner can act on.

The client already says every failure in words (:mod:`.wire`, :mod:`.http`); this sorts them into
the few things a learner can fix: the key, the model's name, the address, a server that is not
running, a server a page cannot reach (in the browser: not running, or CORS), a slow model, the
rate, the server. The text comes from the model object, which has scrubbed its key out of it, so
nothing here ever holds the key. :func:`why_no_answer` says the same of a whole run whose every
model call failed, so a stopped server does not look like a model that failed the task.
"""

import time
from dataclasses import dataclass

from .http import IN_BROWSER, ModelError

__all__ = ["Connection", "probe_connection", "diagnose", "failed", "why_no_answer", "probe_listening", "told_apart",
           "PROMPT", "PROBE_TOKENS"]

PROMPT = 'Reply with this JSON object and nothing else: {"ok": true}'
PROBE_TOKENS = 8  # enough for '{"ok": true}'; a test must not cost a whole reply (1,024 tokens took 44 s)

# kind -> what to try, after the client's own words
_TRY = {
    "key": "paste the key again (the next cell asks for it), and check that it is for this provider",
    "model": "check the model's name as the provider spells it",
    "address": "check the address: most OpenAI-compatible servers end in /v1, like http://127.0.0.1:8080/v1",
    "not running": "start the server (or check that it is still running), and check the port in the address",
    # A page sees status 0 for both causes (the browser hides which), so both fixes are given.
    "unreachable": "the page cannot tell these two apart, so check both. (1) Nothing is listening there: "
                   "start the server, and check the port in the address. (2) The server runs but refuses "
                   "pages from other sites (CORS): start it with this page's origin allowed, as said above",
    "cors": "this server refuses pages from other sites (CORS): start it with this page's origin allowed",
    "network": "check the address, and that the server is running",
    "slow": "the model is slow or busy (a small model on a busy machine can take a minute): try again, or give "
            "each call more seconds",
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


_THEN = ". What to try: "  # between what happened and what to try, in every failed connection's words


def _words(said, what_to_try):
    return f"{said}{_THEN}{what_to_try}."


def failed(kind, said, seconds=0.0, *, what_to_try=None):
    """A failed :class:`Connection`: what happened, then what to try (the advice for ``kind`` unless given)."""
    return Connection(False, kind, _words(said, what_to_try or _TRY[kind]), seconds)


def _kind(text, status, failure):
    if failure == "timeout":
        return "slow"
    if status == 0:  # a browser says 0 for nothing listening and for a CORS refusal alike
        return "unreachable" if IN_BROWSER else "not running"
    if status in (401, 403):
        return "cors" if "CORS" in text else "key"
    if status == 404:  # the server names the model when that is what it lacks; else the path is wrong
        said = text.partition('the server said: "')[2].lower()
        return "model" if "model" in said else "address"
    if status == 429:
        return "rate"
    if isinstance(status, int) and status >= 500:
        return "server"
    if isinstance(status, int):
        return "request"
    if "nothing answered" in text:  # CPython: refused means no listener; anything else, no such host
        return "not running" if "refused" in text.lower() else "address"
    if "connection to" in text:
        return "network"
    return "address"  # an answer that is not the API's (an HTML page, a cut-off body): the address is wrong


def diagnose(err):
    """``(kind, words)`` for a :class:`ModelError` from a test call: what happened, then what to try."""
    text = str(err)
    kind = _kind(text, getattr(err, "status", None), getattr(err, "failure", None))
    return kind, _words(text, _TRY[kind])


def why_no_answer(run):
    """Words for a run (or trace) in which every call to the model failed; '' if the model answered once.

    A stopped server ends a run with ``budget`` and no tokens, like a model that failed the task:
    this names the real cause, from the last failed call, as *test connection* would.
    """
    attempts = [a for e in getattr(run, "trace", run) if isinstance(e, dict) for a in (e.get("attempts") or ())]
    if not attempts or any(a.get("failure") in (None, "bad reply") for a in attempts):
        return ""
    last = attempts[-1]
    text = str(last.get("error") or "").removeprefix("the model call failed: ")
    kind, words = diagnose(ModelError(text, last.get("failure") or "error", last.get("status")))
    calls = f"{len(attempts)} call{'s' if len(attempts) > 1 else ''}"
    return f"your model never answered ({calls}, every one failed: {kind}), so this run says nothing about it: {words}"


async def probe_listening(url, seconds=5.0):
    """In the browser: True when something surely answers at ``url``; False when the page saw no answer.

    A page's call refused by CORS and a call to a port nobody listens on both end with status 0.
    A ``fetch`` in ``no-cors`` mode may tell them apart: it resolves with an opaque response for an
    answer (a page may get one without the server's permission, it just cannot read it) and
    rejects on a network error (the Fetch standard; MDN, Response.type "opaque"). A rejection is
    not proof that nothing listens: this site is cross-origin isolated (COEP require-corp), and
    Firefox then refuses the opaque answer of a server that sends no Cross-Origin-Resource-Policy
    (measured: the probe rejected for a listening server there, resolved in Chromium). So only an
    answer is taken as a fact. The probe is a plain GET: no key, no body, nothing read.
    """
    import js
    from pyodide.ffi import to_js
    options = {"mode": "no-cors", "method": "GET", "cache": "no-store", "credentials": "omit"}
    if hasattr(js, "AbortSignal") and hasattr(js.AbortSignal, "timeout"):
        options["signal"] = js.AbortSignal.timeout(int(seconds * 1000))
    try:
        await js.fetch(url, to_js(options, dict_converter=js.Object.fromEntries))
    except Exception:  # noqa: BLE001 -- a rejected fetch: no answer this page may see
        return False
    return True


def told_apart(connection, answered):
    """An ``unreachable`` connection once :func:`probe_listening` said whether something answers there.

    Only an answer decides (a server runs, so it refused this page: CORS); no answer leaves both
    causes, with their fixes, as they were.
    """
    if connection.kind != "unreachable" or not answered:
        return connection
    said = connection.words.split(_THEN)[0]
    return failed("cors", f"{said}. The page checked: a server answers at that address, so it is refusing this "
                          "page (CORS)", connection.seconds)


def probe_connection(model, seconds=30.0):
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
        from ...limits import describe_error
        return Connection(False, "request", f"the model raised {describe_error(err)}",
                          round(time.monotonic() - started, 2))
    took = round(time.monotonic() - started, 2)
    usage = getattr(limited, "last_usage", None)
    said = reply if isinstance(reply, str) else repr(reply)
    return Connection(True, "ok", f"the model answered in {took:g} s: {said[:80]!r}", took, usage)


def _limited(model, seconds):
    """The model with one call held to ``seconds`` and ``PROBE_TOKENS`` reply tokens (a copy: the learner's
    model keeps its own limits)."""
    if hasattr(model, "for_role") and hasattr(model, "seconds"):
        copy = model.for_role(None)
        copy.seconds = min(copy.seconds, seconds)
        if isinstance(getattr(copy, "max_tokens", None), int):
            copy.max_tokens = min(copy.max_tokens, PROBE_TOKENS)
        return copy
    return model
