"""Grading a class: learners' notebooks in, a table (and JSON / JUnit) out.

The host side (``cli``, ``collect``, ``node``, ``results``) reads notebooks and
starts Node.js; the learner code itself only ever runs in ``inside`` within
Pyodide. Nothing in the engine imports this package, so ``import agent_team``
in the browser never loads it.
"""
