"""The size limits of the oracle's sandbox and the guards that enforce them.

Each guard runs *before* the operation it guards and refuses (with a sentence
for the learner) when the result would be huge: sequence repetition and
concatenation, ``**`` and ``<<`` on ints, ``%``-formatting, ``str()``/``repr()``
of nested data, ``join``, ``replace``, list growth, sorting, ``sum`` of
non-numbers, ``range`` and ``key=`` functions (which C code would otherwise
call behind the step counter's back). :class:`Guards` is mixed into
:class:`agent_team.sandbox.runtime.Runtime`, which supplies ``halt``,
``refuse``, ``charge`` and ``call``.
"""

import re
import types

MAX_SEQ = 20_000         # items or characters in a str/bytes/list/tuple built by a guarded operation
MAX_RANGE = 100_000      # numbers in one range()
MAX_TEXT = 50_000        # characters str(), repr(), f-strings and % may build
MAX_NEST = 50            # nesting of containers turned into text
MAX_BITS = 100_000       # bits of an int built by *, ** or <<

_SIZED = frozenset({str, bytes, list, tuple, dict, set, frozenset, range})
_SEQ = (str, bytes, list, tuple)
_CONTAINERS = frozenset({list, tuple, set, frozenset, dict, type({}.keys()), type({}.values()),
                         type({}.items())})   # dict views print their contents too
# Calls that neither scan their arguments nor build anything big: they cost one step, no more.
_FREE_FUNCTIONS = frozenset(map(id, (len, isinstance, bool, enumerate, zip, reversed)))
_FREE_METHODS = frozenset({"append", "pop", "popitem", "get", "setdefault", "add", "discard",
                           "keys", "values", "items", "startswith", "endswith", "bit_length"})
_PERCENT = re.compile(r"%(\([^)]*\))?[-#0 +]*(\*|\d*)(?:\.(\*|\d*))?[hlL]?(.?)", re.S)


def size(value):
    """Items or characters in ``value`` (0 for anything that is not a sized builtin)."""
    return len(value) if type(value) in _SIZED else 0


def text_size(value, cap):
    """An upper bound on ``len(repr(value))``, counted without calling repr.

    Stops once the count passes ``cap``; nesting deeper than MAX_NEST counts as
    over the cap (repr recurses in C). A list that holds itself grows the count
    on every visit, so it too ends up over the cap.
    """
    total, stack = 0, [(value, 0)]
    while stack and total <= cap:
        item, depth = stack.pop()
        kind = type(item)
        if kind is str:
            total += len(item) + 2 if item.isascii() and item.isprintable() else 10 * len(item) + 2
        elif kind is bytes:
            total += 4 * len(item) + 3
        elif kind is int or kind is bool:
            total += item.bit_length() // 3 + 3
        elif kind is float or kind is complex:
            total += 50
        elif kind in _CONTAINERS:
            if depth >= MAX_NEST:
                return cap + 1
            total += 2 + (4 if kind is dict else 2) * len(item)
            if total <= cap:
                children = [x for pair in item.items() for x in pair] if kind is dict else item
                stack.extend((child, depth + 1) for child in children)
        elif isinstance(item, BaseException):
            total += 40
            stack.append((item.args, depth + 1))
        elif kind is types.FunctionType:
            total += 40 + len(item.__qualname__)
        else:
            total += 80
    return total


