"""The model client (CPython side) against a hostile server and hostile input (issue 34, items 1 and 3).

A server of our own on 127.0.0.1 answers each path with raw bytes the test chose: the key echoed
in every encoding a reply, a header, an error or a page can carry it; a redirect to another port
(another origin) that records what reached it; headers, chunk sizes or a body dripped one byte
at a time; a flood. Hostile input: a key with a newline, a space or a control character, and a
key pasted into the address or the model field.
"""

import html
import json
import socket
import threading
import time
import urllib.parse
import warnings

import pytest

from agent_team.realteam.llm import llm_policy
from agent_team.realteam.models import ModelError, anthropic_messages, client, openai_chat
from agent_team.realteam.models.connection import probe_connection
from agent_team.repo import GOAL, initial_repo
from agent_team.views import make_view
from hostile_server import ECHOES, ERRORS, Hostile, _json_u, answer, chat, coder_reply

KEY = "sk-test-RedTeam0123456789abcdefghijklmnopqrstuv"
QUOTED = 'sk-test-quo"te\\back-0123456789abcdefghij'  # a key with the two characters JSON escapes
HIDDEN = "<hidden>"


@pytest.fixture(scope="module")
def hostile():
    with Hostile() as server:
        yield server


def serve(server, name, route):
    server.routes[name] = route
    return f"{server.url}/{name}/v1"


def coder_turn(model, seconds=10):
    return llm_policy("coder", model, retries=0, seconds=seconds)(GOAL, make_view("coder", GOAL, initial_repo(), []))


def everything(out):
    """Every text a turn hands on (what the trace keeps of it)."""
    return json.dumps(out, default=repr)


# --- 1. the key at entry ----------------------------------------------------------------------

def test_a_trailing_newline_is_stripped_with_a_warning_and_the_key_sent_clean(hostile):
    url = serve(hostile, "ok-nl", lambda r: answer(200, chat(coder_reply())))
    with pytest.warns(UserWarning, match="ended with a line break"):
        model = openai_chat(url, "smol", key=KEY + "\n")
    out = coder_turn(model)
    assert out["attempts"][0]["failure"] is None, out["attempts"]
    assert hostile.requests[-1]["headers"]["authorization"] == f"Bearer {KEY}"
    assert KEY not in everything(out)


@pytest.mark.parametrize("bad, words", [
    (KEY[:20] + "\n" + KEY[20:], "line break"),
    (KEY[:20] + " " + KEY[20:], "space"),
    (" " + KEY, "space"),
    (KEY + "\t", "tab"),
    (KEY[:20] + "\x00" + KEY[20:], "control character"),
    (KEY[:20] + "\u00a0" + KEY[20:], "not plain ASCII"),
    (KEY[:20] + "\u201d" + KEY[20:], "not plain ASCII"),
    ("\n", "key is empty"),
])
def test_a_key_with_whitespace_or_control_characters_is_refused_at_entry_in_words(bad, words):
    for make in (lambda: openai_chat("http://127.0.0.1:9/v1", "smol", key=bad),
                 lambda: anthropic_messages("claude-x", key=bad, base_url="http://127.0.0.1:9/v1")):
        with pytest.raises(ValueError, match=words) as err:
            make()
        text = str(err.value) + repr(err.value.args)
        assert KEY[:12] not in text and KEY[-12:] not in text
        assert err.value.__context__ is None or KEY[-12:] not in str(err.value.__context__)


def test_ask_key_refuses_a_key_with_a_space_inside_and_strips_a_newline(monkeypatch):
    from agent_team.realteam.models import ask_key
    monkeypatch.setenv("RED_TEAM_KEY", KEY + "\n")
    with pytest.warns(UserWarning, match="line break"):
        assert ask_key("RED_TEAM_KEY").reveal() == KEY
    monkeypatch.setenv("RED_TEAM_KEY", KEY[:10] + " " + KEY[10:])
    with pytest.raises(ValueError, match="space") as err:
        ask_key("RED_TEAM_KEY")
    assert KEY[-12:] not in str(err.value)


