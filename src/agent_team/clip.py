"""Shortening for people: one way to cut text, one ellipsis, and a repr that cannot fail.

Every message, trace field and rendered value that may be long goes through
:func:`clip`; every value of unknown type that must be shown goes through
:func:`safe_repr`. A cut always ends in the one character ``…``, and where the
reader may want to know how much was left out, ``count=True`` says it:
``'abc… [12,345 characters]'``.

Standard library only and no engine imports: everything else may use it.
"""

__all__ = ["ELLIPSIS", "clip", "safe_repr"]

ELLIPSIS = "…"


def clip(text, limit=80, *, count=False):
    """``text`` (made a ``str``) cut to ``limit`` characters, the last one ``…`` when it was cut.

    ``count=True``: after the ``…``, say how long the whole text was (the result is then longer
    than ``limit``; use it where the kept part matters more than the length of the line).
    """
    text = text if type(text) is str else str(text)
    if len(text) <= limit:
        return text
    kept = text[: max(0, limit - 1)] + ELLIPSIS
    return kept + f" [{len(text):,} characters]" if count else kept


def safe_repr(value, limit=120):
    """``repr(value)`` clipped to ``limit`` (None: not clipped); a ``__repr__`` that raises still gives text.

    Clipped, it costs what it shows: a plain list, tuple, dict or set is written item by item and
    only until the text is past ``limit``, so a ten-million-item answer is shown in microseconds,
    as the same characters ``repr`` would have started with.
    """
    try:
        text = repr(value) if limit is None else _upto(value, limit + 1, set())[0]
    except BaseException:  # noqa: BLE001 -- a hostile __repr__ is still just data
        text = f"<{type(value).__name__} whose repr failed>"
    return text if limit is None else clip(text, limit)


_BRACKETS = {list: ("[", "]"), tuple: ("(", ")"), dict: ("{", "}"), set: ("{", "}"), frozenset: ("frozenset({", "})")}


def _upto(value, budget, inside):
    """``(text, whole)``: the start of ``repr(value)`` (``budget`` characters at least, or all of it),
    and whether that is all of it.

    Exact builtin containers only (their repr is known); anything else is its own ``repr``. A
    container already being written (its id in ``inside``) is ``[...]`` / ``{...}``, as ``repr``
    writes it.
    """
    kind = type(value)
    if kind not in _BRACKETS or not value:
        return repr(value), True
    if id(value) in inside:
        return ("[...]" if kind is list else "{...}" if kind is dict else repr(value)), True
    inside.add(id(value))
    try:
        opening, closing = _BRACKETS[kind]
        text = opening
        for i, item in enumerate(value.items() if kind is dict else value):
            if i:
                text += ", "
            if len(text) > budget:
                return text, False
            if kind is dict:
                key, whole = _upto(item[0], budget - len(text), inside)
                text += key
                if whole:
                    text += ": "
                    part, whole = _upto(item[1], budget - len(text), inside)
                    text += part
            else:
                part, whole = _upto(item, budget - len(text), inside)
                text += part
            if not whole:
                return text, False
        return text + ("," if kind is tuple and len(value) == 1 else "") + closing, True
    finally:
        inside.discard(id(value))
