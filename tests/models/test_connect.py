"""The connect form: test connection in words, and a key that is never stored anywhere."""

import getpass
import json
import pickle
import socket

import pytest

from agent_team import widgets as W
from agent_team.llm import llm_policy
from agent_team.models.connection import check_connection
from agent_team.render.connect import connect_html, connect_text
from agent_team.supervisor import supervise
from agent_team.widgets import Connect

ipywidgets = pytest.importorskip("ipywidgets")
KEY = "sk-connect-0123456789abcdefghijklmnopqrstuvwxyz"


@pytest.fixture
def typed(monkeypatch):
    """The key typed into getpass's password box; what was asked is kept."""
    asked = []

    def fake_getpass(prompt=""):
        asked.append(prompt)
        return KEY

    monkeypatch.setattr(getpass, "getpass", fake_getpass)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    return asked


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def form(url, model="smol", provider="OpenAI-compatible", needs_key=True):
    """A filled-in form; the fault server is on 127.0.0.1, so say that it wants a key like a hosted API."""
    return Connect(provider, url, model, needs_key=needs_key)


def test_an_empty_form_connects_nothing_and_asks_for_no_key(monkeypatch):
    monkeypatch.setattr(getpass, "getpass", lambda *a: pytest.fail("no key should be asked for"))
    c = Connect()
    assert c.connect() is None and c.model is None and not c.wanted
    assert "No model connected" in c.text and "recordings" in c.html


@pytest.mark.parametrize("fault,kind,words", [
    ("401", "key", "refused the key (401)"),
    ("403", "key", "forbade the call (403)"),
    ("404", "model", "check the model name"),
    ("500", "server", "the server failed (500)"),
    ("notjson", "model", "not JSON"),
])
def test_test_connection_says_what_is_wrong(faults, typed, fault, kind, words):
    c = form(f"{faults.url}/{fault}/v1")
    assert c.connect(seconds=10) is None
    assert (c.connection.ok, c.connection.kind) == (False, kind)
    assert words in c.connection.words and "What to try:" in c.connection.words
    assert c.connection.words in c.text and f"not connected: {kind}" in c.html


def test_nothing_listening_is_the_network(typed):
    c = form(f"http://127.0.0.1:{free_port()}/v1", needs_key=False)
    assert c.connect(seconds=5) is None and c.connection.kind == "network" and typed == []
    assert "is the server running" in c.connection.words


def test_a_slow_model_is_a_timeout(faults):
    c = form(f"{faults.url}/slow-5/v1", needs_key=False)
    assert c.connect(seconds=0.5) is None and c.connection.kind == "timeout"


def test_a_working_model_is_connected_and_the_key_asked_once(faults, typed):
    c = form(f"{faults.url}/ok/v1")
    model = c.connect(seconds=10)
    assert model is c.model and c.connection.ok and c.connection.kind == "ok" and len(typed) == 1
    assert c.connection.usage["prompt_tokens"] > 0
    assert "connected" in c.text and c.test().ok and len(typed) == 1  # the button reuses the model's key
    c._inputs["model"].value = "another"  # typed into the form: that model is not connected yet
    assert c.model is None and "not tested yet" in c.text
    anthropic = form(f"{faults.url}/ok/v1", provider="Anthropic").connect(seconds=10)
    assert anthropic is not None and "ANTHROPIC_API_KEY" in typed[-1]


def test_a_local_server_needs_no_key(faults, typed):
    assert form(f"{faults.url}/ok/v1".replace("127.0.0.1", "localhost"), needs_key=None).connect(seconds=10)
    assert typed == []


def _widget_state(widget):
    """Every trait value the front end holds for ``widget`` and its children, as JSON."""
    states, todo = [], [widget]
    while todo:
        w = todo.pop()
        states.append(w.get_state())
        todo += list(getattr(w, "children", ()))
    return json.dumps(states, default=str)


def test_the_key_is_never_stored(faults, typed, tmp_path, monkeypatch):
    monkeypatch.setenv("AGENT_TEAM_PROGRESS", str(tmp_path / "progress.json"))
    c = form(f"{faults.url}/echo/v1")  # a server that quotes the key back in every reply
    model = c.connect(seconds=10)
    assert model is not None
    run = supervise(coder=llm_policy("coder", model, seconds=10), max_rounds=1, seconds=30)
    c.test()
    tail = KEY[-12:]
    for where, text in [("the form's widget state", _widget_state(c.widget)), ("its html", c.html),
                        ("its text", c.text), ("its repr", repr(c)), ("the model's repr", repr(model)),
                        ("the connection", repr(c.connection)), ("the trace", json.dumps(run.trace, default=str)),
                        ("the rendering", connect_html("p", "u", "m", c.connection)
                         + connect_text("p", "u", "m", c.connection))]:
        assert KEY not in text and tail not in text, where
    assert KEY not in json.dumps({k: v for k, v in vars(c).items() if k != "model"}, default=repr)
    assert "<hidden>" in json.dumps(run.trace, default=str)  # the echo was there, scrubbed
    assert not list(tmp_path.iterdir()) or KEY not in "".join(p.read_text() for p in tmp_path.iterdir())
    with pytest.raises(TypeError, match="never saved"):
        pickle.dumps(c)


def test_the_form_without_ipywidgets_still_works(faults, typed, monkeypatch):
    monkeypatch.setattr(W, "ipw", None)
    c = form(f"{faults.url}/ok/v1")
    assert c.widget is None and c.connect(seconds=10) is not None and "connected" in c.text


def test_the_rendering_escapes_what_the_learner_typed():
    html = connect_html("OpenAI-compatible", "http://x/v1", "<script>alert(1)</script>")
    assert "<script>" not in html and "&lt;script&gt;" in html
    with pytest.raises(ValueError, match="one of OpenAI-compatible, Anthropic"):
        Connect("openai")
    with pytest.raises(ValueError, match="no field 'key'"):
        Connect().set(key=KEY)


def test_check_connection_never_raises_on_a_model_of_ones_own():
    def broken(prompt):
        raise RuntimeError("boom")
    got = check_connection(broken)
    assert not got.ok and "RuntimeError: boom" in got.words