KEY_SHAPES = [
    KEY,
    "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7dEf0h",
    "sk-ant-api03-" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe-abcdefgh_IJKLmnop-QRSTuvwx",
    "sk-or-v1-" + "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9",
    "gsk_" + "aB3cD4eF5gH6iJ7kL8mN9oP0qR1sT2uV3wX4yZ5",
    "AIzaSyD" + "-9tSrke72PouQMnMX7Ag3KsxPS5xw0yQxU",
    "hf_" + "QwErTyUiOpAsDfGhJkLzXcVbNm1234567890",
    "Xq7Lp2Vz9Rt4Wm8Ns3Kd6Hf1Jb5Gc0YaUe",  # no prefix: a long high-entropy token
]
MODEL_NAMES = ["gpt-4o-mini", "gpt-4o-mini-2024-07-18", "claude-3-5-sonnet-20241022", "claude-sonnet-4-5",
               "meta-llama/Llama-3.1-8B-Instruct", "mistralai/Mixtral-8x22B-Instruct-v0.1", "smollm2",
               "SmolLM2-135M-Instruct.Q4_1.gguf", "qwen2.5-coder:32b-instruct-q4_K_M",
               "deepseek/deepseek-r1-distill-llama-70b", "DeepSeek-R1-Distill-Qwen-32B",
               "openrouter/auto", "llama3.2:3b", "gemini-2.0-flash-exp", "o1-preview-2024-09-12",
               "accounts/fireworks/models/llama-v3p1-405b-instruct", "skill-model", "sk-model"]


@pytest.mark.parametrize("shape", KEY_SHAPES, ids=[s[:7] for s in KEY_SHAPES])
def test_a_key_in_the_address_or_model_field_is_refused_without_echo(shape):
    cases = [lambda: openai_chat(shape, "gpt-4o-mini"),  # the key where the address goes
             lambda: openai_chat(f"https://api.openai.com/v1?key={shape}", "gpt-4o-mini"),
             lambda: openai_chat("https://api.openai.com/v1", shape),  # the key as the model's name
             lambda: anthropic_messages(shape, base_url="https://api.anthropic.com/v1")]
    for make in cases:
        with pytest.raises(ValueError, match="looks like an API key") as err:
            make()
        text = str(err.value) + repr(err.value.args)
        assert shape not in text and shape[-10:] not in text and shape[4:14] not in text, text


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_model_names_are_not_taken_for_keys(name):
    assert openai_chat("https://api.example.com/v1", name).model == name


def test_the_connect_form_refuses_a_key_in_any_field_and_keeps_none(monkeypatch):
    ipywidgets = pytest.importorskip("ipywidgets")
    from agent_team.widgets import Connect
    for fields in ({"model": KEY}, {"base_url": KEY}, {"provider": KEY}):
        with pytest.raises(ValueError, match="looks like an API key") as err:
            Connect(**fields)
        assert KEY[-12:] not in str(err.value)
    form = Connect("OpenAI-compatible", "http://127.0.0.1:9/v1", "smol")
    with pytest.raises(ValueError, match="looks like an API key"):
        form.set(model=KEY)
    form._inputs["model"].value = KEY  # pasted into the model box of the page
    form._inputs["base_url"].value = "https://x/v1?k=" + KEY  # and into the address box
    states = []
    todo = [form.widget]
    while todo:
        w = todo.pop()
        states.append(w.get_state())
        todo += list(getattr(w, "children", ()))
    saved = json.dumps(states, default=str) + form.html + form.text + json.dumps(vars(form), default=repr)
    assert KEY not in saved and KEY[-12:] not in saved
    assert form._inputs["model"].value == "" and "looks like an API key" in form.text
    assert isinstance(ipywidgets.Text(), ipywidgets.Text)


# --- 1. the key echoed back, in every encoding --------------------------------------------------

