"""A model in the learner's own tab: llama.cpp compiled to WebAssembly, no key, no server, no account.

    coder = llm_policy("coder", in_tab("https://example.org/model.gguf"), seconds=120)

Browser only. The kernel cannot run the model itself: its worker is busy with Python, and the
runtime (wllama, vendored into the site under ``intab/``) starts workers of its own, which a
worker started by a worker did not always get in Firefox (issue 33). So the page runs it, as it
runs the isolated runner (website/extension/src/in-tab.ts): the kernel posts its asks to the page
(``load``, ``ask``, ``cancel``) and waits on a SharedArrayBuffer for the answer, in short slices,
so that Interrupt and the slot's deadline are seen within a tenth of a second; either one cancels
the generation on the page before it propagates. The runtime's files are fetched only when a model
is first made: a page that never makes one loads none of them.

The same ``prompt -> str`` as :class:`.client.HttpModel`: a copy per role asks for that role's
JSON schema (the runtime constrains the model's sampling to it), ``last_usage`` holds the token
counts of the last call, ``seconds`` bounds each call (and what is left of the caller's limit),
and every failure is a :class:`.http.ModelError` in words. Its code, like any real model's, is
tested by the isolated runner.
"""

import json
import time

from ...clip import clip
from ...limits import time_left
from ...runners import page
from .http import IN_BROWSER, ModelError
from .schema import reply_schema, unflatten

__all__ = ["in_tab", "InTabModel", "CannotRunHere"]

HEADER = 16            # four Int32: answer ready, answer length, KiB loaded, KiB in all
ANSWER_BYTES = 1 << 20
SLICE = 0.1            # how often a wait looks up from the buffer (Interrupt, the slot's deadline)
LOAD_SECONDS = 3600.0  # a download of a large model on a slow line; Interrupt stops it sooner
OUTSIDE = ("in_tab() runs only in the course's site, where the model runs in your browser tab; here, use "
           "openai_chat('http://127.0.0.1:8080/v1', 'any') with a local server such as llama-server or Ollama")

_tab = {}  # this kernel's channel to the page, once made: sab, state, next id


class CannotRunHere(RuntimeError):
    """This tab (or this interpreter) cannot run a model: one line saying why and what to do instead."""


def _channel():
    """The shared buffer the page answers in: made once; a page that cannot share memory is told so."""
    if not IN_BROWSER:
        raise CannotRunHere(OUTSIDE)
    if not _tab:
        js, _ = page.browser()
        if not hasattr(js, "SharedArrayBuffer"):  # browsers hide it on a page that is not cross-origin isolated
            raise CannotRunHere("this page cannot share memory with its kernel (no SharedArrayBuffer: it is not "
                                "cross-origin isolated), so a model cannot run in this tab; reload the page once, "
                                "or use a model server with openai_chat(...)")
        sab = js.SharedArrayBuffer.new(HEADER + ANSWER_BYTES)
        _tab.update(sab=sab, state=js.Int32Array.new(sab, 0, 4), ids=0)
    return _tab


def _post(ask):
    page.ask("agentTeamInTab", ask)


def _exchange(ask, seconds, progress=None):
    """Post ``ask`` to the page and wait at most ``seconds`` for its answer (parsed), or None.

    An earlier answer still in the buffer (a call given up on) is dropped by its id. Whatever ends
    the wait early (Interrupt, the slot's deadline) cancels the ask on the page first.
    """
    js, _ = page.browser()
    tab = _channel()
    tab["ids"] += 1
    ident, state = tab["ids"], tab["state"]
    js.Atomics.store(state, 0, 0)
    _post({**ask, "id": ident, "sab": tab["sab"]})
    deadline = time.monotonic() + seconds
    try:
        while (left := deadline - time.monotonic()) > 0:
            if js.Atomics.wait(state, 0, 0, max(1, int(min(SLICE, left) * 1000))) == "timed-out":
                if progress:
                    progress(state[2], state[3])
                continue
            length = state[1]
            text = bytes(js.Uint8Array.new(tab["sab"], HEADER, length).to_py()).decode("utf-8", "replace")
            js.Atomics.store(state, 0, 0)
            answer = json.loads(text)
            if answer.get("id") == ident:
                return answer
        _post({"type": "cancel", "id": ident})
        return None
    except BaseException:  # Interrupt, the slot's deadline: the page stops generating too
        _post({"type": "cancel", "id": ident})
        raise


def _say_progress(name):
    shown = {"at": 0.0, "loaded": -1}

    def progress(loaded_kib, total_kib):
        now = time.monotonic()
        if total_kib > 0 and loaded_kib != shown["loaded"] and now - shown["at"] >= 1.0:
            shown.update(at=now, loaded=loaded_kib)
            print(f"loading {name}: {loaded_kib * 1.024e-3:.1f} of {total_kib * 1.024e-3:.1f} MB", flush=True)
    return progress


