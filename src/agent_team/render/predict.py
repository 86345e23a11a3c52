"""A prediction before a run, and the comparison after it, as HTML and text."""

from .html import badge, inline, tag, wrap

__all__ = ["predict_html", "predict_text", "outcome_html", "outcome_text"]


def _guess(chosen, i):
    return chosen[i] if chosen and i < len(chosen) and chosen[i] is not None else None


def predict_html(title, questions, chosen=None):
    """The questions with the learner's picks, before the run (static form of the widget)."""
    items = []
    for i, (prompt, options) in enumerate(questions):
        pick = _guess(chosen, i)
        shown = ", ".join(f"[{o}]" if o == pick else o for o in options)
        items.append(tag("li", tag("b", inline(prompt)), " ", shown))
    return wrap(tag("h4", "Predict, then run: ", inline(title)), tag("ol", *items),
                tag("p", "Pick your answers before the next cell runs; the run then shows who was right.",
                    class_="at-muted-text"), label="prediction")


def predict_text(title, questions, chosen=None):
    lines = [f"Predict, then run: {title}"]
    for i, (prompt, options) in enumerate(questions):
        pick = _guess(chosen, i)
        lines.append(f"  {prompt} " + " / ".join(f"[{o}]" if o == pick else o for o in options))
    if not chosen or any(c is None for c in chosen):
        lines.append("  (In Jupyter, pick below; in code, call .choose(answer, ...) before the run.)")
    return "\n".join(lines)


# The mark beside each question after the run, and its badge colour; the HTML and the text say the same words.
MARKS = {"right": "ok", "not this time": "warn", "no prediction made": "muted"}


def _checked(questions, chosen, actual):
    """``(prompt, pick or None, what the run shows, mark)`` per question."""
    for i, (prompt, _options) in enumerate(questions):
        pick = _guess(chosen, i)
        mark = "no prediction made" if pick is None else ("right" if pick == actual[i] else "not this time")
        yield prompt, pick, actual[i], mark


def outcome_html(title, questions, chosen, actual, why):
    """After the run: each question with the prediction, what happened and a mark, then why."""
    rows = [tag("li", tag("b", inline(prompt)), *(() if pick is None else (" you said ", tag("code", pick), ",")),
                " the run shows ", tag("code", shown), " ", badge(mark, MARKS[mark]))
            for prompt, pick, shown, mark in _checked(questions, chosen, actual)]
    return wrap(tag("h4", "What happened: ", inline(title)), tag("ul", *rows),
                tag("div", inline(why), class_="at-decision"), label="prediction checked")


def outcome_text(title, questions, chosen, actual, why):
    lines = [f"What happened: {title}"]
    for prompt, pick, shown, mark in _checked(questions, chosen, actual):
        said = "" if pick is None else f" you said {pick},"
        lines.append(f"  {prompt}{said} the run shows {shown} ({mark})")
    lines.append(f"  Why: {why}")
    return "\n".join(lines)