@pytest.mark.parametrize("how", list(ECHOES))
@pytest.mark.parametrize("key", [KEY, QUOTED], ids=["plain", "quote-backslash"])
def test_an_echoed_key_in_any_encoding_reaches_no_trace(hostile, how, key):
    url = serve(hostile, f"echo-{how}", lambda r: answer(200, ECHOES[how](key)))
    out = coder_turn(openai_chat(url, "smol", key=key))
    text = everything(out)
    text_decoded = html.unescape(urllib.parse.unquote(urllib.parse.unquote(text)))
    for piece in (key, key[:12], key[-12:], key[10:22]):
        assert piece not in text and piece not in text_decoded, (how, text[:800])
        assert json.dumps(piece)[1:-1] not in text and _json_u(piece) not in text.replace("\\\\", "\\")


@pytest.mark.parametrize("how", list(ERRORS))
@pytest.mark.parametrize("key", [KEY, QUOTED], ids=["plain", "quote-backslash"])
def test_an_echoed_key_in_an_error_or_page_reaches_no_words(hostile, how, key):
    url = serve(hostile, f"err-{how}", lambda r: ERRORS[how](key))
    model = openai_chat(url, "smol", key=key)
    out = coder_turn(model)
    conn = probe_connection(model, seconds=5)
    from agent_team.render.connect import connect_html, connect_text
    shown = connect_html("p", url, "smol", conn) + connect_text("p", url, "smol", conn)
    for text in (everything(out), conn.words, shown, html.unescape(shown)):
        for piece in (key, key[:12], key[-12:]):
            assert piece not in text and repr(piece)[1:-1] not in text and json.dumps(piece)[1:-1] not in text, \
                (how, text[:600])


def test_an_exception_of_any_type_is_scrubbed(monkeypatch):
    def failing_post(url, headers, body, seconds, cap):  # as the browser's setRequestHeader would
        raise TypeError(f"Failed to execute 'setRequestHeader': {headers['Authorization']!r} is not valid")

    monkeypatch.setattr(client, "post", failing_post)
    model = openai_chat("https://api.example.com/v1", "smol", key=KEY)
    with pytest.raises(ModelError) as err:
        model("hi")
    assert KEY not in str(err.value) and KEY[-12:] not in str(err.value) and HIDDEN in str(err.value)
    assert err.value.__context__ is None and err.value.__cause__ is None
    out = coder_turn(model)
    assert KEY[-12:] not in everything(out)


# --- 1. redirects -------------------------------------------------------------------------------

@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
@pytest.mark.parametrize("wire", ["openai", "anthropic"])
def test_a_redirect_to_another_origin_never_carries_the_key(hostile, code, wire):
    other = Hostile()  # another port of 127.0.0.1: another origin
    try:
        serve(other, "steal", lambda r: answer(200, chat(coder_reply(message="from the other origin"))))
        url = serve(hostile, f"moved-{code}", lambda r: answer(code, b"", [f"Location: {other.url}/steal/v1/x"]))
        model = openai_chat(url, "smol", key=KEY) if wire == "openai" else \
            anthropic_messages("claude-x", key=KEY, base_url=url, structured=False)
        out = coder_turn(model)
        assert not other.requests or all(KEY not in json.dumps(r["headers"]) for r in other.requests)
        assert not other.requests, "the client followed the redirect"
        error = out["attempts"][0]["error"] or ""
        assert f"redirect ({code})" in error and "another origin" in error and "not sent" in error, error
        assert "from the other origin" not in everything(out)
    finally:
        other.shutdown()
        other.server_close()


def test_a_redirect_on_the_same_origin_is_refused_in_words(hostile):
    serve(hostile, "here", lambda r: answer(200, chat(coder_reply())))
    url = serve(hostile, "moved-same", lambda r: answer(302, b"", [f"Location: {hostile.url}/here/v1/x"]))
    out = coder_turn(openai_chat(url, "smol", key=KEY))
    error = out["attempts"][0]["error"] or ""
    assert "redirect (302)" in error and "same server" in error, error


# --- 3. deadlines ---------------------------------------------------------------------------------

def drip_headers(request):
    yield b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Slow: ", 0
    for _ in range(60):
        yield b"a", 0.25


def drip_status(request):
    for c in b"HTTP/1.1 200 OK" + b" " * 60:
        yield bytes([c]), 0.25


