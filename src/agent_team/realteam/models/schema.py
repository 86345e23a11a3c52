"""The JSON schema a server may hold a role's reply to, and the reviewer's flat form of it.

A server that supports structured replies (``response_format`` with a JSON schema, or a
forced tool call) can only constrain the JSON it writes, never JSON inside one of its strings.
The reviewer's one file, REVIEW.json, is such a string, so the reviewer is given a *flat*
schema (``verdict`` and ``notes`` beside ``thought`` and ``message``) and :func:`unflatten` turns
that reply into the reply the LLM slot expects: one patch writing REVIEW.json. The slot then
checks it exactly as it checks any reply (:func:`agent_team.realteam.llm.parse_reply`).
"""

import json

from ...policies import VERDICTS
from ...repo import ALLOWLIST, REVIEW_PATH

__all__ = ["reply_schema", "unflatten", "is_flat"]


def is_flat(role):
    """True for a role whose file is a verdict: it answers in the flat form."""
    return REVIEW_PATH in ALLOWLIST[role]


def _text():
    return {"type": "string"}


def reply_schema(role):
    """The JSON schema of ``role``'s reply: every field required, nothing else allowed.

    ``additionalProperties: false`` and all fields required is what OpenAI's strict mode asks for.
    """
    if is_flat(role):
        fields = {"role": {"type": "string", "enum": [role]}, "thought": _text(),
                  "verdict": {"type": "string", "enum": list(VERDICTS)}, "notes": _text(), "message": _text()}
    else:
        patch = {"type": "object", "properties": {"path": {"type": "string", "enum": sorted(ALLOWLIST[role])},
                                                  "content": _text()},
                 "required": ["path", "content"], "additionalProperties": False}
        fields = {"role": {"type": "string", "enum": [role]}, "thought": _text(),
                  "patches": {"type": "array", "items": patch}, "message": _text()}
    return {"type": "object", "properties": fields, "required": list(fields), "additionalProperties": False}


def unflatten(role, text):
    """The slot's reply for a flat verdict reply; any other text is returned as it is.

    Text that is not a flat reply (not JSON, or already with ``patches``) is left for the slot's
    own checks to explain, so a wrong reply is reported once, in the slot's words.
    """
    if not is_flat(role):
        return text
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return text
    if type(data) is not dict or "patches" in data or "verdict" not in data:
        return text
    verdict = {"verdict": data.get("verdict"), "notes": data.get("notes", "")}
    return json.dumps({"role": data.get("role", role), "thought": data.get("thought", ""),
                       "message": data.get("message", ""),
                       "patches": [{"path": REVIEW_PATH, "content": json.dumps(verdict)}]})
