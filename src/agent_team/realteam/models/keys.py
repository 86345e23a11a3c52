"""The one rule for a key: checked at entry, never shown, found by its value in whatever spelling.

- :class:`Secret` holds a key: it prints as ``<hidden>``, refuses to be pickled, and checks the
  key when it is made (:func:`check_key`): a trailing line break (``open(f).read()`` gives one)
  is removed with a warning; a space, a tab, a line break inside, a control character or a
  character that is not plain ASCII is refused in words, since no provider's key has one and
  the HTTP header would carry it, or fail with the key in its message.
- :func:`looks_like_key` recognises a key pasted where an address or a model's name goes, by the
  shapes providers give keys (``sk-``, ``sk-ant-``, ``sk-or-``, ``gsk_``, ``hf_``, ``AIza``...)
  or as one long random token; the callers refuse such a value without echoing it.
- :func:`scrub` replaces the key in a text by ``<hidden>`` after decoding what a server, a page or
  a message may have encoded: JSON and Python escapes (``\\u0073``, ``\\x73``, ``\\"``, ``\\\\``,
  nested any number of times), HTML character references (``&#115;``, ``&quot;``, ``&amp;quot;``)
  and percent-encoding (``%73``, ``%2573``), in any mixture, character by character. Not only
  the whole key: any run of :data:`WINDOW` (12) or more of its characters in a row, so half a
  key in one field and half in another are both hidden. :func:`carries` says whether a text
  still holds such a run once decoded whole (JSON, HTML, percent, Python escapes), for the
  callers that must refuse what the scrub could not rewrite.
"""

import html
import json
import re
import urllib.parse
import warnings
from array import array

__all__ = ["Secret", "check_key", "looks_like_key", "misplaced", "refuse_misplaced", "scrub", "carries",
           "HIDDEN", "WINDOW"]

HIDDEN = "<hidden>"
WINDOW = 12  # a run of this many of the key's characters in a row is hidden (the whole key if shorter)


def _describe(char):
    if char == " ":
        return "a space"
    if char == "\t":
        return "a tab"
    if char in "\r\n":
        return "a line break"
    if char < " " or char == "\x7f":
        return "a control character"
    return "a character that is not plain ASCII (a curly quote or a non-breaking space, perhaps)"


def check_key(value):
    """The key as it will be sent: a trailing line break removed (with a warning), or ValueError in words.

    Never says the key: only what is wrong with it and where (its place, counted in characters).
    """
    if not isinstance(value, str):
        raise TypeError(f"a key is text (str), not {type(value).__name__}")
    stripped = value.rstrip("\r\n")
    if value and not stripped:
        raise ValueError("the key is empty (a line break and nothing else): is the file or the variable "
                         "that holds it empty?")
    if stripped != value:
        warnings.warn("the key ended with a line break (as open(f).read() gives it); it was removed, "
                      "and the key is used without it", UserWarning, stacklevel=2)
    for place, char in enumerate(stripped, 1):
        if not " " < char < "\x7f":
            raise ValueError(f"the key has {_describe(char)} at character {place} of {len(stripped)}; "
                             "a key has none: copy it again from the provider's page (only the key, "
                             "nothing around it)")
    return stripped


class Secret:
    """A key that never shows itself: not in repr or str, not in a pickle, not in a copy's text."""

    __slots__ = ("_value",)

    def __init__(self, value):
        self._value = check_key(value) if value else ""

    def reveal(self):
        return self._value

    def __repr__(self):
        return HIDDEN

    __str__ = __repr__

    def __reduce__(self):
        raise TypeError("a key is never saved or copied out of the kernel; ask for it again with ask_key()")

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


# --- a key where it does not belong ------------------------------------------------------------

# The prefixes providers give their keys: OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), OpenRouter
# (sk-or-), Groq (gsk_), Hugging Face (hf_), Google (AIza), xAI (xai-), Replicate (r8_),
# Perplexity (pplx-), GitHub (ghp_, github_pat_), fireworks (fw_).
_PREFIXED = re.compile(r"(?<![A-Za-z0-9])(?:sk-(?:ant-|or-|proj-|svcacct-|admin-)?|gsk_|hf_|AIza|xai-|r8_|pplx-|"
                       r"ghp_|github_pat_|fw_)([A-Za-z0-9_\-]{16,})")
_TOKEN = re.compile(r"[A-Za-z0-9_\-]{24,}")


def _random(token):
    """A long token made of one long random part (not the short words of a model's name)."""
    longest = max(len(part) for part in re.split(r"[-_]", token))
    classes = sum(any(test(c) for c in token) for test in (str.islower, str.isupper, str.isdigit))
    return longest >= 24 and classes >= 2 and len(set(token)) >= 14


def looks_like_key(text):
    """True when ``text`` holds something shaped like an API key (by a provider's prefix, or random)."""
    if not isinstance(text, str):
        return False
    if any(max(len(part) for part in re.split(r"[-_]", m.group(1))) >= 12 for m in _PREFIXED.finditer(text)):
        return True
    return any(_random(m.group()) for m in _TOKEN.finditer(text))


