"""Every quiz in the course, read from its table (agent_team.quizzes): fair to a learner who reads,
not to one who guesses.

A quiz whose answer is always b) or c), or always the longest choice, can be
passed without reading the question. Across the course no letter may hold
more than 40% of the answers, the longest choice may be the answer in at most
40% of the quizzes, and each wrong choice comes with its own explanation.
"""

import ast
from collections import Counter
from pathlib import Path

import pytest

from agent_team.quizzes import QUIZZES as TABLE, quiz_ids

SOURCES = sorted((Path(__file__).resolve().parents[2] / "notebooks" / "source").glob("*.py"))
LIMIT = 0.40
MAX_CHOICE = 100  # characters: one line of a radio button in a notebook


def _quizzes():
    return [{"where": f"quiz {q.id}: {q.question[:50]}", "choices": list(q.choices), "answer": q.answer,
             "explanations": list(q.explanations) or None} for q in TABLE]


def test_every_quiz_of_the_table_is_asked_once_and_only_by_its_id():
    asked = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Quiz":
                assert len(node.args) == 1 and not node.keywords, f"{path.name}: a quiz cell says Quiz(\"N.M\") only"
                quiz_id = ast.literal_eval(node.args[0])
                assert quiz_id.split(".")[0] == str(int(path.name[:2])), f"{path.name} asks quiz {quiz_id}"
                asked.append(quiz_id)
    assert sorted(asked) == sorted(quiz_ids()), "each quiz of agent_team.quizzes is asked once, in its part"


QUIZZES = _quizzes()


def test_the_course_has_its_quizzes():
    assert len(QUIZZES) >= 12
    assert all(isinstance(q["answer"], int) for q in QUIZZES)


def test_no_answer_position_holds_more_than_40_percent():
    positions = Counter(q["answer"] for q in QUIZZES)
    worst, count = positions.most_common(1)[0]
    assert count / len(QUIZZES) <= LIMIT, f"choice {'abcd'[worst]}) is the answer in {count} of {len(QUIZZES)}"
    assert len(positions) >= 3, "the answers use at least three different positions"


def test_the_longest_choice_is_the_answer_at_most_40_percent_of_the_time():
    longest = [q["where"] for q in QUIZZES
               if len(q["choices"][q["answer"]]) == max(len(c) for c in q["choices"])]
    assert len(longest) / len(QUIZZES) <= LIMIT, f"the longest choice is the answer in: {longest}"


@pytest.mark.parametrize("quiz", QUIZZES, ids=[q["where"] for q in QUIZZES])
def test_distractors_are_plausible_and_explained(quiz):
    right = len(quiz["choices"][quiz["answer"]])
    for i, choice in enumerate(quiz["choices"]):
        if i != quiz["answer"]:
            # A wrong choice far shorter than the answer gives the answer away.
            assert len(choice) >= 0.5 * right, f"choice {'abcd'[i]}) is much shorter than the answer"
    why = quiz["explanations"]
    assert why is not None and len(why) == len(quiz["choices"])
    assert all(why[i] for i in range(len(why)) if i != quiz["answer"]), "every wrong choice says why it is wrong"


@pytest.mark.parametrize("quiz", QUIZZES, ids=[q["where"] for q in QUIZZES])
def test_every_choice_fits_on_one_radio_button_line(quiz):
    # ipywidgets' radio buttons give each label one line: a longer label runs under the next
    # button and swallows its clicks (seen in Chromium on part 6 with a 127-character choice).
    too_long = [f"{'abcd'[i]}) {len(c)} characters" for i, c in enumerate(quiz["choices"]) if len(c) > MAX_CHOICE]
    assert not too_long, f"choices longer than {MAX_CHOICE} characters: {too_long}"
