"""The supervisor's own time per model turn, next to the model's (`make bench-models`; not a test).

Runs the default team with the real model (tests/llama.py: SmolLM2-135M behind
tools/llm-server) in every role for ROUNDS rounds, and splits the wall time into the model's
calls (the HTTP round trips, generation included), the oracle's isolated runs (a subprocess
each), and the rest: the supervisor, the LLM slot (prompts, parsing, its time guard) and the
client's own code. Prints one JSON object; `make models` first.
"""

import json
import os
import sys
import time
from pathlib import Path

from agent_team import oracle
from agent_team.realteam.llm import llm_policy
from agent_team.realteam.models import openai_chat, total_usage
from agent_team.supervisor import supervise
from tests import llama  # the test suite's launcher of the real model's server

ROOT = Path(__file__).resolve().parents[1]

ROUNDS = int(os.environ.get("ROUNDS", "3"))
SECONDS = 180


def main():
    problem = llama.missing()
    if problem:
        sys.exit(problem)
    process, url = llama.start()
    try:
        model = llama.Timed(openai_chat(url + "/v1", "smollm2", max_tokens=200, seconds=SECONDS))
        runs = []
        isolated = oracle.current_runner()

        def timed_runner(source):
            started = time.perf_counter()
            try:
                return isolated(source)
            finally:
                runs.append(time.perf_counter() - started)

        oracle.run_elsewhere(timed_runner)
        team = {r: llm_policy(r, model, retries=0, seconds=SECONDS) for r in ("planner", "coder", "reviewer")}
        started = time.perf_counter()
        result = supervise(max_rounds=ROUNDS, seconds=SECONDS + 10, **team)
        wall = time.perf_counter() - started
    finally:
        llama.stop(process)
    turns = sum(1 for e in result.trace if e["type"] == "turn")
    rest = wall - sum(model.seconds) - sum(runs)
    print(json.dumps({
        "status": result.status, "rounds": result.rounds, "turns": turns, "wall_s": round(wall, 2),
        "model_s": round(sum(model.seconds), 2), "oracle_isolated_s": round(sum(runs), 3),
        "oracle_runs": len(runs), "rest_s": round(rest, 3),
        "supervisor_per_turn_ms": round(rest / turns * 1000, 1),
        "overhead_share": round((wall - sum(model.seconds)) / wall, 4),
        "usage": total_usage(result), "load_average": os.getloadavg()}, indent=1))


if __name__ == "__main__":
    main()
