/**
 * The learner's work as one zip, and back: the format "download my work" writes (the home page
 * here, the notebooks' widget in src/agent_team/widgets/download.py) and "import my work" reads.
 *
 * The zip holds the learner's notebooks at their paths (never solutions/), the progress file, and a
 * manifest, `agent-team-work.json`: `{"course", "format", "files"}`. Its names and numbers are
 * defined once, in download.py; the build hands them to this page in the site's manifest
 * (website/mywork.py), so the two writers cannot drift apart. Pure: no storage, no DOM.
 */

import { readZip, writeZip, ZipError } from './zip';

/** What the site's build says about the course (mywork/published.json). */
export interface ISite {
  course: string; // the course's id, in every zip's manifest
  title: string; // the course's name, for messages
  format: number; // the zip format this site writes and the newest it reads
  manifest: string; // the manifest's name in the zip
  zip: string; // the zip's file name
  progress: string; // the progress file's name
  skip: string[]; // folders that are not the learner's work
  notebooks: Record<string, string>; // published notebook path -> its content hash
}

/** A zip that cannot be imported; `message` says why and what to do, in the learner's words. */
export class WorkError extends Error {}

export interface IWork {
  notebooks: Map<string, any>; // path -> notebook JSON
  progress: string | null; // the progress file's text
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Whether `path` is work this format carries: a notebook outside solutions/ and checkpoints. */
export function isWork(site: ISite, path: string): boolean {
  const parts = path.split('/');
  return path.endsWith('.ipynb') && !parts.some((p) => site.skip.includes(p) || p === '' || p === '..');
}

/** The zip of `work`, with its manifest. */
export function packWork(site: ISite, work: IWork): Uint8Array {
  const files = new Map<string, Uint8Array>();
  for (const [path, notebook] of [...work.notebooks].sort(([a], [b]) => a.localeCompare(b))) {
    files.set(path, encoder.encode(JSON.stringify(notebook, null, 1) + '\n'));
  }
  if (work.progress !== null) {
    files.set(site.progress, encoder.encode(work.progress));
  }
  const manifest = { course: site.course, format: site.format, files: [...files.keys()] };
  return writeZip(new Map([[site.manifest, encoder.encode(JSON.stringify(manifest, null, 1) + '\n')], ...files]));
}

const AGAIN = (site: ISite) => `Choose the ${site.zip} that "Download my work" saved; nothing was changed here.`;

/** The work in a zip made by packWork or download.py; a WorkError (nothing read) otherwise. */
export async function unpackWork(site: ISite, bytes: Uint8Array): Promise<IWork> {
  let files: Map<string, Uint8Array>;
  try {
    files = await readZip(bytes);
  } catch (error) {
    if (error instanceof ZipError) {
      throw new WorkError(`This file is not a zip of your work: ${error.message}. ${AGAIN(site)}`);
    }
    throw error;
  }
  const json = (name: string) => {
    try {
      return JSON.parse(decoder.decode(files.get(name)));
    } catch {
      return undefined;
    }
  };
  const manifest = files.has(site.manifest) ? json(site.manifest) : undefined;
  if (!manifest || typeof manifest !== 'object') {
    throw new WorkError(`This zip was not made by "Download my work" of this course (it has no readable `
      + `${site.manifest}). ${AGAIN(site)}`);
  }
  if (manifest.course !== site.course) {
    throw new WorkError(`This zip holds work from another course (${JSON.stringify(String(manifest.course))}), `
      + `not from ${site.title}. ${AGAIN(site)}`);
  }
  if (!Number.isInteger(manifest.format) || manifest.format < 1 || manifest.format > site.format) {
    throw new WorkError(`This zip was made by a newer version of this course's site (format ${manifest.format}; `
      + `this one reads up to ${site.format}): open the site where you downloaded it, or ask for the update. `
      + 'Nothing was changed here.');
  }
  const work: IWork = { notebooks: new Map(), progress: null };
  for (const name of files.keys()) {
    if (name === site.manifest) {
      continue;
    }
    if (name === site.progress) {
      const progress = json(name);
      if (!progress || typeof progress !== 'object' || Array.isArray(progress)) {
        throw new WorkError(`The progress file in this zip (${name}) is damaged. ${AGAIN(site)}`);
      }
      work.progress = decoder.decode(files.get(name));
    } else if (isWork(site, name)) {
      const notebook = json(name);
      if (!notebook || !Array.isArray(notebook.cells)) {
        throw new WorkError(`${name} in this zip is not a readable notebook. ${AGAIN(site)}`);
      }
      work.notebooks.set(name, notebook);
    }
  }
  if (!work.notebooks.size && work.progress === null) {
    throw new WorkError(`This zip holds no notebooks and no progress. ${AGAIN(site)}`);
  }
  return work;
}

export interface IImportPlan {
  writes: string[]; // notebooks of the zip to write (new here, or different)
  copies: [string, string][]; // [a notebook here that the zip replaces, where its copy goes]
  same: string[]; // notebooks here already equal to the zip's
}

/** What importing `incoming` over the learner's `saved` notebooks does: nothing is lost. */
export function planImport(saved: Map<string, any>, incoming: Map<string, any>,
                           copyName: (path: string, taken: (p: string) => boolean) => string): IImportPlan {
  const plan: IImportPlan = { writes: [], copies: [], same: [] };
  const taken = new Set([...saved.keys(), ...incoming.keys()]);
  for (const [path, notebook] of incoming) {
    const here = saved.get(path);
    if (here !== undefined && JSON.stringify(here) === JSON.stringify(notebook)) {
      plan.same.push(path);
      continue;
    }
    if (here !== undefined) {
      const copy = copyName(path, (p) => taken.has(p));
      taken.add(copy);
      plan.copies.push([path, copy]);
    }
    plan.writes.push(path);
  }
  return plan;
}

const table = (data: any, name: string): Record<string, any> =>
  data && typeof data[name] === 'object' && data[name] && !Array.isArray(data[name]) ? data[name] : {};

const parse = (text: string | null) => {
  try {
    return text === null ? {} : JSON.parse(text);
  } catch {
    return {};
  }
};

/**
 * The progress of this browser and of a zip together (src/agent_team/progress.py's file): an
 * exercise passed in either is passed once, attempts and hints seen are the larger count, the
 * zip's latest grade and predictions win. Nothing either side recorded is dropped. progress.py
 * cleans every entry again when it reads the file, so a malformed one does no harm.
 */
export function mergeProgress(here: string | null, imported: string): string {
  const a = parse(here);
  const b = parse(imported);
  const exercises: Record<string, any> = { ...table(a, 'exercises') };
  for (const [id, entry] of Object.entries(table(b, 'exercises'))) {
    const old = exercises[id];
    exercises[id] = !old || typeof old !== 'object' ? entry : {
      passed: entry?.passed === true,
      passed_once: [old.passed_once, old.passed, entry?.passed_once, entry?.passed].includes(true),
      attempts: Math.max(Number(old.attempts) || 0, Number(entry?.attempts) || 0),
    };
  }
  const hints: Record<string, any> = { ...table(a, 'hints') };
  for (const [id, n] of Object.entries(table(b, 'hints'))) {
    hints[id] = Math.max(Number(hints[id]) || 0, Number(n) || 0);
  }
  const predictions = { ...table(a, 'predictions'), ...table(b, 'predictions') };
  return JSON.stringify({ ...a, ...b, exercises, hints, predictions, version: b.version ?? a.version ?? 1 }, null, 1);
}
