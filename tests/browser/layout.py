"""Layout and accessibility of the course's own outputs, in Chromium (used by test_notebooks.py).

For every learner notebook, once test_notebooks.py has run all its cells: for each output the
course made (HTML boxes `.at-box` and widget views) at 820 px and 1400 px wide, in the light and
the dark theme:

- nothing in it is wider than its output area (overflow);
- no row of controls wraps: every visible child of a control row sits on one line;
- one screenshot per widget kind and width is saved in build/screenshots/ for a person to look at;
- axe-core (the npm package, injected from node_modules: no CDN) finds no serious or critical
  violation inside the course's outputs (JupyterLab's own chrome is not ours to fix here).

JupyterLab draws only the cells near the viewport, so each cell is scrolled into view before it
is measured.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = ROOT / "build" / "screenshots"
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("0*.ipynb"))
WIDTHS = (820, 1400)
THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}

# Widget kinds, told apart by what they contain (the widget classes set no CSS class of their own).
KINDS = {
    "stepper": "() => [...document.querySelectorAll('.widget-vbox')].filter(v => v.querySelector("
               "':scope > .widget-hbox > .widget-label') && v.textContent.includes('Step '))",
    "compare": "() => [...document.querySelectorAll('.widget-vbox')].filter(v => "
               "v.textContent.includes('side by side'))",
    "quiz": "() => [...document.querySelectorAll('.widget-vbox')].filter(v => "
            "[...v.querySelectorAll(':scope > button')].some(b => b.textContent.includes('Check')))",
    "hints": "() => [...document.querySelectorAll('.widget-vbox')].filter(v => "
             "v.textContent.includes('Hints for exercise'))",
    "predict": "() => [...document.querySelectorAll('.widget-vbox')].filter(v => "
               "v.textContent.includes('Predict, then run:'))",
    "progress": "() => [...document.querySelectorAll('.widget-vbox')].filter(v => "
                "v.textContent.includes('Your progress'))",
    "report": "() => [...document.querySelectorAll('.at-box')].filter(b => "
              "(b.getAttribute('aria-label') || '').startsWith('report'))",
}

# Per output area: what overflows it, what is cut off, and which control rows wrap. A box may
# scroll a wide table or diagram sideways (the allowlist table does at 820 px with the file browser
# open); the box itself must still end inside the output area.
JS_MEASURE = """(cell) => {
  const problems = [];
  const scrolls = (el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  const what = (el) => `<${el.tagName.toLowerCase()} class="${el.className.baseVal ?? el.className}">`;
  for (const out of cell.querySelectorAll('.jp-OutputArea-output')) {
    if (!out.querySelector('.at-box, .jupyter-widgets')) continue;
    const edge = out.getBoundingClientRect().right + 1;
    // A course box, and every control of a widget, must end inside the output area, even where a
    // widget would clip it (clipped is cut off, not fitted).
    for (const el of out.querySelectorAll('.at-box, .jupyter-widgets button, .jupyter-widgets .widget-label, '
                                          + '.jupyter-widgets .widget-dropdown, .jupyter-widgets .widget-radio')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > edge)
        problems.push(
          `overflow: ${what(el)} ends at ${Math.round(r.right)} px, the output area at ${Math.round(edge)} px`);
    }
    // Inside a box, only a scroll container (a wide table or a diagram that scrolls sideways) may
    // hold something wider than the box.
    for (const box of out.querySelectorAll('.at-box')) {
      const right = box.getBoundingClientRect().right + 1;
      for (const el of box.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.right <= right) continue;
        let a = el.parentElement;
        while (a && a !== box && !scrolls(a)) a = a.parentElement;
        if (a === box && !scrolls(box))
          problems.push(`overflow: ${what(el)} ends past its course box`);
      }
    }
    for (const pre of out.querySelectorAll('.at-box pre')) {
      if (getComputedStyle(pre).wordBreak === 'break-all')
        problems.push('mid-word breaks: a <pre> in a course box has word-break: break-all');
    }
    for (const svg of out.querySelectorAll('svg.at-diagram')) {
      const label = svg.querySelector('text');
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      if (label && scale * parseFloat(label.getAttribute('font-size')) < 8)
        problems.push(`unreadable diagram: its labels are drawn ${(scale * 12).toFixed(1)} px high`);
    }
    for (const row of out.querySelectorAll('.widget-hbox')) {
      const kids = [...row.children].filter(k => k.getBoundingClientRect().height > 0);
      if (kids.length < 2 || !kids.some(k => k.matches('button, .widget-label, .widget-dropdown')))
        continue;
      const tops = kids.map(k => k.getBoundingClientRect().top);
      if (Math.max(...tops) - Math.min(...tops) > 8)
        problems.push(`wrapped controls: ${kids.map(k => k.textContent.trim() || k.className).join(' | ')}`);
    }
  }
  return problems;
}"""

JS_SCROLL_TO = """async (i) => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  await nb.scrollToItem(i, 'start');
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
}"""

JS_AXE = """async (i) => {
  const cell = window.jupyterapp.shell.currentWidget.content.widgets[i].node;
  const ours = [...cell.querySelectorAll('.jp-OutputArea-output .at-box, .jp-OutputArea-output .jupyter-widgets')];
  if (!ours.length) return [];
  const result = await axe.run({include: ours}, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}x, e.g. ${v.nodes[0].html.slice(0, 160)})`);
}"""


def _cells_with_outputs(page):
    return page.evaluate("""() => {
      const nb = window.jupyterapp.shell.currentWidget.content;
      const out = [];
      for (let i = 0; i < nb.model.cells.length; i++) {
        const c = nb.model.cells.get(i).toJSON();
        const text = JSON.stringify(c.outputs || []);
        if (text.includes('at-box') || text.includes('widget-view')) out.push(i);
      }
      return out;
    }""")


def _set_theme(page, theme):
    page.evaluate("(t) => window.jupyterapp.commands.execute('apputils:change-theme', {theme: t})", theme)
    page.wait_for_function("(t) => document.body.dataset.jpThemeName === t", arg=theme, timeout=30_000)


def _check_page(page, name, width, theme, shot_kinds):
    page.set_viewport_size({"width": width, "height": 900})
    _set_theme(page, THEMES[theme])
    problems = []
    for i in _cells_with_outputs(page):
        page.evaluate(JS_SCROLL_TO, i)
        node = page.evaluate_handle("(i) => window.jupyterapp.shell.currentWidget.content.widgets[i].node", i)
        problems += [f"cell {i}: {p}" for p in page.evaluate(JS_MEASURE, node)]
        for kind, finder in KINDS.items():
            key = (kind, width, theme)
            if key in shot_kinds:
                continue
            found = page.evaluate_handle(f"(cell) => ({finder})().filter(e => cell.contains(e))[0] || null", node)
            element = found.as_element()
            if element is not None:
                SHOTS.mkdir(parents=True, exist_ok=True)
                element.screenshot(path=str(SHOTS / f"{kind}-{width}-{theme}-{name.split('_')[0]}.png"))
                shot_kinds.add(key)
    return problems


def problems(page, name, shot_kinds):
    """What does not fit or fails axe in the open notebook (all cells run); adds what it saw to `shot_kinds`."""
    found = []
    for width in WIDTHS:
        for theme in THEMES:
            found += [f"{width} px, {theme}: {p}" for p in _check_page(page, name, width, theme, shot_kinds)]
    page.add_script_tag(path=str(AXE))
    for theme in THEMES:
        _set_theme(page, THEMES[theme])
        for i in _cells_with_outputs(page):
            page.evaluate(JS_SCROLL_TO, i)
            found += [f"axe, {theme}, cell {i}: {v}" for v in page.evaluate(JS_AXE, i)]
    shot_kinds.add(("page", name))
    return list(dict.fromkeys(found))


def missing_kinds(shot_kinds):
    """Once every notebook was checked: the widget kinds never measured and photographed at each
    width in each theme (so a selector that stopped matching cannot hide a kind)."""
    if len({key for key in shot_kinds if key[0] == "page"}) < len(NOTEBOOKS):
        return []
    return sorted({k for k in KINDS for w in WIDTHS for t in THEMES if (k, w, t) not in shot_kinds})
