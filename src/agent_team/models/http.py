"""One HTTP POST, the same call in CPython and in the browser: ``post(url, headers, body, seconds, cap)``.

- CPython: ``urllib.request`` over http.client, with a read loop that stops at the deadline and
  at ``cap`` bytes.
  Every operation on the connection's socket gets only what is left of ``seconds`` (connect, the
  TLS handshake, each send and read, those inside a header line included), so the call ends
  within its seconds however slowly the server drips. A redirect is refused in words, never
  followed: urllib would send the key's header to wherever it points.
- Pyodide (``sys.platform == "emscripten"``): a synchronous ``XMLHttpRequest`` from the kernel's
  worker, with ``xhr.timeout`` set: the browser's timeout bounds the whole request (headers and
  body), not each read. The browser follows a redirect itself; an answer from another origin
  is refused. A synchronous request is one C call that no trace hook can
  interrupt, so the browser's own timeout is the only thing that ends a hung call; browsers allow
  it in a worker (the course's kernel runs in one). On a page's main thread, where a browser
  refuses a timeout on a synchronous request, it is left unset: a hung server hangs the call.

Either way the answer is a :class:`Response` for any HTTP status, and :class:`ModelError` for
everything that is not one: no answer (the browser says status 0 for a CORS refusal, Firefox
without raising), a timeout, a body over the cap. Nothing here knows a key: the caller hides it.
"""

import functools
import sys
from dataclasses import dataclass, field

__all__ = ["ModelError", "Response", "post", "IN_BROWSER"]

IN_BROWSER = sys.platform == "emscripten"
CHUNK = 64 * 1024


class ModelError(Exception):
    """A model call that failed; ``str(err)`` says why in words, ``failure`` is "timeout" or "error" (as the
    LLM slot records an attempt), ``status`` the HTTP status if there was one (0: no answer),
    ``retry_after`` the seconds a server asked to wait before the next call (or None)."""

    def __init__(self, message, failure="error", status=None, retry_after=None):
        super().__init__(message)
        self.failure, self.status, self.retry_after = failure, status, retry_after


@dataclass
class Response:
    """What the server answered: its status, its headers (lower-case names) and its body as text."""

    status: int
    text: str
    headers: dict = field(default_factory=dict)


def post(url, headers, body, seconds, cap):
    """POST ``body`` (bytes) to ``url`` and wait at most ``seconds``; a body over ``cap`` bytes fails."""
    if IN_BROWSER:
        return _post_xhr(url, headers, body, seconds, cap)
    return _post_urllib(url, headers, body, seconds, cap)


def _too_big(cap):
    return ModelError(f"the reply is over {cap:,} bytes, the cap for one model reply; "
                      "ask for fewer tokens (max_tokens) or raise max_bytes")


def _timed_out(seconds):
    return ModelError(f"no answer within {seconds:.3g} s (the time left for this call)", failure="timeout")


def _post_urllib(url, headers, body, seconds, cap):
    import http.client
    import socket
    import time
    import urllib.error
    import urllib.parse
    import urllib.request

    deadline = time.monotonic() + seconds
    host = urllib.parse.urlsplit(url).hostname or ""
    # A server on this machine is never reached through a proxy the environment names.
    proxies = urllib.request.ProxyHandler({}) if host in ("127.0.0.1", "localhost", "::1") else \
        urllib.request.ProxyHandler()
    plain, secure, no_redirect = _transport()
    opener = urllib.request.build_opener(proxies, plain(deadline), secure(deadline), no_redirect())
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        try:
            reply = opener.open(request, timeout=max(seconds, 0.001))
        except urllib.error.HTTPError as err:  # a status is an answer, whatever it says
            reply = err
        with reply:
            status, got = reply.status, dict((k.lower(), v) for k, v in reply.headers.items())
            chunks, size, read = [], 0, getattr(reply, "read1", reply.read)
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise _timed_out(seconds)
                chunk = read(CHUNK)  # one read from the socket, within what is left: a drip is seen
                if not chunk:
                    break
                size += len(chunk)
                if size > cap:
                    raise _too_big(cap)
                chunks.append(chunk)
            promised = got.get("content-length", "")
            if promised.isdigit() and size < int(promised):
                raise ModelError(f"the reply from {_origin(url)} was cut short ({size:,} of {int(promised):,} "
                                 "bytes): the connection closed early; try again")
    except ModelError:
        raise
    except (TimeoutError, socket.timeout):
        raise _timed_out(seconds) from None
    except urllib.error.URLError as err:
        if isinstance(err.reason, (TimeoutError, socket.timeout)):
            raise _timed_out(seconds) from None
        raise ModelError(f"nothing answered at {_origin(url)} ({err.reason}): is the server running, "
                         "and is the address right?") from None
    except (OSError, ValueError, http.client.HTTPException) as err:  # reset, cut short, a bad URL
        raise ModelError(f"the connection to {_origin(url)} failed ({type(err).__name__}: {err})") from None
    return Response(status, b"".join(chunks).decode("utf-8", "replace"), got)


