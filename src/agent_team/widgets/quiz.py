"""A multiple-choice question that explains its answer, and each wrong choice, once checked."""

from .. import progress, quizzes
from ..render.html import Safe, inline, tag, unmarked, wrap
from .base import Base, controls

__all__ = ["Quiz", "LETTERS"]

# Choices are labelled a), b), ... in every front end, and a learner may answer with the letter.
LETTERS = "abcdefghijklmnopqrstuvwxyz"


class Quiz(Base):
    """A multiple-choice question: pick a choice, press Check, read why.

    ``Quiz("1.2")`` shows the course's quiz of that id (:mod:`agent_team.quizzes`), so that the
    answer is not in the cell the learner reads. The long form, ``Quiz(question, choices, answer,
    explanation, explanations=...)``, still works (notebooks saved before the table call it):
    ``answer`` is the right choice (its index or its text); ``explanation``
    says why it is right; ``explanations`` (a list aligned with ``choices``,
    or a dict from choice index or text) says why each wrong choice is wrong,
    and is shown when that choice is checked. Python API: ``.choose(choice)``,
    ``.check()`` (True when right), ``.feedback``, ``.html``, ``.text``.
    """

    def __init__(self, question, choices=None, answer=None, explanation=None, *, explanations=None):
        self.id = None
        if choices is None:  # an id of the course's table
            row = quizzes.quiz(str(question))
            self.id, question, choices, answer = row.id, row.question, row.choices, row.answer
            explanation, explanations = row.explanation, row.explanations or None
        elif answer is None or explanation is None:
            raise TypeError("give a quiz's id, Quiz(\"1.2\"), or its question, choices, answer and explanation")
        self.question, self.choices = str(question), [str(c) for c in choices]
        if len(self.choices) < 2:
            raise ValueError("a quiz needs at least two choices")
        self.answer = self._find(answer)
        self.explanation = str(explanation)
        self.explanations = self._explain(explanations)
        self.selected, self.correct, self.feedback = None, None, ""
        self._syncing = False
        ipw = controls()
        if ipw is not None:
            self._question = ipw.HTML(value=str(tag("div", tag("b", inline(self.question)))))
            labels = [(f"{LETTERS[i]}) {unmarked(c)}", i) for i, c in enumerate(self.choices)]
            self._radio = ipw.RadioButtons(options=labels, value=None, layout=ipw.Layout(width="auto"))
            self._radio.observe(self._on_pick, names="value")
            self._check_button = ipw.Button(description="Check", tooltip="Check your answer",
                                            button_style="primary", icon="check")
            self._check_button.on_click(lambda _b: self.check())
            self._feedback = ipw.HTML(value="")
            self.widget = ipw.VBox([self._question, self._radio, self._check_button, self._feedback])
        self._show()

    def _find(self, choice):
        if isinstance(choice, bool):
            raise TypeError("a choice is its index (0, 1, ...) or its text, not a bool")
        if isinstance(choice, int):
            if not 0 <= choice < len(self.choices):
                raise IndexError(f"choice {choice} does not exist; there are {len(self.choices)} choices")
            return choice
        if isinstance(choice, str):
            if choice in self.choices:
                return self.choices.index(choice)
            if len(choice) == 1 and choice.lower() in LETTERS[:len(self.choices)]:
                return LETTERS.index(choice.lower())
        raise ValueError(f"{choice!r} is not one of the choices")

    def _explain(self, explanations):
        out = [None] * len(self.choices)
        if explanations is None:
            return out
        if isinstance(explanations, dict):
            for key, text in explanations.items():
                out[self._find(key)] = None if text is None else str(text)
        else:
            items = list(explanations)
            if len(items) != len(self.choices):
                raise ValueError("explanations must have one entry per choice (None for none)")
            out = [None if t is None else str(t) for t in items]
        return out

    def _on_pick(self, change):
        if not self._syncing and change["new"] is not None:
            self.choose(change["new"])

    def choose(self, choice):
        """Select a choice (its index, text or letter), like clicking it. Clears old feedback."""
        self.selected = self._find(choice)
        self.correct, self.feedback = None, ""
        self._show()
        return self.selected

    def check(self):
        """Check the selected choice, like pressing Check; True when it is right."""
        if self.selected is None:
            self.correct, self.feedback = None, "Pick an answer first."
        elif self.selected == self.answer:
            self.correct = True
            lines = [f"Right: {self.explanation}"]
            others = [(i, t) for i, t in enumerate(self.explanations) if t and i != self.answer]
            if others:
                lines.append("Why not the others:")
                lines += [f"{LETTERS[i]}) {t}" for i, t in others]
            self.feedback = "\n".join(lines)
        else:
            self.correct = False
            why = self.explanations[self.selected] or "That is not it. Read the idea above again."
            self.feedback = f"Not quite: {why} Try another answer."
        if self.id is not None and self.correct is not None:  # a course quiz counts in its part's progress
            progress.record_quiz(self.id, LETTERS[self.selected], self.correct)
        self._show()
        return bool(self.correct)

    def _feedback_html(self):
        if not self.feedback:
            return Safe("")
        if self.correct is None:
            return tag("div", self.feedback, class_="at-hint", role="status")
        head, *rest = self.feedback.split("\n")
        cls = "at-decision" if self.correct else "at-refused"
        body = [tag("p", "✓ " if self.correct else "✗ ", inline(head))]
        if rest:
            body.append(tag("p", rest[0]))
            body.append(tag("ul", *(tag("li", inline(line)) for line in rest[1:])))
        return tag("div", *body, class_=cls, role="status", aria_live="polite")

    def _show(self):
        if self.widget is not None:
            self._syncing = True
            try:
                self._radio.value = self.selected
            finally:
                self._syncing = False
            self._feedback.value = wrap(self._feedback_html()) if self.feedback else ""

    @property
    def html(self):
        """The question as static HTML: its choices, then the feedback once checked (never the answer before)."""
        items = [tag("li", tag("b", f"{LETTERS[i]}) "), inline(c),
                     " ◀ your choice" if i == self.selected else "") for i, c in enumerate(self.choices)]
        parts = [tag("p", tag("b", inline(self.question))), tag("ul", *items, style="list-style:none")]
        if self.feedback:
            parts.append(self._feedback_html())
        else:  # the answer is not stored with the page: it shows once a choice is checked
            parts.append(tag("p", tag("i", "Run this cell to answer: the answer and why show once you check.")))
        return wrap(*parts, label="quiz")

    @property
    def text(self):
        lines = [self.question]
        lines += [f"  {LETTERS[i]}) {c}" for i, c in enumerate(self.choices)]
        if self.feedback:
            lines.append(f"Your answer: {LETTERS[self.selected]})" if self.selected is not None else "")
            lines.append(self.feedback)
        else:
            lines.append("(Run this cell in Jupyter to answer; the answer and why are shown after you check.)")
        return "\n".join(line for line in lines if line)

