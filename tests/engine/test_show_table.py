"""show_table: the one table helper the notebooks share (HTML with a text twin)."""

from agent_team import widgets
from agent_team.render.html import table_text


def test_table_text_is_one_line_per_row():
    assert table_text(["role", "writes"], [("coder", "src/fizzbuzz.py"), ("planner", 1)]) == \
        "role | writes\ncoder | src/fizzbuzz.py\nplanner | 1"


def test_show_table_shows_escaped_html_and_the_text(monkeypatch):
    shown = []
    monkeypatch.setattr(widgets, "show", shown.append)
    widgets.show_table(["a", "b"], [("<script>", 2)], label="demo")
    (rich,) = shown
    assert "&lt;script&gt;" in rich._repr_html_() and "<script>" not in rich._repr_html_()
    assert 'aria-label="demo"' in rich._repr_html_()
    assert repr(rich) == "a | b\n<script> | 2"