# --- CPython: a deadline for the whole request, a redirect refused ----------------------------------
#
# urllib's timeout bounds each read from the socket, not the request: a server that drips its
# headers or a chunk's size one byte at a time keeps one readline() going for as long as it
# drips. Here the connection's socket is wrapped so that every operation on it (connect, the TLS
# handshake, each send and each read, those inside http.client's readline included) is given
# only what is left before the call's deadline; past it, it raises TimeoutError.

@functools.lru_cache(maxsize=None)
def _transport():
    """urllib's handlers for http and https whose connections keep a deadline, and one that refuses
    every redirect (made on first use: the browser's kernel never imports urllib's machinery)."""
    import http.client
    import socket
    import time
    import urllib.request

    def dial(address, deadline, source):
        """A connected socket, trying each address the name resolves to within what is left."""
        host, port = address
        last = None
        for family, kind, proto, _, where in socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the deadline passed while connecting")
            sock = socket.socket(family, kind, proto)
            try:
                sock.settimeout(left)
                if source:
                    sock.bind(source)
                sock.connect(where)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                return sock
            except OSError as err:
                last = err
                sock.close()
        raise last if last is not None else OSError(f"no address found for {host}")

    def connect(conn, tls):
        raw = dial((conn.host, conn.port), conn.deadline, conn.source_address)
        conn.sock = _Timed(raw, conn.deadline)
        if conn._tunnel_host:  # through a proxy: its answer to CONNECT is read within the deadline too
            conn._tunnel()
        if tls:
            wrapped = conn._context.wrap_socket(raw, server_hostname=conn._tunnel_host or conn.host,
                                                do_handshake_on_connect=False)
            left = conn.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the deadline passed before the TLS handshake")
            wrapped.settimeout(left)  # one call, which CPython holds to this timeout as a whole
            wrapped.do_handshake()
            conn.sock = _Timed(wrapped, conn.deadline)

    class Plain(http.client.HTTPConnection):
        def __init__(self, *args, deadline, **kwargs):
            super().__init__(*args, **kwargs)
            self.deadline = deadline

        def connect(self):
            connect(self, tls=False)

    class Secure(http.client.HTTPSConnection):
        def __init__(self, *args, deadline, **kwargs):
            super().__init__(*args, **kwargs)
            self.deadline = deadline

        def connect(self):
            connect(self, tls=True)

    class PlainHandler(urllib.request.HTTPHandler):
        def __init__(self, deadline):
            super().__init__()
            self.deadline = deadline

        def http_open(self, req):
            return self.do_open(functools.partial(Plain, deadline=self.deadline), req)

    class SecureHandler(urllib.request.HTTPSHandler):
        def __init__(self, deadline):
            super().__init__()
            self.deadline = deadline

        def https_open(self, req):
            return self.do_open(functools.partial(Secure, deadline=self.deadline), req, context=self._context)

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        """Every redirect refused in words: a POST to an API is never moved, and urllib would send the
        key's header (Authorization, x-api-key) on to wherever the server points."""

        def http_error_302(self, req, fp, code, msg, headers):
            fp.close()
            raise ModelError(_redirect_words(req.full_url, code, headers.get("location") or headers.get("uri")))

        http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302

    return PlainHandler, SecureHandler, NoRedirect


