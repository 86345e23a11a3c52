"""The isolated runner: the oracle in a child process that holds no key and has no network."""

import json
import os
import socket

import pytest

from agent_team import oracle
from agent_team.realteam.llm import llm_policy
from agent_team.realteam.models import openai_chat
from agent_team.runners import isolated
from agent_team.runners.isolated import run_isolated, run_python
from agent_team.policies import FIZZ_ONLY_SOURCE, FULL_SOURCE
from agent_team.supervisor import supervise

KEY = "sk-test-isolated-0123456789abcdefghij"
NAMESPACES = isolated.isolation().prefix != []
needs_namespaces = pytest.mark.skipif(not NAMESPACES, reason=f"unshare is not allowed here: {isolated.ISOLATION}")


@pytest.mark.parametrize("source", [FULL_SOURCE, FIZZ_ONLY_SOURCE, "import os\n",
                                    "def fizzbuzz(n):\n  while 1: pass\n"])
def test_the_isolated_report_is_the_in_process_report(source):
    assert run_isolated(source) == oracle.run_tests({"src/fizzbuzz.py": source})


def test_the_child_has_an_empty_environment(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    code, out, err = run_python("import os, sys; print(sorted(os.environ), sys.flags.isolated)")
    assert code == 0, err
    # LC_CTYPE is Python's own (it coerces the C locale at start-up), not the parent's
    assert out.split("] ") in (["[", "1\n"], ["['LC_CTYPE'", "1\n"]), out


@needs_namespaces
def test_the_child_cannot_read_the_parents_environment_or_open_a_connection(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    probe = f"""
import os, socket
found = {{}}
for path in ("/proc/{os.getpid()}/environ", "/proc/{os.getpid()}/mem", "/proc/{os.getpid()}/cmdline"):
    try:
        found[path] = open(path, "rb").read(4096).decode("latin-1")
    except OSError as err:
        found[path] = type(err).__name__
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
    found["connect"] = "connected"
except OSError as err:
    found["connect"] = type(err).__name__
print(repr(found))
"""
    try:
        code, out, err = run_python(probe)
    finally:
        listener.close()
    assert code == 0, err
    assert KEY not in out
    found = eval(out)  # our own probe's repr of a dict of str
    assert found["connect"] != "connected"
    assert all(found[p] in ("PermissionError", "FileNotFoundError") for p in found if p.startswith("/proc"))


def test_the_child_is_stopped_by_its_limits():
    code, _, err = run_python("while True: pass", seconds=2)
    assert code is None and "killed after 2 s" in err
    code, _, err = run_python("x = bytearray(2 * 1024 ** 3)")
    assert code != 0 and "MemoryError" in err
    code, _, err = run_python("with open('written.txt', 'w') as f: f.write('x' * 10)")
    assert code != 0 and "File too large" in err


KEY_HUNTS = [
    "import os\ndef fizzbuzz(n):\n    return os.environ['OPENAI_API_KEY']\n",
    "def fizzbuzz(n):\n    return open('/proc/self/environ').read()\n",
    "def fizzbuzz(n):\n    return str(fizzbuzz.__globals__)\n",
]


@pytest.mark.parametrize("source", KEY_HUNTS, ids=["environ", "open", "globals"])
def test_model_written_code_run_by_the_team_finds_no_key(faults, monkeypatch, source):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    model = openai_chat(f"{faults.url}/ok/v1", "smol", key=KEY)
    assert oracle.current_runner() is run_isolated

    def coder(goal, view):  # stands for a model that wrote this source
        return {"role": "coder", "thought": "t", "message": "m",
                "patches": [{"path": "src/fizzbuzz.py", "content": source}]}

    result = supervise(planner=llm_policy("planner", model, retries=0, seconds=10), coder=coder,
                       max_rounds=1, seconds=30)
    assert result.status == "budget"
    text = json.dumps(result.trace)
    assert KEY not in text and not result.tests["ok"]