def drip_chunk_sizes(request):
    yield b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", 0
    for _ in range(60):
        yield b"0", 0.25


def drip_chunked_body(request):
    yield b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", 0
    yield b"1000\r\n", 0
    for _ in range(60):
        yield b" ", 0.25


def flood(request):  # no length: as fast as the socket takes it, without end
    yield b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n", 0
    block = b'{"x": "' + b"y" * 65536
    for _ in range(2000):
        yield block, 0


def flood_chunked(request):
    yield b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", 0
    for _ in range(2000):
        yield b"10000\r\n" + b"y" * 65536 + b"\r\n", 0


def flood_headers(request):
    yield b"HTTP/1.1 200 OK\r\n", 0
    for i in range(100_000):
        yield f"X-{i}: {'z' * 100}\r\n".encode(), 0


DEADLINES = {"drip-headers": drip_headers, "drip-status": drip_status, "drip-chunk-sizes": drip_chunk_sizes,
             "drip-chunked-body": drip_chunked_body}


@pytest.mark.parametrize("how", list(DEADLINES))
def test_a_dripping_server_ends_the_call_within_its_seconds(hostile, how):
    model = openai_chat(serve(hostile, how, DEADLINES[how]), "smol", key=KEY, seconds=60)
    started = time.monotonic()
    conn = probe_connection(model, seconds=2)
    took = time.monotonic() - started
    assert took < 4.5, f"{how}: the call took {took:.1f} s for a deadline of 2 s"
    assert conn.kind == "slow" and "within 2 s" in conn.words, conn


@pytest.mark.parametrize("how, words", [(flood, "over 1,000,000 bytes"), (flood_chunked, "over 1,000,000 bytes"),
                                        (flood_headers, "connection to")], ids=["body", "chunked", "headers"])
def test_a_flood_ends_at_the_cap_within_its_seconds(hostile, how, words):
    model = openai_chat(serve(hostile, how.__name__, how), "smol", key=KEY, seconds=60)
    started = time.monotonic()
    conn = probe_connection(model, seconds=5)
    assert time.monotonic() - started < 7 and not conn.ok and words in conn.words, conn


def test_a_server_that_answers_nothing_after_connecting_is_a_timeout_within_its_seconds():
    with socket.socket() as listener:  # accepts the connection (the backlog), never reads or writes
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        model = openai_chat(f"http://127.0.0.1:{listener.getsockname()[1]}/v1", "smol", seconds=60)
        started = time.monotonic()
        conn = probe_connection(model, seconds=1.5)
        assert time.monotonic() - started < 3.5 and conn.kind == "slow", conn


def test_no_warning_for_a_clean_key():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        openai_chat("https://api.example.com/v1", "smol", key=KEY)


def test_a_proxy_from_the_environment_is_still_used_for_a_remote_address(hostile, monkeypatch):
    for name in ("no_proxy", "NO_PROXY", "HTTP_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("http_proxy", hostile.url)
    serve(hostile, "proxied", lambda r: answer(200, chat(coder_reply(message="through the proxy"))))
    out = coder_turn(openai_chat("http://model.invalid/proxied/v1", "smol", key=KEY))
    assert out["attempts"][0]["failure"] is None and out["message"] == "through the proxy", out["attempts"]


# --- the browser's transport, with a stand-in XMLHttpRequest ----------------------------------------

class _FakeXhr:
    def __init__(self, final_url):
        self.final_url, self.headers, self.timeout = final_url, {}, 0

    def open(self, method, url, sync):
        self.url = url

    def setRequestHeader(self, name, value):  # noqa: N802 -- the browser's own name
        self.headers[name] = value

    def send(self, body):
        self.status, self.responseText, self.responseURL = 200, chat(coder_reply()), self.final_url or self.url

    def getAllResponseHeaders(self):  # noqa: N802 -- the browser's own name
        return "content-type: application/json\r\n"


@pytest.mark.parametrize("final", [None, "https://api.example.com/v1/chat/completions",
                                   "https://elsewhere.example:8443/steal"])
def test_the_browser_keeps_its_whole_request_timeout_and_refuses_another_origins_answer(monkeypatch, final):
    import sys
    import types

    from agent_team.realteam.models import http
    made = []
    js = types.SimpleNamespace(XMLHttpRequest=types.SimpleNamespace(new=lambda: made.append(_FakeXhr(final))
                                                                    or made[-1]))
    ffi = types.ModuleType("pyodide.ffi")
    ffi.JsException = RuntimeError
    monkeypatch.setitem(sys.modules, "js", js)
    monkeypatch.setitem(sys.modules, "pyodide", types.ModuleType("pyodide"))
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)
    url = "https://api.example.com/v1/chat/completions"
    if final and "elsewhere" in final:
        with pytest.raises(ModelError, match="another origin, https://elsewhere.example:8443; its answer was refused"):
            http._post_xhr(url, {"Authorization": f"Bearer {KEY}"}, b"{}", 2.5, 10_000)
    else:
        assert http._post_xhr(url, {}, b"{}", 2.5, 10_000).status == 200
    assert made[0].timeout == 2500  # the browser's timeout: the whole request, headers and body


