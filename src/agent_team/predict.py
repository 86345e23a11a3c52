"""Predict, then run: what a learner is asked before a run, and what the run then shows.

A prediction is a few questions, each with a fixed set of answers. After the
run, the real answers come from the run itself (never typed in by hand), so
the explanation a learner reads after a wrong guess is always about the run
they just watched. For part 4's faults, :func:`fault_answers` says how the run
ended, which layer of the team stopped the fault (read from the trace by the
layers' definitions, :mod:`agent_team.layers`), the event that shows it, and
the fault's own explanation (its ``why`` in the faults table).

The other predictions are records of :data:`PREDICTIONS`, looked up by their key
(``Predict("part 1: patch shapes")``): their questions, the answers the course expects the run to
give (its key) and why, so that no cell the learner reads before choosing holds an answer. The run
still supplies the answers shown; the key is checked against them at the reveal.
"""

from dataclasses import dataclass

from . import faults
from .course import lookup
from .layers import DEFINITIONS, stopped_by
from .supervisor import RUN_STATUSES

__all__ = ["LAYER_WORDS", "FAULT_QUESTIONS", "layer_words", "fault_answers", "Prediction", "PREDICTIONS",
           "prediction", "wide_growth"]

LAYER_WORDS = tuple(DEFINITIONS[layer][0] for layer in faults.LAYERS)  # a layer without a row fails here

FAULT_QUESTIONS = (
    ("How does the run end?", RUN_STATUSES),
    ("Which layer stops the fault?", LAYER_WORDS),
)


def layer_words(layer):
    """The learner's words for a layer of the faults table (``"oracle"`` -> ``"the oracle"``)."""
    if layer not in DEFINITIONS:
        raise KeyError(f"{layer!r} is not a layer; the layers are {', '.join(faults.LAYERS)}")
    return DEFINITIONS[layer][0]


def fault_answers(run, name):
    """``(answers, why)`` for :data:`FAULT_QUESTIONS` after ``run_fault(name)``: the status the run
    reached and the layer its trace shows (:func:`agent_team.layers.stopped_by`), then, in words,
    the event that shows it, the fault's own explanation and the run's stop reason."""
    fault = faults.fault(name)
    layer, seen = stopped_by(run)
    if layer is None:  # a run no layer had to stop: say so rather than name one
        return (run.status, "none"), f"no layer had to stop anything in this run. {run.stop_reason}."
    words = DEFINITIONS[layer][0]
    why = f"the trace shows {words} at work ({seen}). The reason: {fault.why}."
    if run.stop_reason not in seen:
        why += f" The run's stop reason: {run.stop_reason}."
    return (run.status, words), why


@dataclass(frozen=True)
class Prediction:
    key: str        # its id, and its record's name in the progress file: "part N: ..."
    title: str      # what is run, as the form shows it
    questions: tuple  # ((prompt, options), ...)
    answers: tuple  # the key: one option per question, what the run shows
    why: str        # shown under the run, after the reveal


SHAPES = ("content is the number 42, not text", "content of 25,000 characters",
          "content of exactly 20,000 characters", "9 patches in one turn, all to src/fizzbuzz.py",
          "the path src/../src/fizzbuzz.py", "the absolute path /src/fizzbuzz.py")
WIDE = ("about the same (under +10%)", "a good deal longer (+10% to +50%)", "about double (+50% to +150%)",
        "several times as long (over +150%)")

PREDICTIONS = (
    Prediction("part 1: patch shapes", "six coder turns: accepted or refused?",
               tuple((case, ("accepted", "refused")) for case in SHAPES),
               ("refused", "refused", "accepted", "refused", "refused", "refused"),
               "the path must be clean: relative, with forward slashes, no `..` step (even one that would "
               "land on an allowed file: a path is looked up exactly as written); the content a `str` of "
               "at most 20,000 characters (exactly 20,000 is fine); a turn at most 8 patches. A refused "
               "turn changes nothing."),
    Prediction("part 2: two views", "the default team's round 2", (
        ("In round 2, the coder's `review` field holds", ("nothing: the coder is shown no review",
                                                          "a request for changes that quotes a failing test",
                                                          "an approval")),
        ("In round 2, the reviewer's `past_verdicts` holds", ("[] (each review starts afresh)",
                                                               "['request_changes']",
                                                               "['request_changes', 'approve']"))),
               ("a request for changes that quotes a failing test", "['request_changes']"),
               "a view is cut from what has happened so far. In round 1 the reviewer saw red tests and asked for "
               "changes, quoting the first failure; that review is what the coder is shown next. `past_verdicts` "
               "lists the reviewer's earlier verdicts, not the one it is about to give, so in round 2 it holds "
               "round 1's alone."),
    Prediction("part 3: one round", "supervise(max_rounds=1)", (
        ("The run's status is", RUN_STATUSES),
        ("The last state before the run stops is", ("PLAN", "CODE", "TEST", "REVIEW"))),
               ("budget", "REVIEW"),
               "after CODE always TEST, and every test run is reviewed, so even the last round ends "
               "`TEST -> REVIEW`; only then does the supervisor see that no round is left and stop."),
    Prediction("part 7: a model as the coder", "SmolLM2-135M as the coder, 3 rounds", (
        ("The run's status is", RUN_STATUSES),
        ("The coder's patches are", ("refused by the allowlist", "applied, and the tests are red",
                                     "applied, and the tests are green"))),
               ("budget", "applied, and the tests are red"),
               "the reply had the right shape and a path on the coder's allowlist, so it landed; "
               "but a 135M model copies the prompt's example reply, file content \"the whole new "
               "file\" included, and the oracle cannot run that."),
    Prediction("part 7: narrow and wide views", "the same team, every role shown every fact", (
        ("Over the whole run, the wide prompts are, against the narrow ones,", WIDE),),
               (WIDE[1],),
               "the wide view adds facts a role does not need to every prompt (the coder's grows most: the "
               "test spec and the full test report), but the prompt's fixed part, the role's instructions "
               "and schema, is the same in both."),
)


def prediction(key):
    """The record of one prediction; a clear error naming the keys there are for one the course does not have."""
    return lookup(PREDICTIONS, "key", key, "prediction", "predictions", show=repr,
                  also=" (and part 4's, Predict.fault(name))")


def wide_growth(narrow_tokens, wide_tokens):
    """Which of :data:`WIDE` the growth of the prompt, narrow to wide, falls in (part 7's second prediction)."""
    growth = wide_tokens / narrow_tokens - 1
    return WIDE[0] if growth < 0.10 else WIDE[1] if growth <= 0.50 else WIDE[2] if growth <= 1.50 else WIDE[3]
