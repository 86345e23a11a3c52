"""The supervisor never recurses into what a policy returned.

In the browser a deep recursion is not a RecursionError but a fatal stack
overflow that kills the kernel, so the engine must only look at the top of a
policy's output (its type), never walk, compare, copy or repr it.
"""

import sys

import pytest

from agent_team.repo import SRC_PATH
from agent_team.supervisor import supervise


def deeply_nested(depth=5_000):
    value = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("where", ["content", "patch", "path", "role", "thought", "patches"])
def test_deep_policy_output_is_judged_without_recursion(where):
    deep = deeply_nested()
    out = {"content": {"patches": [{"path": SRC_PATH, "content": deep}]},
           "patch": {"patches": [deep]},
           "path": {"patches": [{"path": deep, "content": ""}]},
           "role": {"role": deep},
           "thought": {"thought": deep, "patches": []},
           "patches": {"patches": deep}}[where]
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(200)  # far below the list's depth: any recursion into it would fail
    try:
        result = supervise(max_rounds=1, coder=lambda goal, view: out)
    finally:
        sys.setrecursionlimit(old)
    coder = next(e for e in result.trace if e.get("role") == "coder")
    assert result.status == "budget" and coder["error"] and not coder["applied"]
