"""A learner's exercise function that never returns cannot hang the page (issue 9, item 2).

For each learner notebook 01-06, as the site serves it: open it in JupyterLite, replace the body
of every exercise function (the code cells tagged `exercise`) with an infinite loop, put
`SENTINEL = 42` in a new first cell, run all cells, and require
- run-all finishes (kernel idle again) within RUN_ALL_SECONDS: the graders' 5 s cap and
  try_it's 2 s wait in course cells stop the loop, Interrupt is never pressed;
- every code cell ran, no error output and no traceback on stderr (the expected output is a
  sentence or a grader report saying the function did not return);
- afterwards the kernel still holds SENTINEL == 42 (it was not restarted).

Half the notebooks get a plain `while True: pass`; the other half a loop that catches
BaseException (so the guard's TimeUp) and loops again, the sharp edge of agent_team/limits.py.
The data exercises (part 4's EVAL, part 6's MY_FAULT) are left as they are. Run-all is not
awaited inside page.evaluate (no timeout there): a hang fails the test and names the cells not run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import first_open
from exercise_cells import CAUGHT, EXERCISE_FUNCTIONS, LOOPS, is_exercise, replace_bodies

from browsers import driver

ROOT = Path(__file__).resolve().parents[2]

RUN_ALL_SECONDS = 45

NOTEBOOKS = {name: (EXERCISE_FUNCTIONS[name], loop) for name, loop in LOOPS.items()}



@pytest.mark.parametrize("site_path", list(NOTEBOOKS))
def test_runaway_exercise_cannot_hang_the_notebook(guarded, site_url, site_path):
    page, guard = guarded
    functions, loop = NOTEBOOKS[site_path]
    driver.open_notebook(page, site_url, site_path)
    # As a learner sees it first: stored outputs shown and saved widgets restored (the widget
    # manager asks the kernel for its comms then) before any cell is changed or run.
    assert not first_open.problems_after_open(page, ROOT / "notebooks" / site_path), f"{site_path} on first open"

    changes, replaced = [], []
    for index, cell in enumerate(driver.cells(page)):
        if cell["cell_type"] == "code" and is_exercise(cell):
            source, found = replace_bodies(driver._join(cell["source"]), functions, loop)
            if found:
                changes.append([index, source])
                replaced += found
    assert sorted(replaced) == sorted(functions), f"{site_path}: exercise functions found: {replaced}"
    page.evaluate(driver.JS_SET_SOURCES, changes)
    cells = driver.cells(page)
    assert driver._join(cells[0]["source"]) == "SENTINEL = 42"
    assert all("while True: pass" in driver._join(cells[i + 1]["source"]) for i, _ in changes)

    went_through, seconds = driver.run_all(page, timeout=RUN_ALL_SECONDS + 30)
    cells = driver.cells(page)
    style = "caught loop" if loop is CAUGHT else "while True: pass"
    print(f"{site_path} ({style}): run all in {seconds:.1f} s")

    driver.assert_ran_through(site_path, went_through, cells)
    outputs = driver.outputs(cells)
    text = "\n".join(driver.text_of(o) for o in outputs)
    assert "did not return" in text, f"{site_path}: no output says the function did not return"
    assert seconds <= RUN_ALL_SECONDS, f"{site_path}: run all took {seconds:.1f} s (> {RUN_ALL_SECONDS} s)"

    after = driver.execute(page, "print(SENTINEL)")
    assert after == {"status": "ok", "out": "42\n"}, f"{site_path}: the kernel lost its state: {after}"
