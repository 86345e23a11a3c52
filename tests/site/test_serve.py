"""website/serve.py: the static server counts the response bodies it sends (bench/home.py's bytes)."""

import time
import urllib.request

from website import serve


def test_the_server_counts_every_body_it_sends(tmp_path):
    (tmp_path / "a.wasm").write_bytes(b"x" * 200_000)
    (tmp_path / "index.html").write_text("<p>hi</p>")
    server, url = serve.start(tmp_path)
    try:
        with urllib.request.urlopen(url + "a.wasm") as r:
            assert r.headers["Content-Type"] == "application/wasm" and len(r.read()) == 200_000
        with urllib.request.urlopen(url) as r:
            r.read()
        # The server thread counts a chunk once written: the client may have read it a moment before.
        deadline = time.monotonic() + 60  # generous: a busy machine may not run the thread for a while
        while server.body_bytes < 200_009 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert server.body_bytes == 200_000 + len("<p>hi</p>")
    finally:
        server.shutdown()
