"""Serve the built site on 127.0.0.1 only: `python -m website.serve [--port 8000] [--dir _output]`.

A plain static server (any static host works the same) with the MIME types the site needs:
module workers and `import()` refuse `.mjs` files not served as JavaScript, and
`WebAssembly.instantiateStreaming` wants `application/wasm`.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import sys
import threading
from pathlib import Path

MIME = {
    ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
    ".json": "application/json", ".whl": "application/zip", ".zip": "application/zip",
    ".ipynb": "application/json", ".svg": "image/svg+xml", ".css": "text/css",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME}
    quiet = False

    def end_headers(self):
        # Pyodide, the wheels and the app bundle never change under one URL within a build;
        # a rebuild may change them, so let the browser revalidate.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def copyfile(self, source, outputfile):
        # Counted, so the bench can say what a visit cost the server (browsers' own counts leave out
        # what a worker fetched or a closed page dropped).
        while chunk := source.read(64 * 1024):
            outputfile.write(chunk)
            self.server.count(len(chunk))

    def log_message(self, format, *args):  # noqa: A002 -- http.server's own signature
        if not self.quiet:
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    body_bytes = 0  # response bodies sent so far (bench/home.py reads it)
    _lock = threading.Lock()

    def count(self, n):
        with self._lock:
            self.body_bytes += n

    def handle_error(self, request, client_address):
        # A browser that closes a connection mid-transfer (a page closed while loading) is normal.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def make_server(directory: Path, port: int = 0, quiet: bool = True) -> Server:
    """A server on 127.0.0.1 (port 0: any free port); call serve_forever() or start()."""
    handler = functools.partial(type("H", (Handler,), {"quiet": quiet}), directory=str(directory))
    return Server(("127.0.0.1", port), handler)


def start(directory: Path, port: int = 0) -> tuple[Server, str]:
    """Serve in a daemon thread; return the server and its base URL."""
    server = make_server(directory, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--dir", type=Path, default=Path(__file__).resolve().parent.parent / "_output")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    if not (args.dir / "index.html").exists():
        sys.exit(f"{args.dir} has no site: run `make site` first")
    server = make_server(args.dir, args.port, quiet=args.quiet)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    print(f"\n  The course is at {url}  (notebooks: {url}lab/index.html)\n  Ctrl+C stops the server.\n",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
