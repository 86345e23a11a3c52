"""The budget of the oracle's sandbox and the helpers that instrumented code calls.

:func:`agent_team.sandbox.rules.prepare` rewrites the learner's code so that loop
bodies, function bodies, lambdas and comprehension items call ``tick``; every
call goes through :meth:`Runtime.call`, every binary operator through
:meth:`Runtime.binop`, every f-string value through :meth:`Runtime.fmt`; and
every ``except`` or ``finally`` body starts with :meth:`Runtime.reraise`, which
re-raises a pending :class:`Stop`. One Runtime serves one run; :meth:`rearm`
gives each phase (loading the module, then each case) a fresh budget.

A budget is counted in *units*: a step (tick or call) costs ``UNIT`` units and
every item or character a guarded operation produces costs one, so memory
churn uses up the same budget as looping does.
"""

import builtins
import operator
import time
import types

from .guards import Guards, size, text_size

STEPS = 20_000           # steps per phase; a fizzbuzz needs fewer than 100
UNIT = 32                # units per step; one unit per item or character produced
MAX_DEPTH = 100          # calls nested inside each other
# A backstop only: the step budget should stop runaway code first, deterministically,
# even on a slow machine or in the browser; the clock catches C work the steps cannot see.
# So it sits far above what a whole step budget costs: a module load of 13,000 honest steps
# took 0.2 s on a loaded machine (2 cores, load 11), and Pyodide or a slower CPU is a few
# times slower again; at 0.4 s a correct program was sometimes stopped by the clock.
PHASE_SECONDS = 2.0      # wall clock per phase ...
RUN_SECONDS = 6.0        # ... and for the whole run, counted from ``started``

# The only builtins the code sees (plus a print that discards its output).
BUILTIN_NAMES = (
    "abs all any bool chr dict divmod enumerate float frozenset int isinstance len list max min "
    "ord range repr reversed set sorted str sum tuple zip ArithmeticError AssertionError Exception "
    "IndexError KeyError LookupError NotImplementedError OverflowError RuntimeError TypeError "
    "ValueError ZeroDivisionError").split()

_OPS = {"Add": "add", "Sub": "sub", "Mult": "mul", "Div": "truediv", "FloorDiv": "floordiv",
        "Mod": "mod", "Pow": "pow", "LShift": "lshift", "RShift": "rshift", "BitOr": "or_",
        "BitXor": "xor", "BitAnd": "and_", "MatMult": "matmul"}
_BINARY = {op: getattr(operator, name) for op, name in _OPS.items()}
_INPLACE = {op: getattr(operator, "i" + name.rstrip("_")) for op, name in _OPS.items()}

class Stop(BaseException):
    """Ends a phase. A BaseException, so ``except Exception`` cannot catch it;
    sticky, because every ``except``/``finally`` body re-raises it first.
    ``kind`` is ``"steps"``, ``"time"``, ``"depth"`` or ``"refused"``."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind, self.message = kind, message


class Runtime(Guards):
    """The budget and the guards of one run."""

    def __init__(self, started=None):
        self.clock = time.perf_counter
        self.run_deadline = (self.clock() if started is None else started) + RUN_SECONDS
        self.rearm()

    def rearm(self):
        """Start a phase: a full step budget, no pending stop, a fresh deadline."""
        self.left = STEPS * UNIT
        self.depth = 0
        self.stop = None
        self.deadline = min(self.clock() + PHASE_SECONDS, self.run_deadline)

    # -- stopping ---------------------------------------------------------
    def halt(self, kind, message):
        self.stop = Stop(kind, message)
        raise self.stop

    def reraise(self):
        """First statement of every except/finally body: a stop cannot be swallowed."""
        if self.stop is not None:
            raise self.stop

    def refuse(self, cap, message):
        self.halt("refused", f"{message}; the sandbox caps this at {cap:,}")

    def tick(self):
        self.left -= UNIT
        if self.left < 0 or self.clock() > self.deadline:
            self._exhausted()

    def charge(self, units):
        """Pay for data built or scanned; also polls the clock, as C work happens between steps."""
        self.left -= units
        if self.left < 0 or self.clock() > self.deadline:
            self._exhausted()

    def _exhausted(self):
        if self.left < 0:
            self.halt("steps", f"it used up its budget of {STEPS:,} steps, so it looks like an "
                               "endless loop; make sure every loop ends")
        self.halt("time", f"it ran for more than {PHASE_SECONDS} s of the oracle's time; make it "
                          "do less work (a fizzbuzz needs no big loops or data)")

    # -- helpers called by instrumented code ------------------------------
    def iterate(self, iterable):
        """Wraps the iterable of every comprehension: one step per item."""
        for item in iterable:
            self.tick()
            yield item

    def charged(self, value):
        """Pays for a value built or scanned without a call (slices, displays, f-strings, comparisons)."""
        self.charge(size(value))
        return value

    def fmt(self, value, cap, conversion):
        """Guards one ``{value}`` of an f-string; ``cap`` is its share of MAX_TEXT."""
        plain = type(value) is str and conversion in (-1, 115)   # no conversion, or !s
        n = len(value) if plain else text_size(value, cap)
        if n > cap:
            self.refuse(cap, f"an f-string would turn a {type(value).__name__} into about {n:,} characters")
        return value

    def binop(self, op, left, right):
        self._guard(op, left, right)
        result = _BINARY[op](left, right)
        self.charge(size(result))
        return result

    def aug(self, op, left, right):
        self._guard(op, left, right)
        result = _INPLACE[op](left, right)
        self.charge(size(right) if result is left else size(result))
        return result

    def call(self, fn, /, *args, **kwargs):
        """Every call in the learner's code: a step, a depth check, then the guards."""
        self.tick()
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                self.halt("depth", f"calls were nested more than {MAX_DEPTH} deep, so the "
                                   "recursion never ends; give it a base case or use a loop")
            if type(fn) is types.FunctionType:
                return fn(*args, **kwargs)
            return self._call_builtin(fn, args, kwargs)
        finally:
            self.depth -= 1

    def namespace(self):
        """A fresh module namespace with fresh builtins, so no run can leak into the next."""
        def print(*args, **kwargs):  # noqa: A001 -- the sandbox has no output; print is accepted and ignored
            return None

        safe = {name: getattr(builtins, name) for name in BUILTIN_NAMES}
        safe["print"] = print
        return {"__builtins__": safe, "__name__": "fizzbuzz", "__o_tick": self.tick,
                "__o_reraise": self.reraise, "__o_call": self.call, "__o_binop": self.binop,
                "__o_aug": self.aug, "__o_iter": self.iterate, "__o_fmt": self.fmt,
                "__o_charged": self.charged}
