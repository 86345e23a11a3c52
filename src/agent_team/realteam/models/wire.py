"""The two wire formats: what a request looks like, where the text and the token counts are in a reply.

- ``openai``: Chat Completions (``POST {base_url}/chat/completions``), spoken by OpenAI,
  OpenRouter, Groq, vLLM, llama.cpp's ``llama-server``, LM Studio and Ollama's ``/v1``.
  Structured replies: ``response_format`` with a JSON schema.
- ``anthropic``: Messages (``POST {base_url}/messages``). Structured replies: one forced tool
  call whose input schema is the reply's, so the reply is the tool's input.

Also here: what each HTTP status means for the learner, in words, with what to try (:func:`explain`).
"""

import json

__all__ = ["OPENAI", "ANTHROPIC", "explain", "hint_for"]

ANTHROPIC_VERSION = "2023-06-01"
TOOL = "reply"


class _OpenAI:
    name = "openai"
    path = "/chat/completions"

    def headers(self, key):
        return {"Authorization": f"Bearer {key}"} if key else {}

    def body(self, model, prompt, max_tokens, temperature, schema):
        body = {"model": model, "messages": [{"role": "user", "content": prompt}],
                "max_tokens": max_tokens, "temperature": temperature}
        if schema is not None:
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": TOOL, "strict": True, "schema": schema}}
        return body

    def read(self, data):
        """``(text, usage)`` from a reply, or a ValueError saying what is missing."""
        try:
            message = data["choices"][0]["message"]
        except (KeyError, IndexError, TypeError):
            raise ValueError("it has no choices[0].message") from None
        text = message.get("content") if isinstance(message, dict) else None
        if not isinstance(text, str):
            refusal = message.get("refusal") if isinstance(message, dict) else None
            raise ValueError(f"the model refused: {refusal}" if refusal else "its message has no text content")
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        return text, {"prompt_tokens": usage.get("prompt_tokens"),
                      "completion_tokens": usage.get("completion_tokens")}


class _Anthropic:
    name = "anthropic"
    path = "/messages"

    def headers(self, key):
        # The header says: yes, this call comes straight from a browser page, on purpose.
        out = {"anthropic-version": ANTHROPIC_VERSION, "anthropic-dangerous-direct-browser-access": "true"}
        if key:
            out["x-api-key"] = key
        return out

    def body(self, model, prompt, max_tokens, temperature, schema):
        body = {"model": model, "max_tokens": max_tokens, "temperature": temperature,
                "messages": [{"role": "user", "content": prompt}]}
        if schema is not None:
            body["tools"] = [{"name": TOOL, "description": "Give your reply.", "input_schema": schema}]
            body["tool_choice"] = {"type": "tool", "name": TOOL}
        return body

    def read(self, data):
        blocks = data.get("content")
        if not isinstance(blocks, list):
            raise ValueError("it has no content list")
        tool = [b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_use"]
        if tool:
            text = json.dumps(tool[0].get("input"))
        else:
            parts = [b.get("text") for b in blocks if isinstance(b, dict) and isinstance(b.get("text"), str)]
            if not parts:
                raise ValueError("its content has no text block")
            text = "".join(parts)
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        return text, {"prompt_tokens": usage.get("input_tokens"), "completion_tokens": usage.get("output_tokens")}


OPENAI, ANTHROPIC = _OpenAI(), _Anthropic()


def server_message(text):
    """The error message a server put in its JSON body (both formats nest it the same way), or ''."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return ""
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict):
        error = error.get("message")
    return error if isinstance(error, str) else ""


# Where a call from the course page needs the server's permission, and how each server gives it.
_HINTS = (
    ("api.openai.com", "OpenAI answers calls from a page; check the key and your network"),
    ("api.anthropic.com", "Anthropic answers a page only with the header anthropic-dangerous-direct-browser-access "
                          "(this client sends it) and unless your organisation turned browser access off"),
    ("openrouter.ai", "OpenRouter answers calls from a page; check the key and the model name"),
    (":11434", "Ollama answers pages on localhost only: start it with OLLAMA_ORIGINS set to this page's "
               "origin (or '*'), and use base_url http://localhost:11434/v1"),
    (":1234", "LM Studio answers pages only when started with `lms server start --cors`"),
    (":8080", "llama-server answers any page by default (--cors-origins); check it is running"),
)


def hint_for(url):
    """What to set on the server ``url`` points to, for a call from a page; '' if unknown."""
    for needle, hint in _HINTS:
        if needle in url:
            return hint
    return ("a server on another origin must answer with Access-Control-Allow-Origin for this page, "
            "and allow the headers Authorization and Content-Type")


def explain(status, url, model, body_text):
    """The words for an HTTP error status: what happened and what to try."""
    said = server_message(body_text)
    said = f' (the server said: "{said}")' if said else ""
    if status == 401:
        return f"the server refused the key (401){said}: check the key, and that it is for this provider"
    if status == 403:
        return (f"the server forbade the call (403){said}: the key may lack access to {model!r}, "
                "or your organisation disabled calls from browsers")
    if status == 404:
        return (f"not found (404){said}: check the model name {model!r} and the base_url "
                f"({url}); OpenAI-compatible servers usually end in /v1")
    if status == 429:
        return f"rate limited (429){said}: wait a minute, or use a model with a higher limit"
    if status >= 500:
        return f"the server failed ({status}){said}: try again later, or a smaller request"
    return (f"the server rejected the request ({status}){said}: if it does not support structured replies, "
            "pass structured=False")
