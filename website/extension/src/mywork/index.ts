/**
 * "My work" on the course's home page: `mount(element)` fills it (the home page calls it on its
 * `<section id="my-work">`; built into the site as mywork/mywork.js, an ES module). No kernel and no
 * JupyterLab: it reads and writes the learner's files in the browser's storage (storage.ts).
 *
 * - each part the learner saved, and whether the site has published a newer version of it since:
 *   keep mine / update (my exercise code carried over, my old notebook kept as a copy) / reset;
 * - "Download my work": the notebooks and the progress as one zip (work.ts);
 * - "Import my work": that zip restored here, in another browser or device; a wrong file changes
 *   nothing, and notebooks it would replace are first asked about, then kept as copies.
 */

import { asCopy, copyName, partState } from './carry';
import type { PartState } from './carry';
import { keepMine, reset, today, update } from './parts';
import type { IDone } from './parts';
import { BrowserFiles } from './storage';
import { isWork, mergeProgress, packWork, planImport, unpackWork, WorkError } from './work';
import type { ISite, IWork } from './work';

const STYLE = `.agent-team-mywork button{font:inherit;margin:2px 6px 2px 0;padding:4px 10px;cursor:pointer}
.agent-team-mywork li{margin:6px 0}.agent-team-mywork [role=alert]{font-weight:bold}
.agent-team-mywork .mywork-question{border-left:4px solid currentColor;padding:4px 12px;margin:8px 0}`;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text = '', attrs: Record<string, string> = {}) {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) {
    node.setAttribute(k, v);
  }
  return node;
}

const STATE_TEXT: Record<Exclude<PartState, 'published'>, string> = {
  newer: 'the site has published a newer version since you saved yours.',
  kept: 'yours, kept over a newer published version.',
  current: 'yours, saved in this browser, from the version published now.',
};

