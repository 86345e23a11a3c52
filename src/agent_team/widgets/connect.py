"""Connect a model: a form for the provider, the address and the model's name; the key is never in it.

    connect = Connect()             # fill in the form (nothing to fill: the part uses recordings)
    model = connect.connect()       # next cell: asks for the key in a password box, tests the model

The form's fields are ipywidgets whose values the notebook may save with its widget state, so the
key has no field here: :meth:`Connect.connect` asks for it with ``getpass`` (through
:func:`agent_team.realteam.models.ask_key`) and hands it straight to the model object, the only place it
is held. "test connection" calls the model made, which already holds its key. A key pasted
into a field by mistake (its shape gives it away: ``sk-...``, a long random token) is refused
from code, and cleared from the form's box at once, before the notebook can save it.
"""

from ..realteam.models import NoKey, anthropic_messages, ask_key, openai_chat
from ..realteam.models.connection import probe_connection, failed
from ..realteam.models.keys import misplaced, refuse_misplaced
from ..render.connect import connect_html, connect_text
from .base import ROW_LAYOUT, Base, button, controls

__all__ = ["Connect", "PROVIDERS", "show_label"]

PROVIDERS = {"OpenAI-compatible": "https://api.openai.com/v1", "Anthropic": "https://api.anthropic.com/v1"}
LOCAL = ("http://127.0.0.1", "http://localhost")  # a local server usually needs no key


class Connect(Base):
    """The form, its status, and the model it made (``.model``, None until :meth:`connect` succeeds)."""

    def __init__(self, provider="OpenAI-compatible", base_url="", model="", *, needs_key=None):
        refuse_misplaced(provider=provider, base_url=base_url, model=model)
        if provider not in PROVIDERS:
            raise ValueError(f"provider is {provider!r}; write one of {', '.join(PROVIDERS)}")
        self._fields = {"provider": provider, "base_url": base_url, "model": model, "needs_key": needs_key}
        self.model, self.connection, self._probe = None, None, None
        ipw = controls()
        if ipw is not None:
            self._inputs = {
                "provider": ipw.Dropdown(options=list(PROVIDERS), value=provider, description="provider"),
                "base_url": ipw.Text(value=base_url, description="address",
                                     placeholder=PROVIDERS[provider] + "  or  http://127.0.0.1:8080/v1"),
                "model": ipw.Text(value=model, description="model", placeholder="gpt-4o-mini, claude-..., smollm2"),
            }
            for name, control in self._inputs.items():  # a changed form names another model: connect again
                control.observe(lambda change, name=name: self._changed(name, change["new"]), names="value")
            self._view = ipw.HTML(value="")
            test = button("test connection", "Call the model once with a tiny prompt (a few tokens)",
                          self.test, "plug")
            self.widget = ipw.VBox([ipw.HBox([self._inputs["provider"], test], layout=ROW_LAYOUT()),
                                    self._inputs["base_url"], self._inputs["model"], self._view])
        self._show()

    def value(self, name):
        """A field as the learner left it (the form's control when there is one)."""
        if self.widget is not None and name in self._inputs:
            return self._inputs[name].value.strip() if isinstance(self._inputs[name].value, str) \
                else self._inputs[name].value
        return self._fields[name]

    def set(self, **fields):
        """Fill fields from code (``provider``, ``base_url``, ``model``), as typing into the form would."""
        refuse_misplaced(**fields)
        for name, value in fields.items():
            if name not in ("provider", "base_url", "model"):
                raise ValueError(f"the form has no field {name!r}; it has provider, base_url, model")
            self._fields[name] = value
            if self.widget is not None:
                self._inputs[name].value = value
        self._show()
        return self

    @property
    def wanted(self):
        """True when the form names a model to connect."""
        return bool(self.value("model"))

    def connect(self, key=None, *, seconds=60.0):
        """Make the model the form names (asking for its key unless it is local) and test it.

        Returns the model, or None (the form is empty, no key was typed, or the test call failed:
        the form says why).
        """
        if not self.wanted:
            self.model, self.connection = None, None
            self._show()
            print("No model connected: the cells below use the recorded runs.")
            return None
        if key is None and self._needs_key():
            provider = self.value("provider")
            try:
                key = ask_key("ANTHROPIC_API_KEY" if provider == "Anthropic" else "OPENAI_API_KEY")
            except NoKey as err:  # an empty box: words on the form, not a traceback
                self.model, self.connection = None, failed("key", "no key was given", what_to_try=err.how)
                self._show()
                return None
        self._make(key, seconds)
        del key  # the model holds it now; nothing else here does
        self.test()
        return self.model if self.connection.ok else None

    def test(self, *_):
        """Call the model once with a tiny prompt; the form shows "testing…", then what happened.

        Before the next cell has made a model, a form for a server that needs no key makes one here;
        one that needs a key says to run the next cell (only that cell asks for a key).
        """
        if self.model is None:
            if not self.wanted:
                self.connection = failed("model", "the form names no model yet", what_to_try="write the "
                                         "model's name (and the address) above, then test again")
                return self._show() or self.connection
            if self._needs_key():
                self.connection = failed("key", "no model made yet: this one needs a key",
                                         what_to_try="run the next cell; it asks for the key, then tests")
                return self._show() or self.connection
            self._make(None, 60.0)
        seconds = min(self.model.seconds, 60.0)
        self._put(connect_html(*self._status()[:3], testing=seconds))  # seen while the call waits
        self.connection = probe_connection(self.model, seconds=seconds)
        self._show()
        if self.connection.kind == "unreachable":  # the browser's status 0: a probe tells which cause
            self._tell_apart()
        return self.connection

    def _tell_apart(self):
        """Ask the browser (after this cell, the probe is async) whether anything listens at the address;
        the form then names the one cause instead of both."""
        import asyncio

        from ..realteam.models.connection import probe_listening, told_apart
        tested, url = self.connection, self.model.base_url

        async def probe():
            answered = await probe_listening(url)
            if self.connection is tested:  # the form was not changed or tested again meanwhile
                self.connection = told_apart(tested, answered)
                self._show()
        self._probe = asyncio.ensure_future(probe())  # kept: a task nobody holds may be collected

    def _needs_key(self):
        needs_key = self._fields["needs_key"]
        if needs_key is None:
            needs_key = not self._status()[1].startswith(LOCAL)
        return needs_key

    def _make(self, key, seconds):
        provider, base_url = self.value("provider"), self._status()[1]
        if provider == "Anthropic":
            self.model = anthropic_messages(self.value("model"), key=key, base_url=base_url, seconds=seconds)
        else:
            self.model = openai_chat(base_url, self.value("model"), key=key, seconds=seconds)

    def _changed(self, name=None, value=None):
        self.model, self.connection = None, None
        words = misplaced(**{name: value}) if name is not None else None
        if words:
            self._inputs[name].value = ""  # gone from the widget's state before the notebook saves it
            self.connection = failed("key", words, what_to_try="run the next cell; it asks for the key")
        self._show()

    def _status(self):
        return (self.value("provider"), self.value("base_url") or PROVIDERS[self.value("provider")],
                self.value("model"), self.connection)

    def _show(self):
        self._put(connect_html(*self._status()))

    @property
    def text(self):
        return connect_text(*self._status())



def show_label(recording):
    """Display where a recording's replies came from (its label): above everything shown of it."""
    from ..render.connect import recorded_label_html
    from .base import Rich, package_attr
    text = recording.label_text()
    package_attr("show")(Rich(recorded_label_html(text), text))