def _what(value):
    """A number for a message: exact when short, else its size."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"a {value.bit_length():,}-bit number"
    return f"{value:,}" if isinstance(value, int) else type(value).__name__


def _unit(value):
    return "characters" if isinstance(value, (str, bytes)) else "items"


class Guards:
    """The checks Runtime runs before risky operations; each refuses with ``self.refuse``."""

    def _guard(self, op, a, b):
        """Before ``a <op> b``: refuse results that would be huge."""
        if op == "Mult":
            if isinstance(b, int) and isinstance(a, _SEQ):
                a, b = b, a
            if isinstance(a, int) and isinstance(b, _SEQ) and len(b) * a > MAX_SEQ:
                self.refuse(MAX_SEQ, f"repeating a {type(b).__name__} {_what(a)} times would build "
                                     f"{_what(len(b) * a)} {_unit(b)}")
            if isinstance(a, int) and isinstance(b, int) and a.bit_length() + b.bit_length() > MAX_BITS:
                self.refuse(MAX_BITS, f"multiplying these numbers would need about "
                                      f"{a.bit_length() + b.bit_length():,} bits")
        elif op == "Pow" and isinstance(a, int) and isinstance(b, int) and b > 1 and a not in (-1, 0, 1):
            if a.bit_length() * b > MAX_BITS:
                self.refuse(MAX_BITS, f"{_what(a)} ** {_what(b)} would need about "
                                      f"{_what(a.bit_length() * b)} bits")
        elif op == "LShift" and isinstance(a, int) and isinstance(b, int) and a and b > 0:
            if a.bit_length() + b > MAX_BITS:
                self.refuse(MAX_BITS, f"{_what(a)} << {_what(b)} would need about "
                                      f"{_what(a.bit_length() + b)} bits")
        elif op == "Add" and isinstance(a, _SEQ) and isinstance(b, _SEQ):
            if len(a) + len(b) > MAX_SEQ:
                self.refuse(MAX_SEQ, f"adding these {type(a).__name__}s would build "
                                     f"{len(a) + len(b):,} {_unit(a)}")
        elif op == "Mod" and isinstance(a, (str, bytes)):
            self._percent(a, b)

    def _percent(self, fmt, args):
        text = fmt if type(fmt) is str else fmt.decode("latin-1")
        total = len(text) + text_size(args, MAX_TEXT)
        for match in _PERCENT.finditer(text):
            key, width, precision, conversion = match.group(1, 2, 3, 4)
            precision = precision or ""
            if key is not None or "*" in width + precision or len(width) > 3 or len(precision) > 3:
                self.halt("refused", "%-formatting with `*`, `%(name)s` or a width over 999 is not "
                                     "allowed in the sandbox; use str(...) or a plain f-string")
            floats = conversion and conversion in "eEfFgG"   # '%f' % 1e308 prints 309 digits
            total += int(width or 0) + int(precision or 0) + (330 if floats else 0)
            if total > MAX_TEXT:
                break
        if total > MAX_TEXT:
            self.refuse(MAX_TEXT, f"%-formatting would build about {total:,} characters")

    def _call_builtin(self, fn, args, kwargs):
        """Call a builtin (function, type or method) for the learner's code, guarded and paid for."""
        kind = type(fn)
        name = owner = None
        if kind is types.BuiltinMethodType:
            name, owner, rest = fn.__name__, fn.__self__, args
        elif kind is types.MethodDescriptorType and args:
            name, owner, rest = fn.__name__, args[0], args[1:]
        if id(fn) in _FREE_FUNCTIONS or name in _FREE_METHODS:
            if name == "append" and type(owner) is list and len(owner) >= MAX_SEQ:
                self.refuse(MAX_SEQ, f"append() would grow a list past {MAX_SEQ:,} items")
            return fn(*args, **kwargs)
        if fn is range:
            result = range(*args, **kwargs)
            try:
                count = len(result)
            except OverflowError:
                count = MAX_RANGE + 1
            if count > MAX_RANGE:
                self.refuse(MAX_RANGE, f"range() would hold {count:,} numbers")
            return result
        if fn is str and (len(args) > 1 or set(kwargs) - {"object"}):
            self.halt("refused", "str() with an encoding is not allowed in the sandbox (codecs run "
                                 "code it cannot count); call str(x) with one argument")
        if (fn is str or fn is repr) and (len(args) == 1 or "object" in kwargs):
            value = args[0] if args else kwargs["object"]
            n = 0 if fn is str and type(value) is str else text_size(value, MAX_TEXT)
            if n > MAX_TEXT:
                self.refuse(MAX_TEXT, f"{fn.__name__}() would turn this {type(value).__name__} into "
                                      f"about {n:,} characters (or it is nested over {MAX_NEST} deep)")
        elif fn is sum and (len(args) > 1 or "start" in kwargs):
            start = args[1] if len(args) > 1 else kwargs["start"]
            if not isinstance(start, (int, float)):
                self.halt("refused", "sum() adds only numbers in the sandbox; use ''.join(...) for text")
        elif name == "join" and isinstance(owner, (str, bytes)) and rest:
            items = args[-1] if type(args[-1]) in (list, tuple) else list(args[-1])
            args = args[:-1] + (items,)
            try:
                total = sum(map(len, items)) + len(owner) * max(len(items) - 1, 0)
            except TypeError:   # join raises its own, clearer TypeError
                total = 0
            if total > MAX_SEQ:
                self.refuse(MAX_SEQ, f"join() would build {total:,} characters")
        elif name == "replace" and isinstance(owner, (str, bytes)) and len(rest) >= 2:
            old, new = rest[0], rest[1]
            count = rest[2] if len(rest) > 2 else kwargs.get("count", -1)
            if type(old) is type(new) is type(owner) and type(count) is int and len(new) > len(old):
                hits = owner.count(old) if old else len(owner) + 1
                hits = min(hits, count) if count >= 0 else hits
                total = len(owner) + hits * (len(new) - len(old))
                if total > MAX_SEQ:
                    self.refuse(MAX_SEQ, f"replace() would build {total:,} characters")
        elif type(owner) is list and name in ("insert", "extend") and rest:
            extra = 1
            if name == "extend":
                items = rest[0] if type(rest[0]) in _SIZED else list(rest[0])
                args, extra = args[:-1] + (items,), len(items)
            if len(owner) + extra > MAX_SEQ:
                self.refuse(MAX_SEQ, f"{name}() would grow a list to {len(owner) + extra:,} items")
        elif (fn is sorted and args) or (name == "sort" and type(owner) is list):
            items = owner if name == "sort" else list(args[0])
            args = args if name == "sort" else (items,) + args[1:]
            n = text_size(items, MAX_TEXT)
            if n > MAX_TEXT:
                self.refuse(MAX_TEXT, f"sorting data this large (about {n:,} characters as text) is slow")
        if kwargs.get("key") is not None and (fn is sorted or fn is min or fn is max or name == "sort"):
            kwargs["key"] = self._key(kwargs["key"])
        units = len(args) + size(owner) + sum(map(size, args[:4])) + sum(map(size, kwargs.values()))
        result = fn(*args, **kwargs)
        self.charge(units + size(result))   # pay for what it scanned and what it built
        return result

    def _key(self, key):
        """C code calls key= functions directly: route them through call() and bound their results."""
        left = [MAX_TEXT]

        def keyed(item):
            result = self.call(key, item)
            left[0] -= text_size(result, MAX_TEXT)
            if left[0] < 0:
                self.halt("refused", f"the key= function returned more than {MAX_TEXT:,} "
                                     "characters of data to compare")
            return result
        return keyed
