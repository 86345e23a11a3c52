"""The learner's work in a real browser, written once for every engine (engines.py's pages and
Playwright's): the home page's "my work" (website/extension/src/mywork/) and the notebook's notice
of a newer published version (survive.ts). Everything goes through `evaluate`/`wait_for_function`.

The home page is not on this branch (it is made elsewhere, with a `<section id="my-work">`): where
the built site's root page has that section, the tests use it; otherwise they add a minimal page
with it to the site (TEST_PAGE), which loads mywork/mywork.js and calls `mount` as the home page does.
"""

from __future__ import annotations

import base64
import json
import os
import re
import time
from contextlib import contextmanager
from pathlib import Path

from website import contents

TEST_PAGE = "my-work-test.html"
PAGE = """<!doctype html><html lang="en"><meta charset="utf-8"><title>My work (test page)</title>
<main><h1>My work</h1><section id="my-work"></section></main>
<script type="module">
import('./mywork/mywork.js').then((m) => m.mount(document.getElementById('my-work')))
  .then(() => { window.__myWorkMounted = true; }, (e) => { window.__myWorkMounted = String(e); });
</script></html>
"""
COPY_RE = r" \(my copy \d{4}-\d{2}-\d{2}( \d+)?\)\.ipynb$"
EXERCISE_1_1 = "exercise-1.1"
# Generous bounds (seconds), read at call time: a WebKit page under load took over 30 s once.
STATUS_SECONDS = 120
PAGE_SECONDS = 120


def home_path(site_dir: Path) -> str:
    """The page with the learner's work: the site's home page if it has the section, else TEST_PAGE."""
    root = site_dir / "index.html"
    if root.exists() and 'id="my-work"' in root.read_text():
        return ""
    (site_dir / TEST_PAGE).write_text(PAGE)
    return TEST_PAGE


def open_home(page, site_url, path):
    page.goto(f"{site_url}{path}")
    # The home page's own code calls mount; the test page marks it done (the real one: rows shown).
    page.wait_for_function("() => window.__myWorkMounted !== undefined || !!document.querySelector("
                           "'.agent-team-mywork .mywork-parts li')", timeout=PAGE_SECONDS * 1000)
    mounted = page.evaluate("() => window.__myWorkMounted === undefined ? true : window.__myWorkMounted")
    assert mounted is True, f"mount failed: {mounted}"


def part_state(page, path):
    """The home page's state of a part (published/current/newer/kept), None if it lists none."""
    return page.evaluate("""(path) => {
      const row = [...document.querySelectorAll('.mywork-parts li[data-path]')].find((r) => r.dataset.path === path);
      return row ? row.dataset.state : null; }""", path)


BUSY = "the browser's storage did not answer"


def click_part(page, path, action):
    """Press `action` (keep/update/reset) of `path`'s row; the status line afterwards. A write the
    storage left waiting (storage.ts: WebKit, right after JupyterLab) fails the test: no second press."""
    page.evaluate("""([path, action]) => {
      const row = [...document.querySelectorAll('.mywork-parts li[data-path]')].find((r) => r.dataset.path === path);
      window.__myWorkStatus = document.querySelector('.mywork-status').textContent;
      row.querySelector(`button[data-action="${action}"]`).click(); }""", [path, action])
    said = wait_status(page)
    assert BUSY not in said["text"], f"{action}: {said['text']!r}"
    return said


def wait_status(page, timeout=None):
    """The status line once it changed and the buttons are usable again."""
    timeout = timeout or STATUS_SECONDS * 1000
    page.wait_for_function("""() => { const s = document.querySelector('.mywork-status');
      return s.textContent && s.textContent !== window.__myWorkStatus
        && ![...document.querySelectorAll('.agent-team-mywork button')].some((b) => b.disabled); }""",
                           timeout=timeout)
    return page.evaluate("""() => { const s = document.querySelector('.mywork-status');
      window.__myWorkStatus = s.textContent; return {text: s.textContent, role: s.getAttribute('role')}; }""")


# The learner's files as JupyterLite stores them (IndexedDB `JupyterLite Storage - <site path>`,
# store `files`): {path: model}, for the site served at `root`. A database that does not exist yet
# is not created.
JS_STORED = """async (root) => {
  const name = 'JupyterLite Storage - ' + root;
  const db = await new Promise((resolve, reject) => {
    const r = indexedDB.open(name);
    r.onupgradeneeded = () => r.transaction.abort();
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => resolve(null);
  });
  if (!db) return {};
  if (!db.objectStoreNames.contains('files')) { db.close(); return {}; }
  const store = db.transaction('files').objectStore('files');
  const all = (req) => new Promise((res, rej) => {
    req.onsuccess = () => res(req.result);
    req.onerror = () => rej(req.error);
  });
  const [keys, values] = [await all(store.getAllKeys()), await all(store.getAll())];
  db.close();
  return Object.fromEntries(keys.map((k, i) => [k, values[i]]));
}"""


