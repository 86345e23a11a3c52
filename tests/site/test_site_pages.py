"""website/pages.py: the notebook pages get the page script once, after every part's settings."""


import pytest

from website import pages

PAGE = '<html><head><meta charset="utf-8"><title>x</title></head><body></body></html>'


@pytest.fixture
def site(tmp_path, monkeypatch):
    for app in pages.PAGES:
        (tmp_path / app).mkdir()
        (tmp_path / app / "index.html").write_text(PAGE)
    code = tmp_path / "page.js"
    code.write_text("console.log(globalThis.__agentTeamPage)")
    monkeypatch.setattr(pages, "PAGE_CODE", code)
    return tmp_path


def scripts(site, app="lab"):
    text = (site / app / "index.html").read_text()
    return [s.split("*/")[0] for s in text.split("<script>")[1:]]


def test_the_script_runs_once_after_the_settings_of_every_part(site):
    pages.add_page_settings(site, "prewarm", {"options": {"a": 1}})
    pages.add_page_settings(site, "isolation", {"worker": "w.js"})
    for app in pages.PAGES:
        assert scripts(site, app) == ["/* agent_team: isolation settings ", "/* agent_team: prewarm settings ",
                                      pages.CODE_MARK + " (website/extension/src/page) "]


def test_one_part_alone_still_brings_the_script(site):
    # bench/variants.py leaves out prewarm or isolation: the other one's settings bring the code
    pages.add_page_settings(site, "isolation", {"worker": "w.js"})
    assert len(scripts(site)) == 2 and scripts(site)[1].startswith(pages.CODE_MARK)


def test_settings_cannot_end_the_script_element(site):
    pages.add_page_settings(site, "prewarm", {"options": {"x": "</script><script>alert(1)"}})
    assert (site / "lab" / "index.html").read_text().count("</script>") == 2


def test_a_page_script_that_would_end_its_element_stops_the_build(site):
    pages.PAGE_CODE.write_text("let s = '</script>'")
    with pytest.raises(SystemExit, match="cannot be written into a page"):
        pages.add_page_settings(site, "prewarm", {})