def _check(url, n_ctx, threads, max_tokens, temperature, seconds):
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        raise ValueError(f"url must be the address of a GGUF file, like 'https://huggingface.co/.../model.gguf', "
                         f"not {clip(url, 60)!r}")
    for name, value, low in (("n_ctx", n_ctx, 256), ("max_tokens", max_tokens, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{name} must be a whole number >= {low}, not {value!r}")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise ValueError(f"threads must be a whole number >= 1, or None for half the processor's threads, "
                         f"not {threads!r}")
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) or not 0 <= temperature <= 2:
        raise ValueError(f"temperature must be a number from 0 to 2, not {temperature!r}")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0:
        raise ValueError(f"seconds must be a number > 0 (the most one call may take), not {seconds!r}")


def in_tab(url, *, n_ctx=4096, threads=None, max_tokens=1024, temperature=0.0, seconds=120.0):
    """A model that runs in this browser tab, loaded now from ``url`` (a GGUF file; its server must allow
    this page: CORS). Fetched once, then kept by the browser for later visits. Raises
    :class:`CannotRunHere` in one line where it cannot run (outside the site, no shared memory, a
    browser without what the runtime needs, too little memory), and :class:`.http.ModelError` when the
    file cannot be fetched or loaded."""
    _check(url, n_ctx, threads, max_tokens, temperature, seconds)
    _channel()  # before anything is fetched: a page that cannot share memory is told so at once
    name = url.rsplit("/", 1)[-1].split("?")[0] or url
    answer = _exchange({"type": "load", "url": url, "n_ctx": n_ctx, "threads": threads},
                       LOAD_SECONDS, _say_progress(name))
    if answer is None:
        raise ModelError(f"the model did not load within {LOAD_SECONDS:g} s", failure="timeout")
    if answer.get("cannot"):
        raise CannotRunHere(answer["cannot"])
    if "error" in answer:
        raise ModelError(answer["error"])
    made = InTabModel(url, answer.get("info") or {}, max_tokens=max_tokens, temperature=temperature,
                      seconds=seconds)
    from .isolation import protect
    protect(True)  # model-written code runs in the isolated runner, as any real model's does
    return made


class InTabModel:
    """``model(prompt) -> str`` answered by the model loaded in this tab; make one with :func:`in_tab`."""

    has_key = False

    def __init__(self, url, info, *, max_tokens, temperature, seconds, role=None, usage=None):
        self.url, self.info = url, info
        self.max_tokens, self.temperature, self.seconds, self.role = max_tokens, temperature, seconds, role
        self.usage = [] if usage is None else usage  # shared by the copies made per role
        self.last_usage = self.last_timings = None  # timings: llama.cpp's speeds of the last call (the bench's)

    def for_role(self, role):
        """A copy that asks for ``role``'s reply schema (the LLM slot calls this once per role)."""
        return InTabModel(self.url, self.info, max_tokens=self.max_tokens, temperature=self.temperature,
                          seconds=self.seconds, role=role, usage=self.usage)

    def __repr__(self):
        role = f", role={self.role!r}" if self.role else ""
        return f"in_tab({self.url!r}{role})"

    def __call__(self, prompt):
        self.last_usage = self.last_timings = None
        if not isinstance(prompt, str):
            raise ModelError(f"the prompt must be text (str), not {type(prompt).__name__}")
        outer = time_left()
        # A little less than what is left, so this call ends in its own words before the caller's does.
        seconds = self.seconds if outer is None else min(self.seconds, outer - min(0.2, outer / 10))
        if seconds <= 0:
            raise ModelError(f"no time left for the call ({self.seconds:g} s were given)", failure="timeout")
        schema = reply_schema(self.role) if self.role else None
        answer = _exchange({"type": "ask", "prompt": prompt, "schema": schema, "max_tokens": self.max_tokens,
                            "temperature": self.temperature, "seconds": seconds}, seconds + 1.0)
        if answer is None or answer.get("failure") == "timeout":
            raise ModelError(f"the model in this tab did not finish within {seconds:.3g} s (the time left for "
                             "this call); it was stopped", failure="timeout")
        if "error" in answer:
            raise ModelError(answer["error"])
        usage = answer.get("usage") or {}
        usage = {name: usage.get(name) if type(usage.get(name)) is int else None
                 for name in ("prompt_tokens", "completion_tokens")}
        self.last_usage, self.last_timings = usage, answer.get("timings")
        self.usage.append(usage)
        text = answer.get("text")
        if not isinstance(text, str):
            raise ModelError("the model in this tab gave no text")
        return unflatten(self.role, text) if schema is not None else text
