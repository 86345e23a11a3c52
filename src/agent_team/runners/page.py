"""The kernel's word to its page: browser only (``import js``), shared by what the page runs for it.

The kernel runs in a worker, and what it needs a worker of its own for (the isolated runner,
:mod:`.browser`; a model in the tab, :mod:`agent_team.realteam.models.tab`) the page starts instead, on the
kernel's word: a worker started by the kernel's worker did not start while the kernel waited
(Chromium) and now and then hung both (Firefox). Each asks under its own key, which the page's
side listens for (website/extension/src/runner.ts, in-tab.ts), and waits for the answer on a
SharedArrayBuffer of its own.
"""


def browser():
    """The worker's global scope, and a converter of dicts to plain JavaScript objects."""
    import js
    from pyodide.ffi import to_js

    return js, lambda value: to_js(value, dict_converter=js.Object.fromEntries)


def ask(key, message):
    """Post ``message`` (a dict) to the page under ``key``."""
    js, to_js = browser()
    js.postMessage(to_js({key: message}))
