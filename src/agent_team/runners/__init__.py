"""Where untrusted code runs: the four runners, and the helpers they share.

Code the course did not write (a coder's fizzbuzz, a model's reply, a learner's exercise cell) is
run in one of four places, each for its own threat:

- **in this process**, by the oracle's sandbox (:mod:`agent_team.oracle`, :mod:`agent_team.sandbox`):
  static rules, a step budget and size guards, in any Python, the browser's included. Enough for
  the scripted fakes and a learner's own code; not for a model's, once a key is in the process;
- **a CPython subprocess** (:mod:`.isolated`, confined by :mod:`.confine`): no environment,
  OS limits, and namespaces, Landlock and seccomp as far as the machine allows. Host side;
- **a second Pyodide in a Web Worker** (:mod:`.browser`; its script website/runner-worker.js,
  which the page starts through website/extension/src/runner.ts): the browser's kernel, once it
  holds a key. Browser only;
- **Pyodide under Node.js** (:mod:`.node`, ``node_runner.mjs``, ``node_worker.mjs``): the class
  grader's learner cells, under Node's permission model, graded by
  :mod:`agent_team.classroom.inside`. Host side.

Which one the oracle uses is set with :func:`agent_team.oracle.run_elsewhere` (read back with
:func:`agent_team.oracle.current_runner`); :mod:`agent_team.realteam.models.isolation` chooses when a model
is made. Shared, once each: :mod:`.namespaces` asks whether ``unshare`` works (on first use,
never at import) and :mod:`.sources` reads the package's source for the two Pyodides that receive
it as text. Nothing here is imported by the package's core: each runner is imported by whoever
needs it, so importing this package starts nothing.
"""
