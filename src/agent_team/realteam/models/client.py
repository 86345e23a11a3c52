"""A model behind an HTTP API, as the ``prompt -> str`` function the LLM slot calls.

One call is one request. A 429 is raised like any failure, with the seconds its ``Retry-After``
asks for: whether to wait and ask again is the slot's retry decision (:mod:`agent_team.realteam.retry`),
which waits on its own clock and records the decision in the trace. A call's time is the smaller
of the model's own ``seconds`` and what is left of the caller's limit
(:func:`agent_team.limits.time_left`), passed down to the request itself: a request blocked in
C cannot be stopped by the slot's trace hook. Every failure raises :class:`ModelError` in words,
which the slot records as a failed attempt.

The key lives in this object only, inside a :class:`Secret` that prints as ``<hidden>``, refuses
to be pickled, and was checked when it came in (:mod:`.keys`). Every text this object hands back
(a reply, an error of any type) has the key scrubbed out of it by value, in whatever spelling a
server put it (:func:`.keys.scrub`); a reply that still carries it once decoded is refused.
Token counts (whole numbers only) of the last call are in ``last_usage`` (the slot puts them on
the attempt), of every call in ``usage``.
"""

import json
import time

from ...clip import clip
from ...limits import time_left
from .http import ModelError, post
from .keys import HIDDEN, Secret, carries, scrub
from .schema import reply_schema, unflatten
from .wire import explain, hint_for

__all__ = ["HttpModel", "Secret"]

class HttpModel:
    """``model(prompt) -> str`` over one wire format; build one with openai_chat or anthropic_messages."""

    def __init__(self, wire, base_url, model, key, *, structured, max_tokens, temperature, seconds,
                 max_bytes, role=None, usage=None):
        self.wire, self.base_url, self.model = wire, base_url, model
        self._key = key if isinstance(key, Secret) else Secret(key or "")
        self.structured, self.max_tokens, self.temperature = structured, max_tokens, temperature
        self.seconds, self.max_bytes, self.role = seconds, max_bytes, role
        self.usage = [] if usage is None else usage  # shared by the copies made per role
        self.last_usage = None

    @property
    def has_key(self):
        return bool(self._key.reveal())

    def for_role(self, role):
        """A copy that asks for ``role``'s reply schema (the LLM slot calls this once per role)."""
        return HttpModel(self.wire, self.base_url, self.model, self._key, structured=self.structured,
                         max_tokens=self.max_tokens, temperature=self.temperature, seconds=self.seconds,
                         max_bytes=self.max_bytes, role=role, usage=self.usage)

    def __repr__(self):
        maker = "openai_chat" if self.wire.name == "openai" else "anthropic_messages"
        key = HIDDEN if self.has_key else "None"
        role = f", role={self.role!r}" if self.role else ""
        return self.scrub(f"{maker}({self.base_url!r}, {self.model!r}, key={key}{role})")

    def scrub(self, text):
        """``text`` with the key replaced by <hidden>: the whole key or any 12 of its characters in a row,
        plain or escaped (JSON, Python, HTML, percent-encoding), as :func:`.keys.scrub` finds it."""
        return scrub(text, self._key.reveal())

    def __call__(self, prompt):
        self.last_usage = None
        try:
            return self._ask(prompt)
        except ModelError as err:  # every text that leaves this object is scrubbed
            failed = ModelError(self._words(str(err)), err.failure, err.status, err.retry_after)
        except Exception as err:  # noqa: BLE001 -- any type: the browser's own, a bug; its words scrubbed too
            failed = ModelError(self._words(f"the call failed ({type(err).__name__}: {err})"))
        raise failed  # raised here, outside the handler, so it holds no link to the unscrubbed error

    def _hidden(self, text):
        """``text`` scrubbed, or None when, decoded whole, it would still show the key."""
        text = self.scrub(text)
        return None if carries(text, self._key.reveal()) else text

    def _words(self, text):
        hidden = self._hidden(text)
        return hidden if hidden is not None else ("the server's answer quoted the key back in a form that could "
                                                  "not be hidden; it was dropped")

    def _ask(self, prompt):
        if not isinstance(prompt, str):
            raise ModelError(f"the prompt must be text (str), not {type(prompt).__name__}")
        outer = time_left()
        # A little less than what is left, so this call ends in its own words before the caller's
        # deadline cuts it off without any.
        seconds = self.seconds if outer is None else min(self.seconds, outer - min(0.2, outer / 10))
        deadline = time.monotonic() + seconds
        url = self.base_url + self.wire.path
        schema = reply_schema(self.role) if self.structured and self.role else None
        body = json.dumps(self.wire.body(self.model, prompt, self.max_tokens, self.temperature, schema))
        headers = {"Content-Type": "application/json", **self.wire.headers(self._key.reveal())}
        left = deadline - time.monotonic()
        if left <= 0:
            raise ModelError(f"no time left for the call ({seconds:.3g} s were given)", failure="timeout")
        try:
            reply = post(url, headers, body.encode("utf-8"), left, self.max_bytes)
        except ModelError as err:
            if err.status == 0:  # a browser's CORS refusal: say what to set on that server
                hint = hint_for(url)
                raise ModelError(f"{err}. {hint[0].upper()}{hint[1:]}", err.failure, 0) from None
            raise
        if reply.status != 200:
            wait, words = _retry_after(reply.headers), explain(reply.status, url, self.model, reply.text)
            if reply.status == 429:  # the wait is for the slot's retry decision to take, not this call
                words += f"; it asks to wait {wait:g} s" if wait is not None else "; it gave no Retry-After"
            raise ModelError(words, status=reply.status, retry_after=wait)
        try:
            data = json.loads(reply.text)
        except (ValueError, RecursionError):
            raise ModelError(f"the server's answer is not JSON: {clip(reply.text, 120)!r}; "
                             f"is {self.base_url} the API's address (not a web page)?") from None
        try:
            text, usage = self.wire.read(data) if isinstance(data, dict) else self.wire.read({})
        except ValueError as err:
            raise ModelError(f"the server's answer is not a {self.wire.name} reply: {err}") from None
        usage = {name: count if type(count) is int else None for name, count in usage.items()}
        self.last_usage = usage
        self.usage.append(usage)
        text = self._hidden(text)
        if text is None:
            raise ModelError("the server's reply carries the key (encoded so that it could not be hidden); "
                             "the reply was refused so that the key reaches no trace: is this the provider's "
                             "own address?")
        return unflatten(self.role, text) if schema is not None else text


def _retry_after(headers):
    """Seconds from a Retry-After header (a number; an HTTP date is not waited for), or None."""
    value = headers.get("retry-after")
    try:
        wait = float(value)
    except (TypeError, ValueError):
        return None
    return wait if 0 <= wait < 3600 else None
