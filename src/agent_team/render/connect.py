"""The connect form's status: which model, and what its test call said (pure: HTML and text).

A key never reaches these functions: they are given the provider, the address, the model's name
and a :class:`~agent_team.realteam.models.connection.Connection`, whose words the model object scrubbed.
"""

from .html import badge, esc, tag, wrap

__all__ = ["connect_html", "connect_text", "recorded_label_html"]

_NONE = ("No model connected: the part runs on recorded replies. To connect one, fill in the "
         "provider, the address and the model's name above, then run the next cell (it asks for the key).")


def _summary(provider, base_url, model):
    return f"{provider} at {base_url}, model {model!r}" if model else ""


def connect_text(provider, base_url, model, connection=None):
    """The status as one or two lines of text."""
    if connection is None:
        where = _summary(provider, base_url, model)
        return f"{where}: not tested yet (run the next cell)" if where else _NONE
    head = "connected" if connection.ok else f"not connected ({connection.kind})"
    return f"{head}: {_summary(provider, base_url, model)}\n{connection.words}"


def connect_html(provider, base_url, model, connection=None, *, testing=None):
    """The status as the form shows it: a badge (connected, or what is wrong), then the words.

    ``testing`` (the seconds the test call may take) shows the waiting state instead: a small
    model can take most of a minute, and a form that does not change looks broken.
    """
    if testing is not None:
        words = f"calling the model once with a tiny prompt; this waits up to {testing:g} s"
        return wrap(tag("p", badge("testing…", "info"), " ", esc(_summary(provider, base_url, model))),
                    tag("p", esc(words)), label="model connection")
    if connection is None:
        where = _summary(provider, base_url, model)
        body = [badge("not tested yet", "muted"), " ", esc(where)] if where else [badge("recordings", "info"),
                                                                                  " ", esc(_NONE)]
        return wrap(tag("p", *body), label="model connection")
    kind = "ok" if connection.ok else "bad"
    head = "connected" if connection.ok else f"not connected: {connection.kind}"
    return wrap(tag("p", badge(head, kind), " ", esc(_summary(provider, base_url, model))),
                tag("p", esc(connection.words)), label="model connection")


def recorded_label_html(label_text):
    """A recording's label, shown above whatever is shown of it: what model it really came from."""
    text = label_text.removeprefix("recorded: ")  # the badge says it once
    return wrap(tag("p", badge("recorded", "warn"), " ", esc(text)), label="where these replies came from")
