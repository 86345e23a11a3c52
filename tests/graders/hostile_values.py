"""Values a learner's function might return that blow up when a grader looks at them.

Each one raises RuntimeError("boom") from the operations a careless grader would use:
``==``, ``len``, iteration, ``repr``, lookups. A grader must check exact types first and
report these as wrong answers, never raise.
"""


def _boom(self, *args):
    raise RuntimeError("boom")


class Exploding:
    """Every comparison, length, iteration, hash, truth test, lookup and repr raises."""

    __eq__ = __ne__ = __lt__ = __len__ = __iter__ = __hash__ = __bool__ = __repr__ = __str__ = _boom
    __getitem__ = __contains__ = _boom


class ExplodingStr(str):
    """A str that hashes like its text (so it lands on the same dict key) but cannot be compared."""

    __eq__ = __ne__ = _boom
    __hash__ = str.__hash__


class ExplodingList(list):
    __len__ = __iter__ = _boom


class ExplodingDict(dict):
    __getitem__ = get = _boom
