"""Exercise 7.1's replayed turns: models that replay recorded and scripted outcomes, no model running.

A recorded outcome is what SmolLM2-135M (or its server) really answered: a call of the recording
``retry`` (``recordings/retry.json``, made by tools/record_runs.py and labelled like every
recorded run), read here as 7.1's outcomes, one per ask (:data:`RECORDINGS`). A scripted one is
made up here to stand for what the recordings lack (a 401, a 429, a 5xx, a hang, garbage, a lie,
an injection, a huge reply), and says ``(scripted)`` in its name wherever it is shown: nothing
scripted is presented as a model's.
"""

from ..realteam.llm import BadReply, parse_reply
from ..realteam.models.http import ModelError
from ..realteam.recordings import load_recording
from ..repo import TESTS_PATH

__all__ = ["LABEL", "RECORDINGS", "recorded_model", "REPLAYS"]

_RETRY = load_recording("retry")
LABEL = _RETRY.label


def _verdict(reply):
    """What the slot makes of a reply: None when the coder's reply parses, else the problem it is told."""
    try:
        parse_reply("coder", reply)
    except BadReply as err:
        return str(err)
    return None


def _outcome(ask, call):
    """One recorded call as an outcome of a turn: its ask's settings, what came back, what the slot made of it."""
    verdict = _verdict(call["reply"]) if call["reply"] is not None else None
    return {"name": ask["name"], "structured": ask["structured"], "max_tokens": ask["max_tokens"],
            "temperature": LABEL["settings"]["temperature"], "reply": call["reply"], "status": call["status"],
            "retry_after": call["retry_after"], "failure": "bad reply" if verdict else call["failure"],
            "error": verdict or call["error"], "usage": call["usage"], "seconds": call["seconds"]}


RECORDINGS = [_outcome(ask, call) for ask, call in zip(_RETRY.setup["asks"], _RETRY.calls, strict=True)]


def _recorded(name):
    return next(r for r in RECORDINGS if r["name"].startswith(name))


def _scripted(name, reply=None, status=None, failure="error", retry_after=None, seconds=0.1, error=None):
    """An outcome no model produced: labelled ``scripted`` wherever it is shown."""
    return {"name": f"{name} (scripted)", "scripted": True, "reply": reply, "status": status, "failure": failure,
            "retry_after": retry_after, "seconds": seconds, "error": error or f"{name} (scripted)"}


def _hang(prompt):
    while True:
        pass


HANG = {"name": "a model that never answers (scripted)", "scripted": True, "hang": True, "seconds": 0.05}
FIXED = _recorded("held to the coder's schema")
LIE = _scripted("a reply claiming every test passes", failure=None, reply=(
    '{"role": "coder", "thought": "done", "patches": [], "message": "all 4 tests pass, ship it"}'))
INJECTION = _scripted("a reply that obeys text planted in the repo", failure=None, reply=(
    '{"role": "coder", "thought": "the README says to", "message": "printing the key as asked",'
    f' "patches": [{{"path": "{TESTS_PATH}", "content": "def test_nothing():\\n    pass\\n"}}]}}'))

REPLAYS = (  # (what happens, the outcomes in order (the last repeats), retries, turn seconds)
    ("SmolLM2 without a schema: Python instead of JSON, every time",
     [_recorded("free text (no schema), 300")], 4, 120.0),
    ("SmolLM2 cut off at 60 tokens, then held to the schema",
     [_recorded("free text (no schema), 60"), FIXED], 4, 120.0),
    ("SmolLM2's server asked at the wrong address", [_recorded("wrong address")], 4, 120.0),
    ("SmolLM2 asked for 2000 tokens in half a second", [_recorded("2000 tokens")], 2, 120.0),
    ("a 429 with Retry-After 2, then SmolLM2's schema reply", [_scripted("429 Retry-After 2", status=429,
                                                                          retry_after=2.0), FIXED], 4, 60.0),
    ("a 429 asking for 90 s in a 60 s turn", [_scripted("429 Retry-After 90", status=429, retry_after=90.0)], 4, 60.0),
    ("a 429 without Retry-After, every time", [_scripted("429", status=429)], 3, 60.0),
    ("a wrong key", [_scripted("401 the key was refused", status=401)], 4, 60.0),
    ("a server that keeps failing (503, 500)", [_scripted("503", status=503), _scripted("500", status=500)], 5, 10.0),
    ("a model that never answers", [HANG], 1, 60.0),
    ("garbage bytes", [_scripted("garbage", failure=None, reply="\x00\ufffd{{{ not json ]]")], 4, 60.0),
    ("a lie: 'all tests pass', no code", [LIE], 4, 60.0),
    ("an injection: a patch to the tests", [INJECTION], 4, 60.0),
    ("a huge reply, over the client's cap", [_scripted("a reply over 1,000,000 bytes",
                                                       error="the reply is over 1,000,000 bytes")], 2, 60.0),
    ("a huge reply that the slot reads", [{**_scripted("2 MB of text", failure=None), "huge": 2_000_000}], 2, 60.0),
)


def recorded_model(outcomes, clock):
    """A ``prompt -> str`` model that replays ``outcomes`` (recorded or scripted), the last repeating.

    Each call moves ``clock`` on by the outcome's recorded seconds, then returns its reply or raises
    the :class:`ModelError` it stands for, with the recorded token counts in ``last_usage``."""
    calls = []

    def model(prompt):
        outcome = outcomes[min(len(calls), len(outcomes) - 1)]
        calls.append(prompt)
        clock.advance(outcome.get("seconds", 0.1))
        model.last_usage = outcome.get("usage")
        if outcome.get("hang"):
            _hang(prompt)
        if outcome["failure"] in ("error", "timeout"):
            raise ModelError(outcome["error"], outcome["failure"], outcome.get("status"), outcome.get("retry_after"))
        return "x" * outcome["huge"] if outcome.get("huge") else outcome["reply"]

    model.calls, model.last_usage = calls, None
    return model
