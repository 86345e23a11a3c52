"""A model server of our own that fails on purpose, on 127.0.0.1 (started and stopped by the tests).

The first path segment picks the behaviour, the rest is the API's own path, so a base_url
``{url}/401/v1`` makes every call answer 401. Behaviours:

- ``ok``: a correct reply for the role the request's schema names (the planner writes a plan, the
  coder the full fizzbuzz, the reviewer approves), in either wire format, with token counts;
- ``slow-S``: the same after S seconds; ``drip``: headers, then one byte a second;
- ``401``, ``403``, ``404``, ``500``, ``503``: that status with an error body in the API's shape;
- ``429-S``: 429 with ``Retry-After: S`` on the first call to that path, then ``ok``;
- ``nocors``: ``ok`` without any CORS header (a browser must refuse it);
- ``truncated``: a Content-Length longer than the body, then the connection closes;
- ``huge``: a 3 MB reply; ``notjson``: an HTML page; ``echo``: a reply quoting the key it was sent.

Every request is kept in ``server.requests`` (path, headers, parsed body).
"""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from agent_team.policies import FULL_SOURCE, PLAN_TEXT

REPLIES = {
    "planner": {"role": "planner", "thought": "plan it", "message": "planned",
                "patches": [{"path": "PLAN.md", "content": PLAN_TEXT}]},
    "coder": {"role": "coder", "thought": "all cases", "message": "done",
              "patches": [{"path": "src/fizzbuzz.py", "content": FULL_SOURCE}]},
    "reviewer": {"role": "reviewer", "thought": "green", "verdict": "approve", "notes": "tests pass",
                 "message": "approved"},
}


def _role_of(body):
    """The role a request is for, read from its schema (either wire format), else from its prompt."""
    schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("schema")
    if schema is None and body.get("tools"):
        schema = body["tools"][0].get("input_schema")
    if schema:
        return schema["properties"]["role"]["enum"][0]
    prompt = body["messages"][-1]["content"]
    return next((r for r in REPLIES if f"Role: {r}" in prompt), "coder")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet: the tests read server.requests instead
        pass

    def _cors(self):
        self.send_header("Access-Control-Allow-Origin", self.headers.get("Origin") or "*")
        self.send_header("Access-Control-Allow-Headers", "*")
        self.send_header("Access-Control-Allow-Methods", "POST, OPTIONS")

    def _send(self, status, payload, headers=(), cors=True, length=None):
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(length if length is not None else len(data)))
        for name, value in headers:
            self.send_header(name, value)
        if cors:
            self._cors()
        self.end_headers()
        self.wfile.write(data)

    def do_OPTIONS(self):
        fault = self.path.strip("/").split("/")[0]
        self.send_response(204)
        if fault != "nocors":
            self._cors()
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        fault, _, api = self.path.strip("/").partition("/")
        body = json.loads(raw or b"{}")
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.server.requests.append({"path": self.path, "headers": headers, "body": body})
        anthropic = api.endswith("messages")
        key = self.headers.get("x-api-key") or (self.headers.get("Authorization") or "").removeprefix("Bearer ")
        if fault.isdigit():
            message = {401: "Incorrect API key provided", 403: "not allowed", 404: "model not found"}.get(
                int(fault), "internal error")
            return self._send(int(fault), {"error": {"message": message, "type": "fault"}})
        if fault.startswith("429-"):
            with self.server.lock:
                first = self.path not in self.server.seen
                self.server.seen.add(self.path)
            if first:
                return self._send(429, {"error": {"message": "slow down"}}, [("Retry-After", fault[4:])])
        if fault.startswith("slow-"):
            time.sleep(float(fault[5:]))
        if fault == "notjson":
            return self._send(200, b"<html><body>Welcome to nginx!</body></html>")
        if fault == "truncated":
            self.close_connection = True  # the body ends here, 5000 bytes short of its length
            return self._send(200, b'{"choices": [{"mess', length=5000)
        if fault == "huge":
            return self._send(200, {"choices": [{"message": {"content": "x" * 3_000_000}}]})
        if fault == "drip":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self._cors()
            self.end_headers()
            for _ in range(1000):
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(1)
            return None
        reply = dict(REPLIES[_role_of(body)])
        if fault == "echo":
            reply["message"] = f"your key is {key}"
            reply["thought"] = f"key tail {key[-12:]}"
        text = json.dumps(reply)
        usage = {"prompt_tokens": len(body["messages"][-1]["content"]) // 4, "completion_tokens": len(text) // 4}
        if anthropic:
            content = [{"type": "tool_use", "name": "reply", "input": reply}] if body.get("tools") else \
                [{"type": "text", "text": text}]
            payload = {"content": content, "usage": {"input_tokens": usage["prompt_tokens"],
                                                     "output_tokens": usage["completion_tokens"]}}
        else:
            payload = {"choices": [{"message": {"role": "assistant", "content": text}}], "usage": usage}
        return self._send(200, payload, cors=fault != "nocors")


class FaultServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.requests, self.seen, self.lock = [], set(), threading.Lock()
        self.url = f"http://127.0.0.1:{self.server_address[1]}"

    def start(self):
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self

    def stop(self):
        self.shutdown()
        self.server_close()
