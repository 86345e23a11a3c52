"""Predict, then run: the layer that catches each fault is read from the real trace."""

import pytest

from agent_team import progress
from agent_team import widgets as W
from agent_team.faults import FAULTS, layers_seen, run_fault
from agent_team.predict import FAULT_QUESTIONS, LAYER_WORDS, fault_answers, layer_words
from agent_team.render.predict import outcome_text, predict_html

@pytest.mark.parametrize("name", list(FAULTS))
def test_each_fault_is_stopped_by_the_layer_its_row_names_and_the_trace_shows_it(name):
    run = run_fault(name)
    (status, layer), why = fault_answers(run, name)
    assert status == FAULTS[name].expect and layer == layer_words(FAULTS[name].layer) and run.stop_reason in why
    assert FAULTS[name].layer in layers_seen(run)


def test_every_layer_has_words_and_a_misspelt_one_is_named():
    assert len(LAYER_WORDS) == len(set(LAYER_WORDS)) == 4
    with pytest.raises(KeyError, match="the layers are allowlist"):
        layer_words("firewall")


def test_a_misspelt_fault_is_named_with_the_faults_there_are():
    with pytest.raises(KeyError, match="no fault named 'coder edits test'; choose one of: fizz-only coder"):
        W.Predict.fault("coder edits test")


def test_predict_before_reveal_after_records_and_locks(tmp_path):
    file = str(tmp_path / "p.json")
    p = W.Predict.fault("coder edits tests", file=file)
    assert p.outcome is None and p.right is None and "Predict, then run" in p.text
    p._radios[0].value = "budget"  # clicking
    p.choose("budget", 2)  # by text or index, like clicking
    assert p.chosen == ["budget", "the oracle"] and p._radios[1].value == "the oracle"
    shown = p.reveal(run_fault("coder edits tests"))
    assert p.right is False and "the run shows the allowlist (not this time)" in shown.text
    assert "the run shows budget (right)" in shown.text and all(r.disabled for r in p._radios)
    assert "You had 1 of 2 right" in p._outcome.value
    assert progress.predictions(file) == {"fault: coder edits tests": {
        "predicted": "budget / the oracle", "actual": "budget / the allowlist", "right": False}}
    assert "Predictions made before a run: 0 of 1 right" in W.Progress(file).html
    with pytest.raises(RuntimeError, match="before the run"):
        p.choose("pass", 0)


def test_no_prediction_is_not_recorded_and_bad_answers_are_clear(tmp_path, monkeypatch):
    monkeypatch.setattr(W, "ipw", None)
    file = str(tmp_path / "p.json")
    p = W.Predict("p1", "a refused path", [("Accepted or refused?", ["accepted", "refused"])], file=file)
    with pytest.raises(ValueError, match="choose one of"):
        p.choose("maybe")
    with pytest.raises(ValueError, match="one answer per question"):
        p.choose("refused", "accepted")
    out = p.reveal(["refused"], "the path climbs out with `..`")
    assert "no prediction made" in out.text and progress.predictions(file) == {}
    assert "<code>..</code>" in out.html


def test_renderers_are_pure_and_escape():
    html = predict_html("<b>x</b>", FAULT_QUESTIONS, ["pass", None])
    assert "&lt;b&gt;" in html and "[pass]" in html
    text = outcome_text("t", FAULT_QUESTIONS, ["pass", "the oracle"], ["pass", "the oracle"], "why")
    assert text.count("(right)") == 2
