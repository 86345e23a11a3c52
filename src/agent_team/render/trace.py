"""Reading a supervisor trace: find it inside a run, read fields of events that may be malformed.

Traces reach the renderers from learners' code, so an event may be anything: every read goes
through :func:`field`, which treats a non-dict as an event with no fields instead of raising.
"""

__all__ = ["trace_of", "field"]


def trace_of(run):
    """The trace inside a RunResult, a ``{"trace": ...}`` dict, or a trace itself."""
    trace = getattr(run, "trace", None)
    if trace is None and isinstance(run, dict):
        trace = run.get("trace")
    if trace is None:
        trace = run
    if not hasattr(trace, "__getitem__") or not hasattr(trace, "__len__"):
        raise TypeError(f"expected a run result or a trace (a list of events), not {type(run).__name__}")
    return trace


def field(event, key, default=None):
    """``event[key]`` when the event is a dict and has it, else ``default``."""
    return event.get(key, default) if isinstance(event, dict) else default
