"""Predict, then run: the learner commits to an answer, the run shows who was right."""

from .. import faults, progress
from ..faults import FAULTS
from ..predict import FAULT_QUESTIONS, fault_answers, prediction
from ..render.html import inline, tag
from ..render.predict import outcome_html, outcome_text, predict_html, predict_text
from .base import Base, Rich, controls

__all__ = ["Predict"]


class Predict(Base):
    """A few questions to answer *before* a run, checked against the run afterwards.

    ``Predict("part 1: patch shapes")`` makes the course's prediction of that key
    (:data:`agent_team.predict.PREDICTIONS`): its title, questions and why come from the table, so
    the cell the learner reads holds no answer, and its reveal checks the run against the table's
    key. The long form below still works (notebooks saved before the table call it).
    ``questions`` is a list of ``(prompt, options)``. ``.choose(*answers)``
    picks one option per question, like clicking. ``.reveal(result)`` checks
    the picks against the run and returns the comparison to display; with
    ``answers_from`` (a function ``result -> (answers, why)``) ``result`` is
    the run itself, otherwise it is the list of right answers and ``why`` says
    why. The outcome is recorded in the progress file under ``key``; after a
    reveal the picks are locked, so the prediction stays a prediction.
    """

    def __init__(self, key, title=None, questions=None, *, answers_from=None, file=None):
        self.record = None
        if title is None and questions is None:  # a key of the course's table
            self.record = prediction(str(key))
            title, questions = self.record.title, self.record.questions
        elif title is None or questions is None:
            raise TypeError("give a prediction's key, Predict(\"part 1: patch shapes\"), "
                            "or its key, title and questions")
        self.key, self.title, self.file = str(key), str(title), file
        self.questions = [(str(p), tuple(str(o) for o in opts)) for p, opts in questions]
        if not self.questions or any(len(opts) < 2 for _, opts in self.questions):
            raise ValueError("a prediction needs at least one question, each with two or more options")
        self.answers_from = answers_from
        self.chosen = [None] * len(self.questions)
        self.actual, self.why = None, ""
        ipw = controls()
        if ipw is not None:
            self._radios = []
            rows = [ipw.HTML(value=tag("b", "Predict, then run:") + " " + inline(self.title))]
            for i, (prompt, options) in enumerate(self.questions):
                radio = ipw.RadioButtons(options=list(options), value=None, layout=ipw.Layout(width="auto"))
                radio.observe(lambda change, i=i: self._on_pick(i, change), names="value")
                self._radios.append(radio)
                rows += [ipw.HTML(value=inline(prompt)), radio]
            self._outcome = ipw.HTML(value="")
            self.widget = ipw.VBox(rows + [self._outcome])

    @classmethod
    def fault(cls, name, *, file=None):
        """Part 4: predict how the run with fault ``name`` ends and which layer stops the fault."""
        what = faults.fault(name).what
        number = list(FAULTS).index(name) + 1
        return cls(f"fault: {name}", f"fault {number}, {name}: {what}", FAULT_QUESTIONS,
                   answers_from=lambda run: fault_answers(run, name), file=file)

    def _on_pick(self, i, change):
        if change["new"] is not None and self.actual is None:
            self.chosen[i] = change["new"]

    def choose(self, *answers):
        """Pick one option per question (its text or its index), before the run."""
        if self.actual is not None:
            raise RuntimeError("the run has already been checked; a prediction is made before the run")
        if len(answers) != len(self.questions):
            raise ValueError(f"give one answer per question: {len(self.questions)} answers, not {len(answers)}")
        picks = []
        for (prompt, options), answer in zip(self.questions, answers):
            if isinstance(answer, int) and not isinstance(answer, bool) and 0 <= answer < len(options):
                answer = options[answer]
            if answer not in options:
                raise ValueError(f"{answer!r} is not an answer to {prompt!r}; choose one of {list(options)}")
            picks.append(answer)
        self.chosen = picks
        if self.widget is not None:
            for radio, pick in zip(self._radios, picks):
                radio.value = pick
        return self

    def reveal(self, result, why=""):
        """Check the picks against the run; records the outcome and returns it to display. For a
        prediction of the table, ``why`` defaults to its record's, and the run must give its key."""
        answers, why = self.answers_from(result) if self.answers_from else (result, why)
        if self.record is not None:
            why = why or self.record.why
        answers = [str(a) for a in answers]
        if len(answers) != len(self.questions):
            raise ValueError(f"the run gives {len(answers)} answers for {len(self.questions)} questions")
        self.actual, self.why = answers, str(why)
        if all(c is not None for c in self.chosen):
            progress.record_prediction(self.key, " / ".join(self.chosen), " / ".join(answers), self.file)
        if self.widget is not None:
            for radio in self._radios:
                radio.disabled = True
            self._outcome.value = self._summary()
        if self.record is not None and tuple(answers) != self.record.answers:
            # The check that once sat in the run cell, in sight of the form: now after the reveal.
            raise AssertionError(f"the run shows {answers}, but the course expects {list(self.record.answers)} "
                                 f"({self.key!r} in agent_team.predict): the course and the engine disagree; "
                                 "please report it")
        return self.outcome

    def _summary(self):
        """One line for the form once the run is checked; the full comparison shows under the run."""
        if any(c is None for c in self.chosen):
            said = "You made no prediction this time."
        else:
            hits = sum(c == a for c, a in zip(self.chosen, self.actual))
            said = f"You had {hits} of {len(self.actual)} right."
        return str(tag("p", tag("b", "Checked against the run: "), said, " The explanation is under the run."))

    @property
    def right(self):
        """True when every pick matched the run; None before the run or without a full prediction."""
        if self.actual is None or any(c is None for c in self.chosen):
            return None
        return list(self.chosen) == list(self.actual)

    @property
    def outcome(self):
        """The comparison after the run (a :class:`Rich`), or None before it."""
        if self.actual is None:
            return None
        args = (self.title, self.questions, self.chosen, self.actual, self.why)
        return Rich(outcome_html(*args), outcome_text(*args))

    @property
    def html(self):
        base = predict_html(self.title, self.questions, self.chosen)
        return base if self.actual is None else self.outcome.html

    @property
    def text(self):
        base = predict_text(self.title, self.questions, self.chosen)
        return base if self.actual is None else self.outcome.text
