/**
 * The home page's script (the page itself is static HTML, website/home.py; this only adds what the
 * browser alone knows). Built into lib/home.js, loaded with `defer`: the page is readable without it.
 *
 * 1. The learner's record (record.ts): each exercise's status, each part's line (tally.ts: what
 *    the progress widget counts, read the same), and "continue" to the next unfinished part.
 * 2. Work that is kept: ask for persistent storage once there is work to keep, say what the
 *    browser answered (a button asks where it was not granted).
 * 3. Helper `mywork/mywork.js`, if the site has it: `mount(section#my-work)`.
 * 4. While the learner reads (warm.ts): the kernel prepared for the first notebook.
 */

import { missing } from '../capabilities';
import type { IIsolation } from './isolation';
import type { IPrewarm } from './prewarm';
import { database, read } from './record';
import type { IRecord } from './record';
import { byPart, line, nextPart } from './tally';
import type { KeyParts } from './tally';
import { warm } from './warm';

interface IHome {
  exercises: Record<string, string[]>; // part key ("part1") -> its exercise ids, in course order
  keyParts: KeyParts; // agent_team.progress.KEY_PARTS: the part a prediction's key names
  notebooks: string[];
  first: string;
  lab: string;
  prewarm?: IPrewarm;
  isolation?: IIsolation;
  prefetch?: string[]; // JupyterLab's entry files, as its pages name them
  contentsStorageName?: string; // the site's own name for its files' database, if it sets one
}

const g = globalThis as any;
const $ = (selector: string) => document.querySelector(selector) as HTMLElement | null;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function status(entry: IRecord['exercises'][string] | undefined): [string, string] {
  if (!entry || !entry.attempts) {
    return ['not graded yet', 'muted'];
  }
  if (entry.passed) {
    return ['passed', 'ok'];
  }
  return entry.passed_once ? ['passed before; the last run did not', 'warn'] : [`not yet (${plural(entry.attempts, 'graded run')})`, 'warn'];
}

function showRecord(home: IHome, record: IRecord): void {
  for (const ids of Object.values(home.exercises)) {
    for (const id of ids) {
      const [text, kind] = status(record.exercises[id]);
      const badge = document.querySelector(`[data-exercise="${id}"] [data-status]`);
      if (badge) {
        badge.textContent = text;
        badge.className = `badge ${kind}`;
      }
    }
  }
  const rows = byPart(home.exercises, home.keyParts || [], record);
  for (const row of rows) {
    const card = document.querySelector(`[data-tally="${row.part}"]`);
    if (card) {
      card.textContent = line(row);
    }
  }
  const begun = rows.some((row) => line(row));
  const note = $('#progress-note');
  if (note && begun) {
    note.textContent = 'Your progress in this browser, as the progress table at the end of each part shows it.';
  }
  const next = $('#continue') as HTMLAnchorElement | null;
  if (!next || !(begun || record.saved)) {
    return; // a first visit: "Start with part 1" stands
  }
  const part = nextPart(rows);
  const card = document.querySelector(part ? `[data-part="${part}"]` : '[data-part="appendix"]');
  const file = card && card.getAttribute('data-notebook');
  if (file) {
    next.href = `${home.lab}?path=${encodeURIComponent(file)}`;
    next.textContent = `Continue: ${card.querySelector('h3')?.textContent || file}`;
    const where = $('#continue-note');
    if (where) {
      where.textContent = part ? ' the next part you have not finished' : ' every part is done: the appendix is left';
    }
  }
}

/** Ask for persistent storage once the learner has work to keep; say where it stands. */
async function keep(record: IRecord): Promise<void> {
  const line = $('#persist');
  const ask = $('#persist-ask') as HTMLButtonElement | null;
  const storage = navigator.storage;
  if (!line || !storage || typeof storage.persisted !== 'function') {
    return; // the page's own words (clearing is possible) stand
  }
  const say = (kept: boolean) => {
    line.textContent = kept
      ? 'This browser has agreed to keep this site\'s data until you delete it yourself (it will not clear it to make space).'
      : 'This browser may clear this site\'s data when space runs low, and Safari clears it after 7 days without a visit.';
    if (ask) {
      ask.hidden = kept || typeof storage.persist !== 'function';
    }
  };
  const persist = async () => {
    try {
      say(await storage.persist());
    } catch {
      say(false);
    }
  };
  let kept = false;
  try {
    kept = await storage.persisted();
  } catch {
    /* unknown: the page's own words stand */
  }
  say(kept);
  ask?.addEventListener('click', persist);
  if (!kept && typeof storage.persist === 'function' && (record.saved || Object.keys(record.exercises).length)) {
    await persist();
  }
}

async function mountMyWork(): Promise<void> {
  const section = document.getElementById('my-work');
  if (!section) {
    return;
  }
  const url = new URL('mywork/mywork.js', document.baseURI).href;
  try {
    const module = await import(/* webpackIgnore: true */ url);
    if (typeof module.mount === 'function') {
      await module.mount(section);
    }
  } catch (error) {
    console.info('agent_team: no "my work" module on this site', String(error).slice(0, 200));
  }
}

function main(): void {
  const blob = document.getElementById('agent-team-home');
  const home: IHome = blob ? JSON.parse(blob.textContent || '{}') : {};
  g.__agentTeamHome = { record: null, warm: null };
  const parts = Object.keys(home.exercises || {}).map((key) => Number(key.replace(/^part/, '')));
  read(database(new URL('./', document.baseURI), home.contentsStorageName), parts).then((record) => {
    g.__agentTeamHome.record = record;
    showRecord(home, record);
    return keep(record);
  }).catch((error) => console.warn('agent_team: the learner\'s record was not read', error));
  mountMyWork();
  const off = new URLSearchParams(location.search).get('prewarm') === 'off';
  if (home.prewarm && !off && !missing().length) {
    g.__agentTeamHome.warm = warm(home.prewarm, home.isolation, home.prefetch || [], $('#warm'));
  }
}

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', main, { once: true });
} else {
  main();
}
