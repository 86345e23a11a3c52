"""Record the real replies exercise 7.1's grader replays: SmolLM2-135M as the coder, on this machine.

    node /path/to/tools/llm-server/serve.mjs --model build/models/SmolLM2-135M-Instruct.Q4_1.gguf --port 8765
    python tools/record_retry_replies.py http://127.0.0.1:8765 > src/agent_team/grading/ex_retry_replies.py

Each recording is one real call through the course's own client (agent_team.models.openai_chat):
the prompt the LLM slot builds for the coder's first turn, the reply text exactly as the model
wrote it (or the server's HTTP answer), the token counts, the seconds it took, and what the slot
made of it (parse_reply's verdict). Host side: it talks to a local server over a socket.
"""

import datetime
import platform
import pprint
import sys
import time

from agent_team.llm import BadReply, build_prompt, parse_reply
from agent_team.models import ModelError, openai_chat
from agent_team.repo import GOAL, initial_repo
from agent_team.views import make_view

MODEL = "SmolLM2-135M-Instruct"
QUANT = "Q4_1"
SETTINGS = (  # name, structured, max_tokens, path suffix, seconds for the call
    ("free text (no schema), 300 tokens", False, 300, "/v1", 600),
    ("free text (no schema), 60 tokens: cut off", False, 60, "/v1", 600),
    ("held to the coder's schema, 300 tokens", True, 300, "/v1", 600),
    ("wrong address (no /v1): the server's own 404", False, 60, "", 600),
    ("2000 tokens asked for in 0.5 s: the call times out", False, 2000, "/v1", 0.5),
)


def record(url):
    view = make_view("coder", GOAL, initial_repo(), [])
    prompt = build_prompt("coder", GOAL, view)
    out = []
    for name, structured, max_tokens, suffix, seconds in SETTINGS:
        model = openai_chat(url + suffix, "smollm2", structured=structured, max_tokens=max_tokens,
                            temperature=0.0, seconds=seconds).for_role("coder")
        started = time.perf_counter()
        entry = {"name": name, "structured": structured, "max_tokens": max_tokens, "temperature": 0.0,
                 "call_seconds": seconds}
        try:
            reply = model(prompt)
        except ModelError as err:
            entry.update(reply=None, status=err.status, failure=err.failure, error=str(err))
        else:
            try:
                parse_reply("coder", reply)
                verdict = None
            except BadReply as err:
                verdict = str(err)
            entry.update(reply=reply, status=200, failure="bad reply" if verdict else None, error=verdict,
                         usage=model.last_usage)
        entry["seconds"] = round(time.perf_counter() - started, 2)
        out.append(entry)
        print(f"recorded {name}: {entry['failure']}", file=sys.stderr)
    return out


def main():
    url = sys.argv[1].rstrip("/")
    label = {"model": MODEL, "quantisation": QUANT, "file": f"{MODEL}.{QUANT}.gguf",
             "server": "tools/llm-server/serve.mjs (node-llama-cpp, llama.cpp CPU, 1 thread, context 2048)",
             "role": "coder, first turn (the prompt agent_team.llm.build_prompt makes)",
             "date": datetime.date.today().isoformat(), "machine": platform.machine()}
    recordings = record(url)
    print('"""Real replies of a real model, recorded by tools/record_retry_replies.py: data, not code.\n\n'
          "Exercise 7.1's grader replays them (agent_team.grading.ex_retry). Nothing here is scripted:\n"
          "every reply is what the model named in LABEL answered, or what its server answered.\n"
          '"""\n')
    print(f"LABEL = {pprint.pformat(label, width=110, sort_dicts=False)}\n")
    print(f"RECORDINGS = {pprint.pformat(recordings, width=110, sort_dicts=False)}")


if __name__ == "__main__":
    main()
