"""The connect form: test connection in words, and a key that is never stored anywhere."""

import getpass
import json
import pickle
import socket

import pytest

from agent_team import widgets as W
from agent_team.realteam.llm import llm_policy
from agent_team.realteam.models.connection import probe_connection
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
    ("notjson", "address", "not JSON"),
])
def test_test_connection_says_what_is_wrong(faults, typed, fault, kind, words):
    c = form(f"{faults.url}/{fault}/v1")
    assert c.connect(seconds=10) is None
    assert (c.connection.ok, c.connection.kind) == (False, kind)
    assert words in c.connection.words and "What to try:" in c.connection.words
    assert c.connection.words in c.text and f"not connected: {kind}" in c.html


def test_nothing_listening_is_a_server_not_running(typed):
    c = form(f"http://127.0.0.1:{free_port()}/v1", needs_key=False)
    assert c.connect(seconds=5) is None and c.connection.kind == "not running" and typed == []
    assert "is the server running" in c.connection.words and "start the server" in c.connection.words
    assert "not connected: not running" in c.html and "CORS" not in c.connection.words


def test_a_host_that_does_not_exist_is_the_address(typed):
    c = form("http://no-such-host.invalid/v1", needs_key=False)
    assert c.connect(seconds=5) is None and c.connection.kind == "address"
    assert "check the address" in c.connection.words


def test_a_slow_model_is_said_to_be_slow(faults):
    c = form(f"{faults.url}/slow-5/v1", needs_key=False)
    assert c.connect(seconds=0.5) is None and c.connection.kind == "slow"
    assert "slow or busy" in c.connection.words and "more seconds" in c.connection.words


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


def test_probe_connection_never_raises_on_a_model_of_ones_own():
    def broken(prompt):
        raise RuntimeError("boom")
    got = probe_connection(broken)
    assert not got.ok and "RuntimeError: boom" in got.words


# --- issue 35 item 4: the live path as good as the recorded one ---

def test_a_browser_status_0_names_both_causes_and_what_to_do_for_each(monkeypatch):
    from agent_team.realteam.models import connection
    from agent_team.realteam.models.http import ModelError, _refused
    monkeypatch.setattr(connection, "IN_BROWSER", True)
    kind, words = connection.diagnose(ModelError(_refused("http://127.0.0.1:9/v1/chat/completions"), status=0))
    assert kind == "unreachable"
    assert words.index("nothing is listening") < words.index("CORS")  # the likelier cause first
    assert "start the server, and check the port" in words and "this page's origin allowed" in words
    assert "docs/models.md" not in words and "serve the course from" not in words
    monkeypatch.setattr(connection, "IN_BROWSER", False)
    assert connection.diagnose(ModelError("x", status=0))[0] == "not running"


def test_the_connection_test_asks_for_a_few_tokens_and_leaves_the_model_as_it_was(faults):
    c = form(f"{faults.url}/ok/v1", needs_key=False)
    assert c.connect(seconds=10) is not None
    assert faults.requests[-1]["body"]["max_tokens"] == 8 and c.model.max_tokens == 1024


def test_test_connection_before_the_connect_cell_makes_a_local_model_and_says_testing(faults, typed):
    c = form(f"{faults.url}/ok/v1", needs_key=False)
    shown = []
    c._put = shown.append  # every state the form showed, in order
    assert c.model is None and c.test().ok and c.model is not None and typed == []
    assert "testing…" in shown[0] and "waits up to" in shown[0] and "connected" in shown[-1]


def test_test_connection_before_the_connect_cell_says_to_run_it_when_a_key_is_needed(faults, typed):
    c, before = form(f"{faults.url}/ok/v1", needs_key=True), len(faults.requests)
    got = c.test()
    assert not got.ok and got.kind == "key" and "run the next cell" in got.words and typed == []
    assert len(faults.requests) == before and "run the next cell" in c.text
    empty = Connect()
    assert not empty.test().ok and "names no model" in empty.text


@pytest.mark.parametrize("in_browser", [True, False])
def test_an_empty_key_is_asked_again_then_said_on_the_form(monkeypatch, faults, in_browser):
    import agent_team.realteam.models as models
    asked = []
    monkeypatch.setattr(getpass, "getpass", lambda prompt="": asked.append(prompt) or "")
    monkeypatch.setattr(models, "IN_BROWSER", in_browser)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    c, before = form(f"{faults.url}/ok/v1"), len(faults.requests)
    assert c.connect(seconds=10) is None and c.model is None  # no traceback
    assert len(asked) == 2 and "empty" in asked[1]
    assert c.connection.kind == "key" and "paste the key into the box" in c.connection.words
    assert ("environment variable" in c.connection.words) is not in_browser
    assert ("OPENAI_API_KEY" in asked[0]) is not in_browser and len(faults.requests) == before


def test_a_run_whose_every_call_failed_says_why(faults):
    from agent_team.realteam.models import openai_chat
    from agent_team.realteam.models.connection import why_no_answer
    down = openai_chat(f"http://127.0.0.1:{free_port()}/v1", "smol", seconds=5)
    run = supervise(coder=llm_policy("coder", down, seconds=5), max_rounds=1, seconds=60)
    words = why_no_answer(run)
    assert run.status == "budget" and "never answered" in words and "not running" in words
    assert "start the server" in words
    slow = openai_chat(f"{faults.url}/slow-5/v1", "smol", seconds=0.3)
    assert "slow" in why_no_answer(supervise(coder=llm_policy("coder", slow, retries=0, seconds=0.3),
                                             max_rounds=1, seconds=60))
    working = openai_chat(f"{faults.url}/ok/v1", "smol", seconds=10)
    assert why_no_answer(supervise(coder=llm_policy("coder", working, seconds=10), max_rounds=1)) == ""


class _Status0:
    """A model whose every call ends as a browser's does for nothing listening and for CORS alike."""

    base_url, seconds = "http://127.0.0.1:9/v1", 5.0

    def __call__(self, prompt):
        from agent_team.realteam.models.http import ModelError, _refused
        raise ModelError(_refused(self.base_url + "/chat/completions"), status=0)


@pytest.mark.parametrize("answered,kind,words", [(True, "cors", "a server answers at that address"),
                                                 (False, "unreachable", "check both")])
def test_in_the_browser_a_probe_tells_a_cors_refusal_from_nothing_listening(monkeypatch, answered, kind, words):
    import asyncio

    from agent_team.realteam.models import connection
    monkeypatch.setattr(connection, "IN_BROWSER", True)
    probed = []

    async def probe(url, seconds=5.0):
        probed.append(url)
        return answered
    monkeypatch.setattr(connection, "probe_listening", probe)
    c = form("http://127.0.0.1:9/v1", needs_key=False)
    c.model = _Status0()

    async def test_then_probe():
        assert c.test().kind == "unreachable" and "check both" in c.text  # both causes, until the probe says
        await c._probe
    asyncio.run(test_then_probe())
    assert probed == ["http://127.0.0.1:9/v1"] and c.connection.kind == kind and words in c.connection.words
    assert f"not connected: {kind}" in c.html