/** Fill `element` with the learner's work; resolves once it shows what is saved (never rejects). */
export async function mount(element: HTMLElement): Promise<void> {
  const root = new URL('../', import.meta.url);
  let site: ISite;
  try {
    const response = await fetch(new URL('mywork/published.json', root), { cache: 'no-cache' });
    if (!response.ok) {
      throw new Error(`mywork/published.json: ${response.status}`);
    }
    site = await response.json();
  } catch (error) {
    element.append(el('p', `Your work cannot be shown here (${error}); it is still in this browser, `
      + 'and each notebook opens in JupyterLab as before.', { role: 'alert' }));
    return;
  }
  const files = new BrowserFiles(root.href);
  const published = async (path: string) => {
    const response = await fetch(new URL(`files/${path.split('/').map(encodeURIComponent).join('/')}`, root),
                                 { cache: 'no-cache' });
    if (!response.ok) {
      throw new Error(`the published ${path} could not be fetched (${response.status})`);
    }
    return response.json();
  };

  const box = el('div', '', { class: 'agent-team-mywork' });
  box.append(el('style', STYLE));
  const parts = el('ul', '', { class: 'mywork-parts' });
  const question = el('div', '', { class: 'mywork-question', hidden: '' });
  const status = el('p', '', { class: 'mywork-status', role: 'status', 'aria-live': 'polite' });
  const download = el('button', 'Download my work', { type: 'button', class: 'mywork-download' });
  const importButton = el('button', 'Import my work…', { type: 'button', class: 'mywork-import' });
  const chooser = el('input', '', { type: 'file', accept: '.zip,application/zip', hidden: '',
                                    'aria-label': 'Choose the zip of your work to import' });
  const moves = el('p');
  moves.append(download, importButton, chooser);
  box.append(parts, moves, question, status);
  element.append(box);

  const say = (text: string, error = false) => {
    status.textContent = text;
    status.setAttribute('role', error ? 'alert' : 'status');
  };
  // One thing at a time: every button waits while an answer is written.
  const busy = async (act: () => Promise<string>) => {
    const buttons = Array.from(box.querySelectorAll('button'));
    buttons.forEach((b) => (b.disabled = true));
    try {
      say(await act());
    } catch (error) {
      say(error instanceof WorkError ? error.message : `That did not work: ${error instanceof Error ? error.message : error}.`, true);
    } finally {
      buttons.forEach((b) => (b.disabled = false));
    }
  };
  const reopen = ' Reload any tab of this site showing it in JupyterLab.';

  const showParts = async () => {
    parts.replaceChildren();
    for (const [path, hash] of Object.entries(site.notebooks).filter(([p]) => isWork(site, p)).sort()) {
      const saved = await files.notebook(path).catch(() => null);
      const state = partState(saved, hash);
      if (state === 'published') {
        continue;
      }
      const row = el('li', '', { 'data-path': path, 'data-state': state });
      row.append(el('strong', path), ` — ${STATE_TEXT[state]} `);
      const action = (key: string, label: string, act: () => Promise<IDone>) => {
        const button = el('button', label, { type: 'button', 'data-action': key });
        button.addEventListener('click', () => busy(async () => {
          const done = await act();
          await showParts();
          return done.message + reopen;
        }));
        row.append(button);
      };
      if (state === 'newer') {
        action('keep', 'Keep mine', () => keepMine(files, path, hash));
      }
      if (state !== 'current') {
        action('update', 'Update, keeping a copy of mine', async () => update(files, path, await published(path)));
      }
      action('reset', 'Reset this part', async () => reset(files, path, await published(path)));
      parts.append(row);
    }
    if (!parts.children.length) {
      parts.append(el('li', 'No notebook saved in this browser yet: the parts open as the site publishes them.'));
    }
  };

  download.addEventListener('click', () => busy(async () => {
    const work: IWork = { notebooks: new Map(), progress: await files.text(site.progress) };
    for (const path of (await files.paths()).filter((p) => isWork(site, p))) {
      const notebook = await files.notebook(path);
      if (notebook) {
        work.notebooks.set(path, notebook);
      }
    }
    if (!work.notebooks.size && work.progress === null) {
      return 'Nothing to download yet: a notebook is kept in this browser once you change and save it.';
    }
    const url = URL.createObjectURL(new Blob([packWork(site, work) as Uint8Array<ArrayBuffer>], { type: 'application/zip' }));
    const link = el('a', '', { href: url, download: site.zip });
    box.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    const n = work.notebooks.size;
    return `Saved ${site.zip}: ${n} notebook${n === 1 ? '' : 's'}${work.progress === null ? '' : ' and your progress'}. `
      + 'Keep it: "Import my work" restores it in another browser or on another device.';
  }));

  importButton.addEventListener('click', () => chooser.click());
  chooser.addEventListener('change', () => {
    const file = chooser.files?.[0];
    chooser.value = '';
    question.hidden = true;
    if (file) {
      busy(async () => importWork(await unpackWork(site, new Uint8Array(await file.arrayBuffer()))));
    }
  });

  const importWork = async (work: IWork): Promise<string> => {
    const saved = new Map<string, any>();
    for (const path of work.notebooks.keys()) {
      const here = await files.notebook(path);
      if (here) {
        saved.set(path, here);
      }
    }
    const day = today();
    const plan = planImport(saved, work.notebooks, (p, taken) => copyName(p, day, taken));
    const apply = async () => {
      for (const [path, copy] of plan.copies) {
        await files.saveNotebook(copy, asCopy(saved.get(path), path));
        if (!(await files.notebook(copy))) {
          throw new Error(`the copy ${copy} could not be written, so nothing more was imported`);
        }
      }
      for (const path of plan.writes) {
        await files.saveNotebook(path, work.notebooks.get(path));
      }
      if (work.progress !== null) {
        await files.saveText(site.progress, mergeProgress(await files.text(site.progress), work.progress));
      }
      await showParts();
      const copies = plan.copies.length ? ` Your notebooks it replaced are kept as ${plan.copies.map(([, c]) => c).join(', ')}.` : '';
      return `Imported ${plan.writes.length} notebook${plan.writes.length === 1 ? '' : 's'}`
        + `${work.progress === null ? '' : ' and your progress'} (${plan.same.length} already here as they are).${copies}${reopen}`;
    };
    if (!plan.copies.length) {
      return apply();
    }
    question.replaceChildren(el('p', `${plan.copies.length} notebook${plan.copies.length === 1 ? '' : 's'} in this zip `
      + `differ from yours here: ${plan.copies.map(([p]) => p).join(', ')}. Importing puts the zip's in their place `
      + `and keeps yours as ${plan.copies.map(([, c]) => c).join(', ')}.`));
    const yes = el('button', 'Import and keep copies of mine', { type: 'button', 'data-action': 'import' });
    const no = el('button', 'Cancel', { type: 'button', 'data-action': 'cancel' });
    yes.addEventListener('click', () => busy(async () => { question.hidden = true; return apply(); }));
    no.addEventListener('click', () => { question.hidden = true; say('Import cancelled: nothing was changed.'); });
    question.append(yes, no);
    question.hidden = false;
    yes.focus();
    return 'Your answer is needed before anything is imported.';
  };

  await showParts();
}
