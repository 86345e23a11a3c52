"""A hostile model server of the tests' own on 127.0.0.1 (issue 34): each path answers with raw bytes
the test chose, as fast or as slowly as it likes, and the replies that carry a key back in every
encoding a reply, an error or a page can carry it (ECHOES, ERRORS, each a function of the key).
The CPython client meets it in tests/models/test_red_team_client.py; the browser's, with
``cors=True`` (a preflight allowed, every answer readable by a page), in tests/browser.
"""

import html
import json
import socketserver
import threading
import time
import urllib.parse

class Hostile(socketserver.ThreadingTCPServer):
    """Each request's first path segment names a route: ``route(request) -> [(bytes, pause), ...]``;
    ``default``, the route of any other path. Every request is recorded (``requests``) before it is
    answered. A ``with`` block stops it at its end."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, cors=False, default=None):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.routes, self.requests, self.cors, self.default = {}, [], cors, default
        self.url = f"http://127.0.0.1:{self.server_address[1]}"
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def __exit__(self, *exc):
        self.shutdown()
        self.server_close()

    def heard(self, method=None):
        """What was asked, as "METHOD /path" lines (of one method only, if given)."""
        return [f"{r['method']} {r['path']}" for r in self.requests if method in (None, r["method"])]


class _Handler(socketserver.StreamRequestHandler):
    def handle(self):
        line = self.rfile.readline(65537).decode("latin-1")
        if not line.strip():
            return
        method, path, _ = line.split(" ", 2)
        headers = {}
        while True:
            h = self.rfile.readline(65537).decode("latin-1")
            if h in ("\r\n", "\n", ""):
                break
            name, _, value = h.partition(":")
            headers[name.strip().lower()] = value.strip()
        body = self.rfile.read(int(headers.get("content-length") or 0))
        if path.startswith("http://"):  # asked as a proxy: the route is in the URL's path
            path = urllib.parse.urlsplit(path).path
        request = {"method": method, "path": path, "headers": headers, "body": body}
        self.server.requests.append(request)
        first = path.strip("/").split("/")[0]
        route = self.server.routes.get(first) or self.server.default
        if route is None:
            raise KeyError(f"no route {first!r}")
        if self.server.cors and method == "OPTIONS":
            asked = headers.get("access-control-request-headers", "*")
            route = _preflight(asked)
        try:
            for i, (data, pause) in enumerate(route(request)):
                if self.server.cors and i == 0:  # after the status line: a page may read the answer
                    status, _, rest = data.partition(b"\r\n")
                    data = status + b"\r\nAccess-Control-Allow-Origin: *\r\n" + rest
                self.wfile.write(data)
                self.wfile.flush()
                if pause:
                    time.sleep(pause)
        except OSError:  # the client gave up: that is what a deadline does
            pass


def allow_all(request):
    """An empty answer anything may read or load (CORS, CORP), whatever was asked."""
    return answer(200, b"", ["Cross-Origin-Resource-Policy: cross-origin"], content_type="text/javascript")


def redirect_to(url):
    """A route answering every request with a 307 to the same path at ``url``."""
    return lambda request: answer(307, b"", [f"Location: {url}{request['path']}"])


def answer(status, body, headers=(), content_type="application/json"):
    data = body if isinstance(body, bytes) else body.encode()
    head = [f"HTTP/1.1 {status} X", f"Content-Type: {content_type}", f"Content-Length: {len(data)}",
            "Connection: close", *headers]
    return [("\r\n".join(head).encode() + b"\r\n\r\n" + data, 0)]


def chat(content, usage=None):
    return json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}],
                       "usage": usage or {"prompt_tokens": 5, "completion_tokens": 3}})


def coder_reply(**fields):
    reply = {"role": "coder", "thought": "t", "message": "m", "patches": []}
    reply.update(fields)
    return json.dumps(reply)


def _preflight(asked):
    allowed = [f"Access-Control-Allow-Headers: {asked}", "Access-Control-Allow-Methods: POST"]
    return lambda request: answer(204, b"", allowed)


def _json_u(text):
    return "".join(f"\\u{ord(c):04x}" for c in text)


def _mixed(text):
    return "".join(f"\\u{ord(c):04X}" if i % 2 else c for i, c in enumerate(text))


ECHOES = {
    # the content is JSON text, which parse_reply decodes again: escapes inside it come back as the key
    "json-u-escaped": lambda k: chat(coder_reply().replace('"m"', '"' + _json_u(k) + '"')),
    "json-u-mixed": lambda k: chat(coder_reply().replace('"m"', '"' + _mixed(k) + '"')),
    "json-u-double": lambda k: chat(coder_reply().replace('"m"', '"' + _json_u(k).replace("\\", "\\\\") + '"')),
    "percent": lambda k: chat(coder_reply(message="see https://x/?k=" + "".join(f"%{ord(c):02X}" for c in k))),
    "percent-twice": lambda k: chat(coder_reply(message="see " + "".join(f"%25{ord(c):02x}" for c in k))),
    "html-entities": lambda k: chat(coder_reply(message="".join(f"&#{ord(c)};" for c in k))),
    "split-fields": lambda k: chat(coder_reply(thought=k[:22], message=k[22:])),
    "usage": lambda k: chat(coder_reply(), usage={"prompt_tokens": k, "completion_tokens": [k]}),
}


ERRORS = {
    "json-error": lambda k: answer(401, json.dumps({"error": {"message": f"bad key {k}"}})),
    "json-error-u": lambda k: answer(401, '{"error": {"message": "bad key ' + _json_u(k) + '"}}'),
    "html-page": lambda k: answer(200, f"<html><p>key {html.escape(k)}</p></html>".encode(),
                                  content_type="text/html"),
    "html-page-raw": lambda k: answer(200, f"<html>{k}</html>".encode(), content_type="text/html"),
    "refusal": lambda k: answer(200, json.dumps({"choices": [{"message": {"refusal": f"no: {k}"}}]})),
    "not-a-reply": lambda k: answer(200, json.dumps({"choices": [{"message": {"content": [k]}}], "x": k})),
}
