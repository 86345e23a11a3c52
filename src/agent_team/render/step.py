"""One step of a supervisor trace as HTML (and as plain text): header, state diagram, the event.

A *step* is one trace event. :func:`step_html` reads only ``trace[index]`` and
the event before it (for the transition just taken), so stepping through a
200-round run costs the same as stepping through a 2-round one.

The pieces of a step live in their own modules (:mod:`.trace`, :mod:`.diff`,
:mod:`.tests_table`, :mod:`.view`, :mod:`.event`); import them from there.
"""

from .diagram import SUPERVISOR, diagram_block, diagram_text
from .event import event_html, event_text, event_title
from .html import plain, tag, wrap
from .trace import field, trace_of

__all__ = ["step_header", "step_html", "step_text"]


def _around(trace, index):
    """``(index, event, previous_state, n)``: reads trace[index] and trace[index - 1] only."""
    n = len(trace)
    if not isinstance(index, int) or isinstance(index, bool):
        raise TypeError(f"a step number must be a whole number, not {type(index).__name__}")
    if not -n <= index < n:
        raise IndexError(f"step {index} does not exist: this trace has steps 0 to {n - 1}")
    index %= n
    event = trace[index]
    previous = field(trace[index - 1], "state") if index > 0 else None
    return index, event, previous, n


def _head(event, index, n):
    """The header's words before the state, the state, and after it (the HTML marks the state as code)."""
    return (f"Step {index + 1} of {n} · round {plain(field(event, 'round'))} · ", plain(field(event, "state")),
            f" · {event_title(event)}")


def step_header(event, index, n):
    """``Step 3 of 9 · round 1 · CODE · the coder's turn``."""
    before, state, after = _head(event, index, n)
    return tag("h3", before, tag("code", state), after)


def step_html(run, index, machine=SUPERVISOR):
    """Step ``index`` of a run (or trace) as HTML: header, state diagram, then the event.

    ``machine`` is the diagram drawn: the stepper passes the supervisor's machine
    without ``FAULT`` for a run that has no injected fault (faults come in part 4).
    """
    trace = trace_of(run)
    if len(trace) == 0:
        return wrap(tag("p", "This trace is empty: there is nothing to step through."))
    index, event, previous, n = _around(trace, index)
    state = field(event, "state")
    return wrap(step_header(event, index, n),
                diagram_block(state, previous, machine),
                event_html(event), label=f"step {index + 1} of {n}")


def step_text(run, index):
    """Step ``index`` as plain text (for consoles, nbval and screen readers)."""
    trace = trace_of(run)
    if len(trace) == 0:
        return "This trace is empty: there is nothing to step through."
    index, event, previous, n = _around(trace, index)
    return "\n".join(["".join(_head(event, index, n)), diagram_text(field(event, "state"), previous),
                      event_text(event)])