def stored(page, root="/"):
    """The learner's files in this profile of the site served at `root` (the tests' server: /)."""
    return page.evaluate(JS_STORED, root)


def stored_notebook(page, path, root="/"):
    model = stored(page, root).get(path)
    return None if model is None else model["content"]


def exercise_source(notebook, tag=EXERCISE_1_1):
    (cell,) = [c for c in notebook["cells"] if tag in c.get("metadata", {}).get("tags", [])]
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def copies(files, path):
    stem = re.escape(path[: -len(".ipynb")])
    return sorted(p for p in files if re.match(stem + COPY_RE, p))


def import_zip(page, data: bytes):
    """Give the home page's "import my work" this file, as choosing it in the file dialog does."""
    page.evaluate("""(b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const input = document.querySelector('.agent-team-mywork input[type=file]');
      const files = new DataTransfer();
      files.items.add(new File([bytes], 'agent-team-work.zip', {type: 'application/zip'}));
      input.files = files.files;
      window.__myWorkStatus = document.querySelector('.mywork-status').textContent;
      input.dispatchEvent(new Event('change')); }""", base64.b64encode(data).decode())
    return wait_status(page)


def download_zip(page) -> bytes:
    """Press "Download my work" and take the zip it offers (the blob the link saves), in any engine."""
    b64 = page.evaluate("""async (ms) => {
      const made = URL.createObjectURL;
      let blob = null;
      URL.createObjectURL = (b) => { blob = b; return made.call(URL, b); };
      window.__myWorkStatus = document.querySelector('.mywork-status').textContent;
      try {
        document.querySelector('.mywork-download').click();
        for (const end = Date.now() + ms; !blob && Date.now() < end;) await new Promise((r) => setTimeout(r, 50));
      } finally { URL.createObjectURL = made; }
      if (!blob) return null;
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let s = ''; for (const b of bytes) s += String.fromCharCode(b);
      return btoa(s); }""", STATUS_SECONDS * 1000)
    assert b64, "Download my work offered no zip"
    wait_status(page)
    return base64.b64decode(b64)


# In JupyterLab: put `source` into the open notebook's exercise cell and save it (JupyterLite then
# keeps it in the browser's storage).
# The progress file as the kernel writes it (progress.py), here through JupyterLab's contents manager.
JS_SAVE_PROGRESS = """async (text) => { await window.jupyterapp.serviceManager.contents.save(
  'agent_team_progress.json', {type: 'file', format: 'text', content: text}); return true; }"""
JS_EDIT_AND_SAVE = """async ([tag, source]) => {
  const app = window.jupyterapp;
  const panel = app.shell.currentWidget;
  await panel.context.ready;
  const cells = panel.content.model.sharedModel.cells;
  cells.find((c) => (c.getMetadata('tags') || []).includes(tag)).setSource(source);
  await app.commands.execute('docmanager:save');
  return true;
}"""
JS_NOTEBOOK_READY = """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  return !!(w && w.context && w.context.isReady && w.content && w.content.model); }"""


def open_lab(page, site_url, path):
    page.goto(f"{site_url}lab/index.html?path={path}")
    page.wait_for_function(JS_NOTEBOOK_READY, timeout=PAGE_SECONDS * 1000)


def edit_and_save(page, source, tag=EXERCISE_1_1):
    assert page.evaluate(JS_EDIT_AND_SAVE, [tag, source])


@contextmanager
def published_again(site_dir: Path, path: str):
    """The site publishes a newer `path`: `change(notebook)` is applied to the served file and the
    manifest lists its new version; everything is put back afterwards."""
    served = site_dir / "files" / path
    manifest_path = site_dir / "mywork" / "published.json"
    originals = {served: served.read_bytes(), manifest_path: manifest_path.read_bytes()}
    stamp = [time.time()]

    def publish(change):
        nb = json.loads(served.read_text())
        change(nb)
        nb["metadata"]["agent_team"]["published"] = contents.version(nb)
        manifest = json.loads(manifest_path.read_text())
        manifest["notebooks"][path] = nb["metadata"]["agent_team"]["published"]
        served.write_text(json.dumps(nb, indent=1))
        manifest_path.write_text(json.dumps(manifest, indent=1))
        stamp[0] += 5  # http.server's If-Modified-Since has 1 s steps: never look unchanged
        for p in originals:
            os.utime(p, (stamp[0], stamp[0]))
        return nb

    try:
        yield publish
    finally:
        for p, data in originals.items():
            p.write_bytes(data)
            os.utime(p, (stamp[0] + 5, stamp[0] + 5))
