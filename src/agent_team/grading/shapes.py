"""Looking at values learner code returned, without ever running the learner's own methods.

A returned value may be anything: a dict subclass whose ``__eq__`` raises, a
list whose ``__iter__`` never ends, a str subclass with a hostile ``__len__``.
So a grader checks the *exact* type first (``type(v) is dict``, never
``isinstance``), and only then compares, measures or iterates.
"""

import copy

__all__ = ["fresh", "kind", "str_list"]


def kind(value):
    """``value``'s type with its article, for messages: "an int", "a MyDict"."""
    try:
        name = type(value).__name__
        name = name if type(name) is str else "object"
    except BaseException:  # noqa: BLE001 -- a metaclass can make even this raise
        name = "object"
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def str_list(value):
    """True for a plain list of plain strings."""
    return type(value) is list and all(type(item) is str for item in value)


def fresh(value):
    """A deep copy: every case gets its own inputs, so learner code that scribbles on them
    can change neither a later case nor the reference's answer."""
    return copy.deepcopy(value)
