"""One HTTP POST, the same call in CPython and in the browser: ``post(url, headers, body, seconds, cap)``.

- CPython: ``urllib.request`` over http.client, with a read loop that stops at the deadline and
  at ``cap`` bytes.
  Every operation on the connection's socket gets only what is left of ``seconds``, so the call
  ends within its seconds however slowly the server drips, and a redirect is refused in words,
  never followed (:mod:`.deadline`, which only this path imports).
- Pyodide (``sys.platform == "emscripten"``): a synchronous ``XMLHttpRequest`` from the kernel's
  worker, with ``xhr.timeout`` set: the browser's timeout bounds the whole request (headers and
  body), not each read. A redirect of a request that carries a key to another origin is not
  followed: the site's service worker answers it with a refusal (website/service-worker.js);
  without that worker (a forced reload) the browser follows it, and the answer is refused. A
  synchronous request is one C call that no trace hook can interrupt, so the browser's own
  timeout is the only thing that ends a hung call; browsers allow it in a worker (the course's
  kernel runs in one). On a page's main thread, where a browser refuses a timeout on a
  synchronous request, it is left unset: a hung server hangs the call.

Either way the answer is a :class:`Response` for any HTTP status, and :class:`ModelError` for
everything that is not one: no answer (the browser says status 0 for a CORS refusal, Firefox
without raising), a timeout, a body over the cap. Nothing here knows a key: the caller hides it.
"""

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
    from .deadline import handlers  # CPython only: the browser's kernel never loads urllib's machinery

    opener = urllib.request.build_opener(proxies, *handlers(deadline, _redirect_refused))
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


def _redirect_refused(url, code, location):
    return ModelError(redirect_words(url, code, location))


def _same_origin(a, b):
    return _origin_of(a) == _origin_of(b)


def _origin_of(url):
    """(scheme, host, port) of ``url``, the port filled in: what decides whether two URLs share an origin."""
    import urllib.parse
    parts = urllib.parse.urlsplit(url)
    return parts.scheme, parts.hostname, parts.port or {"http": 80, "https": 443}.get(parts.scheme)


def _elsewhere(url, code, target):
    """The start of what is said of a redirect from ``url`` to another origin: the target's origin only
    (never its path or query, where a server may have put anything)."""
    import urllib.parse
    parts = urllib.parse.urlsplit(target)
    where = f"{parts.scheme}://{parts.hostname or '?'}" + (f":{parts.port}" if parts.port else "")
    return f"the server at {_origin(url)} answered with a redirect ({code}) to another origin, {where}"


def redirect_words(url, code, location):
    """Why a redirect from ``url`` (a status ``code``, to ``location``) was refused, in words."""
    import urllib.parse
    target = urllib.parse.urljoin(url, location or "")
    if location and not _same_origin(url, target):
        return (f"{_elsewhere(url, code, target)}; the call stopped there and the key was not sent to it. A "
                "model API answers at its own address: check the base_url (if the provider moved, write its "
                "new address)")
    return (f"the server at {_origin(url)} answered with a redirect ({code}) to another address on the same "
            "server; a model API answers at its own address, so the call stopped: write the address it "
            "redirects to as the base_url (often the difference is http/https or a trailing /v1)")


def _origin(url):
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.split('/', 1)[0]}"


# The header the site's service worker answers a keyed request's redirect with, instead of following it.
REFUSED = "x-agent-team-refused"


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
    got = {}
    for line in str(xhr.getAllResponseHeaders() or "").split("\r\n"):
        name, sep, value = line.partition(":")
        if sep:
            got[name.strip().lower()] = value.strip()
    if got.get(REFUSED) == "redirect":  # the site's service worker did not follow it (website/service-worker.js)
        raise ModelError(f"the server at {_origin(url)} answered with a redirect; this page does not follow a "
                         "redirect with your key, so the call stopped there and the key went nowhere else. A "
                         "model API answers at its own address: check the base_url")
    final = str(getattr(xhr, "responseURL", "") or "")
    if final and not _same_origin(url, final):  # no service worker (a forced reload): refuse the answer
        raise ModelError(f"{_elsewhere(url, 'followed by the browser', final)}; its answer was refused. The "
                         "browser drops Authorization on the way to another origin, but not x-api-key "
                         "(Anthropic): if you do not trust that origin, make a new key")
    text = str(xhr.responseText or "")
    if len(text) > cap:
        raise _too_big(cap)
    return Response(int(xhr.status), text, got)


def _refused(url):
    # Status 0 is all a page learns: the browser hides whether nothing listened or CORS refused.
    return (f"no answer from {_origin(url)}: either nothing is listening there (is the server started, "
            "on this port?), or the server refused a request from this page (CORS)")