# The fields a key may be pasted into by mistake, by their parameter's name: what each is called,
# and what goes there instead.
_FIELDS = {"base_url": ("address", "the API's address, like 'https://api.openai.com/v1'"),
           "model": ("model's name", "the model's name, like 'gpt-4o-mini'"),
           "provider": ("provider", "one of the providers, like 'OpenAI-compatible'")}


def misplaced(**fields):
    """What to say when one of ``fields`` (``base_url``, ``model``, ``provider``; others are not
    looked at) holds what looks like an API key, or None. The words never quote the value."""
    for name, value in fields.items():
        if name in _FIELDS and looks_like_key(value):
            field, instead = _FIELDS[name]
            return (f"the {field} looks like an API key, so it was not kept or shown; a key never goes there: "
                    f"it is asked for in a password box (key=ask_key()). Write {instead}")
    return None


def refuse_misplaced(**fields):
    """Raise ValueError (in :func:`misplaced`'s words) when one of ``fields`` holds a key."""
    words = misplaced(**fields)
    if words:
        raise ValueError(words)


# --- finding the key in any spelling -------------------------------------------------------------

_ENTITIES = {"quot": '"', "amp": "&", "lt": "<", "gt": ">", "apos": "'", "sol": "/", "bsol": "\\",
             "percnt": "%", "num": "#"}
_TOKENS = re.compile(
    r"\\+(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|x([0-9a-fA-F]{2})|([\\\"'/]))"
    r"|%(?:25)*([0-9a-fA-F]{2})"
    r"|&(?:amp;)*(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|(quot|amp|lt|gt|apos|sol|bsol|percnt|num));")


def _char(match):
    u, big, x, punct, pct, dec, hexa, name = match.groups()
    if punct is not None:
        return punct
    if name is not None:
        return _ENTITIES[name]
    number = int(u or big or x or pct or hexa, 16) if dec is None else int(dec)
    return chr(number) if number < 0x110000 else "\ufffd"


def _decode_once(text):
    """``(decoded, lo, hi)``: one level of escapes decoded, each decoded character's span in ``text``
    (``lo``/``hi`` are None when nothing was escaped: the text is its own decoding)."""
    pieces, lo, hi, at = [], array("l"), array("l"), 0
    for match in _TOKENS.finditer(text):
        start, end = match.span()
        if start > at:
            pieces.append(text[at:start])
            lo.extend(range(at, start))
            hi.extend(range(at + 1, start + 1))
        pieces.append(_char(match))
        lo.append(start)
        hi.append(end)
        at = end
    if not pieces:
        return text, None, None
    pieces.append(text[at:])
    lo.extend(range(at, len(text)))
    hi.extend(range(at + 1, len(text) + 1))
    return "".join(pieces), lo, hi


def _grams(key):
    width = min(WINDOW, len(key))
    return {key[i:i + width] for i in range(len(key) - width + 1)}, width


def _spans(text, key):
    """Where the key's runs are in ``text``, decoded up to three levels deep: spans of ``text``."""
    grams, width = _grams(key)
    levels, found = [(text, [])], []
    for _ in range(3):
        decoded, lo, hi = _decode_once(levels[-1][0])
        if lo is None:
            break
        levels.append((decoded, levels[-1][1] + [(lo, hi)]))
    for decoded, maps in levels:
        marks = []
        for gram in grams:
            at = decoded.find(gram)
            while at >= 0:
                marks.append((at, at + width))
                at = decoded.find(gram, at + 1)
        for start, end in _merge(marks):
            for lo, hi in reversed(maps):  # back through each level to the text's own characters
                start, end = lo[start], hi[end - 1]
            found.append((start, end))
    return _merge(found)


def _merge(spans):
    merged = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def scrub(text, key):
    """``text`` with every run of the key (in any spelling above) replaced by ``<hidden>``."""
    if not key or not isinstance(text, str):
        return text
    for _ in range(3):  # once more after a change: a replacement may join what an escape had split
        spans = _spans(text, key)
        if not spans:
            break
        out, at = [], 0
        for start, end in spans:
            out += [text[at:start], HIDDEN]
            at = end
        text = "".join(out) + text[at:]
    return text


def _views(text):
    """``text`` decoded whole in each way a reader might decode it."""
    views = [text, html.unescape(text), urllib.parse.unquote(urllib.parse.unquote(text))]
    try:
        views.append(text.encode("latin-1", "backslashreplace").decode("unicode_escape"))
    except (UnicodeDecodeError, ValueError):
        pass
    try:
        views.append(json.dumps(json.loads(text), ensure_ascii=False))
    except (ValueError, RecursionError):
        pass
    return views


def carries(text, key):
    """True when ``text``, decoded whole as JSON, HTML, a URL or Python would, still holds a run of the key."""
    if not key or not isinstance(text, str):
        return False
    width = min(WINDOW, len(key))
    # windows at every WINDOW-th place, and the tail: any run of 2 * WINDOW - 1 characters holds one
    aligned = {key[i:i + width] for i in range(0, len(key) - width + 1, width)} | {key[-width:]}
    return any(gram in view for view in _views(text) for gram in aligned)
