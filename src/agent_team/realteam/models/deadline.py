"""CPython's side of a model call (host side): one deadline for the whole request, and no redirect.

urllib's ``timeout`` bounds each read from the socket, not the request: a server that drips its
headers or a chunk's size one byte at a time keeps one ``readline()`` going for as long as it
drips. :func:`handlers` gives urllib connections whose socket is wrapped (:class:`_Timed`) so that
every operation on it (connect, the TLS handshake, each send and each read, those inside
http.client's readline included) gets only what is left before the call's deadline; past it, it
raises TimeoutError, which :mod:`.http` reports as the call's timeout.

Every redirect is refused, never followed: urllib would send the key's header (Authorization,
x-api-key) on to wherever the server points; the caller says what the refusal raises (:mod:`.http`
raises its ModelError, in words), so this module imports nothing of the client's. Only
:mod:`.http`'s CPython path imports this module: the browser's kernel never loads urllib.
"""

import http.client
import io
import socket
import time
import urllib.request
from functools import partial

__all__ = ["handlers"]


def handlers(deadline, refusal):
    """urllib's handlers for one call: http and https connections that keep ``deadline`` (a
    ``time.monotonic()`` value), and one that refuses every redirect by raising
    ``refusal(url, code, location)``."""
    return _PlainHandler(deadline), _SecureHandler(deadline), _NoRedirect(refusal)


def _dial(host, port, deadline, source):
    """A connected socket, trying each address the name resolves to within what is left."""
    last = None
    for family, kind, proto, _, where in socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM):
        sock = socket.socket(family, kind, proto)
        try:
            sock.settimeout(_left(deadline, "while connecting"))
            if source:
                sock.bind(source)
            sock.connect(where)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return sock
        except OSError as err:  # TimeoutError among them: the next address would have no time either
            last = err
            sock.close()
    raise last if last is not None else OSError(f"no address found for {host}")


def _left(deadline, when):
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError(f"the deadline passed {when}".rstrip())
    return left


class _Deadlined:
    """An http.client connection that keeps the call's deadline on every operation of its socket."""

    def __init__(self, *args, deadline, **kwargs):
        super().__init__(*args, **kwargs)
        self.deadline = deadline

    def connect(self):
        raw = _dial(self.host, self.port, self.deadline, self.source_address)
        self.sock = _Timed(raw, self.deadline)
        if self._tunnel_host:  # through a proxy: its answer to CONNECT is read within the deadline too
            self._tunnel()
        if isinstance(self, http.client.HTTPSConnection):
            wrapped = self._context.wrap_socket(raw, server_hostname=self._tunnel_host or self.host,
                                                do_handshake_on_connect=False)
            wrapped.settimeout(_left(self.deadline, "before the TLS handshake"))
            wrapped.do_handshake()  # one call, which CPython holds to that timeout as a whole
            self.sock = _Timed(wrapped, self.deadline)


class _Plain(_Deadlined, http.client.HTTPConnection):
    pass


class _Secure(_Deadlined, http.client.HTTPSConnection):
    pass


class _PlainHandler(urllib.request.HTTPHandler):
    def __init__(self, deadline):
        super().__init__()
        self.deadline = deadline

    def http_open(self, req):
        return self.do_open(partial(_Plain, deadline=self.deadline), req)


class _SecureHandler(urllib.request.HTTPSHandler):
    def __init__(self, deadline):
        super().__init__()
        self.deadline = deadline

    def https_open(self, req):
        return self.do_open(partial(_Secure, deadline=self.deadline), req, context=self._context)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Every redirect refused: a POST to an API is never moved."""

    def __init__(self, refusal):
        super().__init__()
        self.refusal = refusal

    def http_error_302(self, req, fp, code, msg, headers):
        fp.close()
        raise self.refusal(req.full_url, code, headers.get("location") or headers.get("uri"))

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302


class _Timed:
    """A socket each of whose operations gets only the time left before ``deadline``.

    http.client reads through ``makefile("rb")``; the file made here reads through this object,
    so a readline() of a dripped header line is cut off at the deadline, not at the drip's end.
    """

    def __init__(self, sock, deadline):
        self._sock, self._deadline, self._io_refs, self._closed = sock, deadline, 0, False

    def _arm(self):
        self._sock.settimeout(_left(self._deadline, ""))

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
        self._io_refs += 1
        raw = socket.SocketIO(self, "rb" if "r" in mode else "wb")
        if buffering == 0:
            return raw
        return (io.BufferedReader if "r" in mode else io.BufferedWriter)(raw, io.DEFAULT_BUFFER_SIZE)

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
