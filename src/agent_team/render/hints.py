"""Graduated hints as HTML and text: the revealed ones in full, the rest as what comes next."""

from ..hints import LEVELS
from .html import inline, pre, tag, wrap

__all__ = ["hints_html", "hints_text"]


def _label(i, n):
    return f"Hint {i + 1} of {n} ({LEVELS[i] if i < len(LEVELS) else 'more'})"


def hints_html(exercise_id, hints, revealed):
    """``hints`` of one exercise with the first ``revealed`` shown, one block each."""
    n = len(hints)
    blocks = []
    for i, hint in enumerate(hints[:revealed]):
        body = [tag("p", tag("b", _label(i, n), ": "), inline(hint.text))]
        if hint.code:
            body.append(pre(hint.code))
        blocks.append(tag("div", *body, class_="at-hint"))
    if revealed < n:
        note = ("Stuck? Reveal the first hint: it points at the rule most wrong attempts miss."
                if not revealed else f"Still stuck? The next hint is the {LEVELS[min(revealed, len(LEVELS) - 1)]}.")
    else:
        note = "That was the last hint. Compare your code with it line by line, then run the grader again."
    blocks.append(tag("p", note, class_="at-muted-text"))
    return wrap(tag("h4", f"Hints for exercise {exercise_id} ", tag("span", f"{revealed} of {n} shown",
                                                                      class_="at-badge at-muted")),
                *blocks, label=f"hints for exercise {exercise_id}")


def hints_text(exercise_id, hints, revealed):
    """The same as plain text; says how to reveal the next hint where there are no buttons."""
    n = len(hints)
    lines = [f"Hints for exercise {exercise_id}: {revealed} of {n} shown"]
    for i, hint in enumerate(hints[:revealed]):
        lines.append(f"{_label(i, n)}: {hint.text}")
        if hint.code:
            lines += ["    " + line for line in hint.code.splitlines()]
    if revealed < n:
        lines.append("Call .reveal() on this object (or press the button in Jupyter) for the next hint.")
    return "\n".join(lines)
