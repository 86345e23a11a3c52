"""Which oracle runs model-written code, once a real model exists in this interpreter.

CPython: the isolated runner (:mod:`.isolated`, a subprocess with no environment, limits and,
where allowed, no network). The browser's kernel has no runner of its own yet (the plan: a
second Web Worker with its own Pyodide and no key), so there a model *holding a key* makes
the oracle refuse to run code, saying why, while a keyless local model keeps the in-process
teaching sandbox: without a key in the kernel there is no secret for the code to reach.
"""

from .. import oracle
from .http import IN_BROWSER

__all__ = ["protect", "refuse"]


def refuse(source):
    """The oracle's answer where no isolated runner exists and a key is held: no code is run."""
    why = ("model-written code is not run in a kernel that holds a key, and this kernel has no "
           "isolated runner; use a local model without a key here, or run the team in CPython")
    return {"ok": False, "errors": [why], "passed": 0, "failed": len(oracle.CASES),
            "cases": [{"n": n, "expected": e, "got": None, "passed": False, "error": "not run: " + why}
                      for n, e in oracle.CASES]}


def protect(has_key):
    """Point the oracle at the isolated runner (or the refusal); never loosen a stricter choice."""
    if not IN_BROWSER:
        from .isolated import run_isolated
        if oracle._runner is None:
            oracle.run_elsewhere(run_isolated)
    elif has_key:
        oracle.run_elsewhere(refuse)