class _Timed:
    """A socket each of whose operations gets only the time left before ``deadline``.

    http.client reads through ``makefile("rb")``; the file made here reads through this object,
    so a readline() of a dripped header line is cut off at the deadline, not at the drip's end.
    """

    def __init__(self, sock, deadline):
        self._sock, self._deadline, self._io_refs, self._closed = sock, deadline, 0, False

    def _arm(self):
        import time
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the deadline passed")
        self._sock.settimeout(left)

    def recv_into(self, buffer, *args):
        self._arm()
        return self._sock.recv_into(buffer, *args)

    def recv(self, *args):
        self._arm()
        return self._sock.recv(*args)

    def send(self, data, *args):
        self._arm()
        return self._sock.send(data, *args)

    def sendall(self, data, *args):
        self._arm()  # since Python 3.5 the timeout bounds the whole sendall
        return self._sock.sendall(data, *args)

    def makefile(self, mode="rb", buffering=None, **_):
        import io
        import socket
        self._io_refs += 1
        raw = socket.SocketIO(self, "rb" if "r" in mode else "wb")
        return raw if buffering == 0 else (io.BufferedReader if "r" in mode else io.BufferedWriter)(
            raw, io.DEFAULT_BUFFER_SIZE)

    def _decref_socketios(self):
        self._io_refs -= 1
        if self._closed and self._io_refs <= 0:
            self._sock.close()

    def close(self):
        self._closed = True
        if self._io_refs <= 0:
            self._sock.close()

    def __getattr__(self, name):  # fileno, setsockopt, settimeout...: the socket's own
        return getattr(self._sock, name)


def _same_origin(a, b):
    import urllib.parse
    ports = {"http": 80, "https": 443}
    x, y = (urllib.parse.urlsplit(u) for u in (a, b))
    return (x.scheme, x.hostname, x.port or ports.get(x.scheme)) == \
        (y.scheme, y.hostname, y.port or ports.get(y.scheme))


def _redirect_words(url, code, location):
    """Why a redirect was refused, naming where it pointed by its origin only (never its path or query)."""
    import urllib.parse
    target = urllib.parse.urljoin(url, location or "")
    if location and not _same_origin(url, target):
        parts = urllib.parse.urlsplit(target)
        where = f"{parts.scheme}://{parts.hostname or '?'}" + (f":{parts.port}" if parts.port else "")
        return (f"the server at {_origin(url)} answered with a redirect ({code}) to another origin, {where}; "
                "the call stopped there and the key was not sent to it. A model API answers at its own "
                "address: check the base_url (if the provider moved, write its new address)")
    return (f"the server at {_origin(url)} answered with a redirect ({code}) to another address on the same "
            "server; a model API answers at its own address, so the call stopped: write the address it "
            "redirects to as the base_url (often the difference is http/https or a trailing /v1)")


def _origin(url):
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.split('/', 1)[0]}"


def _post_xhr(url, headers, body, seconds, cap):
    import js  # only in Pyodide
    from pyodide.ffi import JsException

    xhr = js.XMLHttpRequest.new()
    xhr.open("POST", url, False)  # False: synchronous, so a plain function can return the answer
    on_page = hasattr(js, "document")  # a page's main thread refuses a timeout on a sync request
    if not on_page:
        xhr.timeout = max(1, int(seconds * 1000))
    for name, value in headers.items():
        xhr.setRequestHeader(name, value)
    try:
        xhr.send(body.decode("utf-8"))
    except JsException as err:
        name = getattr(err, "name", "") or type(err).__name__
        if "Timeout" in name or "Timeout" in str(err):
            raise _timed_out(seconds) from None
        raise ModelError(_refused(url), status=0) from None
    if xhr.status == 0:  # Firefox reports a CORS refusal this way, without raising
        raise ModelError(_refused(url), status=0)
    final = str(getattr(xhr, "responseURL", "") or "")
    if final and not _same_origin(url, final):  # a sync XHR cannot refuse to follow: refuse the answer
        raise ModelError(f"{_redirect_words(url, 'followed by the browser', final).split(';')[0]}; its answer "
                         "was refused. The browser drops Authorization on the way to another origin, but not "
                         "x-api-key (Anthropic): if you do not trust that origin, make a new key")
    text = str(xhr.responseText or "")
    if len(text) > cap:
        raise _too_big(cap)
    got = {}
    for line in str(xhr.getAllResponseHeaders() or "").split("\r\n"):
        name, sep, value = line.partition(":")
        if sep:
            got[name.strip().lower()] = value.strip()
    return Response(int(xhr.status), text, got)


def _refused(url):
    return (f"no answer from {_origin(url)}: the server refused a request from this page (CORS), "
            "or nothing is listening there")
