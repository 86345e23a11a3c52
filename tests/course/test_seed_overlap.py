"""The course is written in its own words: no 12-word run of any notebook source (or the recap
sheet) matches the design notes it was made from. The notes themselves are not in the repository;
tests/course/data/seed_shingles.txt holds a hash per 12-word run of them (tools/seed_overlap.py)."""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("seed_overlap", ROOT / "tools" / "seed_overlap.py")
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)

# Where the notes sit beside the repository (or one of its worktrees), when they do.
SEEDS = next((p for p in (ROOT.parent / "shared" / "seeds", ROOT.parent.parent / "shared" / "seeds")
              if p.is_dir()), ROOT.parent / "shared" / "seeds")


def test_no_course_text_repeats_twelve_words_of_the_design_notes():
    fingerprint = tool.load_fingerprint()
    found = [f"{path.relative_to(ROOT)}: ...{text}..." for path in tool.course_texts()
             for text in tool.matches(path.read_text(encoding="utf-8"), fingerprint)]
    assert not found, "say these in the course's own words:\n" + "\n".join(found)


def test_the_check_covers_every_notebook_source():
    names = {p.name for p in tool.course_texts()}
    assert {p.name for p in (ROOT / "notebooks" / "source").glob("*.py")} <= names
    assert len(tool.load_fingerprint()) > 1000  # the fingerprint is really there


def test_a_copied_sentence_is_caught_whatever_its_case_and_punctuation():
    note = "The supervisor, a plain Python function, decides who speaks next and when the whole run stops."
    fingerprint = {tool.digest(run) for _, run in tool.runs(note)}
    disguised = ("# > **THE SUPERVISOR** (a plain python-function) decides: "
                 "who speaks next, and when the WHOLE run stops!")
    assert tool.matches(disguised, fingerprint) == [" ".join(tool.words(note))]
    # eleven shared words in a row are not a copy; twelve are
    eleven = " ".join(tool.words(note)[:11]) + " differently"
    assert tool.matches(eleven, fingerprint) == []
    assert tool.matches(" ".join(tool.words(note)[:12]), fingerprint) != []


def test_the_fingerprint_is_that_of_the_design_notes_when_they_are_at_hand():
    if not SEEDS.is_dir():
        pytest.skip(f"the design notes are not at {SEEDS}; the fingerprint is checked where they are")
    seeds = sorted(SEEDS.glob("[0-9]*.txt"))
    want = {tool.digest(run) for p in seeds for _, run in tool.runs(p.read_text(encoding="utf-8"))}
    assert tool.load_fingerprint() == want, "run: python tools/seed_overlap.py update ../shared/seeds"
