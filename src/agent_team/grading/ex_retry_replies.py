"""Exercise 7.1's recorded outcomes, under the name notebooks saved before they moved used.

The replies are the recording ``retry`` (``recordings/retry.json``), read by ``ex_retry_turns``;
part 7's setup for grading a class and learners' saved notebooks still import them from here.
"""

from .ex_retry_turns import LABEL, RECORDINGS

__all__ = ["LABEL", "RECORDINGS"]
