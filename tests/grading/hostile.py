"""Values that raise on every use a grader might make of them: a learner's answer at its most hostile.

Shared by the grader tests that check a grader never raises and is never poisoned.
"""


class Boom(Exception):
    pass


def boom(*args, **kwargs):
    raise Boom("a hostile method ran")


class Exploding:
    """Every dunder a grader might touch raises."""
    __eq__ = __ne__ = __len__ = __iter__ = __getitem__ = __contains__ = __bool__ = boom
    __hash__ = boom
    __repr__ = __str__ = boom
    get = keys = items = boom


class ExplodingDict(dict):
    __eq__ = __ne__ = __len__ = __iter__ = __getitem__ = __contains__ = get = keys = items = boom
    __repr__ = boom


class ExplodingList(list):
    __eq__ = __len__ = __iter__ = __getitem__ = __contains__ = __bool__ = boom
    __repr__ = boom


class ExplodingStr(str):
    __eq__ = __ne__ = __hash__ = __len__ = __iter__ = __contains__ = boom
    strip = lower = count = boom


class ExplodingKey(str):
    """Usable as a dict key; every other use raises."""
    __eq__ = __ne__ = __len__ = __iter__ = __contains__ = boom
    __hash__ = str.__hash__


class ExplodingInt(int):
    __eq__ = __ne__ = __lt__ = __gt__ = __le__ = __ge__ = __hash__ = __index__ = boom


class Endless:
    def __iter__(self):
        while True:
            yield "request_changes"


HOSTILE_VALUES = [Exploding(), ExplodingDict(ok=True), ExplodingList(), ExplodingStr("x"), ExplodingInt(4),
                  Endless(), None, 4, "passed", [ExplodingStr("e")]]
