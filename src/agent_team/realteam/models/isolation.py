"""Which oracle runs model-written code, once a real model exists in this interpreter.

The runners themselves live in :mod:`agent_team.runners`. CPython: the isolated runner
(:mod:`agent_team.runners.isolated`, a subprocess with no environment and limits, confined by
namespaces, Landlock and seccomp as far as the machine allows: ``isolated.ISOLATION`` says how,
measured on first use, not on import). The browser's kernel: a model *holding a key* starts the
runner worker (:mod:`agent_team.runners.browser`, a second Pyodide with no key and no network);
where the page cannot have one (no SharedArrayBuffer: the page is not cross-origin isolated) the
oracle refuses to run code, saying why. A keyless local model keeps the in-process teaching sandbox
there: without a key in the kernel there is no secret for the code to reach.
"""

from ... import oracle
from .http import IN_BROWSER

__all__ = ["protect", "refuse"]


def refuse(source):
    """The oracle's answer where no isolated runner exists and a key is held: no code is run."""
    why = ("model-written code is not run in a kernel that holds a key, and this page cannot start "
           "the isolated runner (it needs a cross-origin isolated page); use a local model without a "
           "key here, or run the team in CPython")
    return {"ok": False, "errors": [why], "passed": 0, "failed": len(oracle.CASES),
            "cases": [{"n": n, "expected": e, "got": None, "passed": False, "error": "not run: " + why}
                      for n, e in oracle.CASES]}


def protect(has_key):
    """Point the oracle at the isolated runner (or the refusal); never loosen a stricter choice."""
    if oracle.current_runner() is not None:
        return
    if not IN_BROWSER:
        from ...runners.isolated import run_isolated
        oracle.run_elsewhere(run_isolated)
    elif has_key:
        try:
            from ...runners import browser
            browser.start()
        except Exception:  # noqa: BLE001 -- no worker or no SharedArrayBuffer here: run nothing
            oracle.run_elsewhere(refuse)
        else:
            oracle.run_elsewhere(browser.run_in_worker)
