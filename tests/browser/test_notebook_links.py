"""The closing links of a part, clicked in Chromium: the next part opens in the lab, and the home link
opens the course's home page, in a new tab (why the home link reads ``../index.html#%home``:
tests/course/test_part_links.py). A plain ``../index.html`` does nothing in JupyterLab, which opens it
as a file of the contents; this test is what would notice a JupyterLab that changed either way.
"""

from __future__ import annotations

import pytest

from browsers import driver

HOME_TEXT = "the course's home page"
# Generous hang guards, read at call time.
OPEN_SECONDS = 180
CLICK_SECONDS = 60

JS_SHOW_LAST_CELL = """async () => {
  const notebook = window.jupyterapp.shell.currentWidget.content;
  const last = notebook.widgets.length - 1;
  notebook.activeCellIndex = last;
  await notebook.scrollToItem(last);
  return notebook.widgets[last].model.sharedModel.getSource();
}"""
JS_LAB_TABS = "() => [...document.querySelectorAll('.lm-TabBar-tabLabel')].map(t => t.textContent)"


def last_cell_link(page, text):
    source = page.evaluate(JS_SHOW_LAST_CELL)
    link = page.locator(".jp-RenderedMarkdown a", has_text=text).last
    link.wait_for(timeout=CLICK_SECONDS * 1000)
    return source, link


@pytest.mark.parametrize("part, next_text, following", [("01_architecture.ipynb", "Part 2", "02_policies.ipynb"),
                                                        ("08_frameworks.ipynb", None, None)])
def test_a_part_ends_with_links_that_open_the_next_part_and_the_home_page(guarded, site_url, part, next_text,
                                                                          following):
    page, _ = guarded
    driver.open_notebook(page, site_url, part, timeout=OPEN_SECONDS)
    source, home = last_cell_link(page, HOME_TEXT)
    assert "../index.html#%home" in source
    with page.context.expect_page(timeout=CLICK_SECONDS * 1000) as opened:
        home.click()
    home_page = opened.value
    home_page.wait_for_load_state()
    assert home_page.url == site_url + "index.html#%home"
    assert home_page.locator("li.part").count() >= 7  # the home page's part cards
    home_page.close()
    if following:
        _, nxt = last_cell_link(page, next_text)
        nxt.click()
        page.wait_for_function(f"() => ({JS_LAB_TABS})().includes({following!r})", timeout=CLICK_SECONDS * 1000)