# --- https: the same deadline through TLS (a certificate of our own, trusted through SSL_CERT_FILE) --

@pytest.fixture(scope="module")
def tls(tmp_path_factory):
    """A TLS server on 127.0.0.1 and a relay before it that drips the server's bytes (the handshake too)."""
    import shutil
    import ssl
    import subprocess
    if not shutil.which("openssl"):
        pytest.skip("no openssl to make a certificate")
    where = tmp_path_factory.mktemp("tls")
    cert, key = where / "cert.pem", where / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)

    class Secure(Hostile):
        def get_request(self):
            sock, address = self.socket.accept()
            return context.wrap_socket(sock, server_side=True, do_handshake_on_connect=False), address

    server = Secure()
    server.url = server.url.replace("http://", "https://")
    relay = socket.socket()
    relay.bind(("127.0.0.1", 0))
    relay.listen(8)

    def pump(src, dst, pause):
        try:
            while data := src.recv(1 if pause else 65536):
                dst.sendall(data)
                time.sleep(pause)
        except OSError:
            pass

    def relay_loop():
        while True:
            try:
                client_side, _ = relay.accept()
            except OSError:
                return
            upstream = socket.create_connection(server.server_address)
            threading.Thread(target=pump, args=(client_side, upstream, 0), daemon=True).start()
            threading.Thread(target=pump, args=(upstream, client_side, 0.2), daemon=True).start()

    threading.Thread(target=relay_loop, daemon=True).start()
    server.relay_url = f"https://127.0.0.1:{relay.getsockname()[1]}"
    server.cert = str(cert)
    yield server
    relay.close()
    server.shutdown()
    server.server_close()


def test_https_works_through_the_deadline_connection(tls, monkeypatch):
    monkeypatch.setenv("SSL_CERT_FILE", tls.cert)
    tls.routes["ok"] = lambda r: answer(200, chat(coder_reply()))
    out = coder_turn(openai_chat(f"{tls.url}/ok/v1", "smol", key=KEY))
    assert out["attempts"][0]["failure"] is None, out["attempts"]
    assert tls.requests[-1]["headers"]["authorization"] == f"Bearer {KEY}"


@pytest.mark.parametrize("how", ["handshake", "headers", "chunk-sizes"])
def test_https_dripped_ends_within_its_seconds(tls, monkeypatch, how):
    monkeypatch.setenv("SSL_CERT_FILE", tls.cert)
    tls.routes["ok"] = lambda r: answer(200, chat(coder_reply()))
    tls.routes["drip-headers"], tls.routes["drip-chunk-sizes"] = drip_headers, drip_chunk_sizes
    url = f"{tls.relay_url}/ok/v1" if how == "handshake" else f"{tls.url}/drip-{how}/v1"  # the relay drips all
    started = time.monotonic()
    conn = probe_connection(openai_chat(url, "smol", key=KEY, seconds=60), seconds=2)
    took = time.monotonic() - started
    assert took < 4.5 and conn.kind == "slow", (took, conn)
