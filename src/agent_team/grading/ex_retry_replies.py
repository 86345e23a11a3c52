"""Exercise 7.1's recorded outcomes, under the name notebooks saved before they moved used.

The replies are the recording ``retry`` (``recordings/retry.json``), read by ``ex_retry_turns``;
learners' saved notebooks still import them from here.
"""

from .ex_retry_turns import LABEL, RECORDINGS

__all__ = ["LABEL", "RECORDINGS"]
