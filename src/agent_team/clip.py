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
    """``repr(value)`` clipped to ``limit`` (None: not clipped); a ``__repr__`` that raises still gives text."""
    try:
        text = repr(value)
    except BaseException:  # noqa: BLE001 -- a hostile __repr__ is still just data
        text = f"<{type(value).__name__} whose repr failed>"
    return text if limit is None else clip(text, limit)
