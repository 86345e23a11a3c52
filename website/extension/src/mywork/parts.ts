/**
 * The three answers to "the site published a newer version of a part you saved": keep mine,
 * update (the new version with your exercise cells in it), reset (the published version). Update
 * and reset first write the learner's notebook to a copy beside it and only then replace it, so
 * nothing the learner wrote is lost. Written once over IFiles: the home page passes the browser's
 * storage (storage.ts), the notebook's notice JupyterLab's contents manager (../survive.ts).
 */

import { asCopy, carryOver, copyName, keptOver } from './carry';

/** The learner's files: read and write a notebook, list a folder's names. */
export interface IFiles {
  notebook(path: string): Promise<any | null>; // the learner's saved notebook, null if none
  saveNotebook(path: string, notebook: any): Promise<void>;
  paths(dir?: string): Promise<string[]>; // every path saved (at least those in `dir`)
}

/** Today as YYYY-MM-DD, in the learner's time zone (the copy's name). */
export function today(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export interface IDone {
  message: string; // what happened, for the learner
  copy?: string; // where the learner's old notebook is now
}

async function mine(files: IFiles, path: string): Promise<any> {
  const saved = await files.notebook(path);
  if (!saved) {
    throw new Error(`${path} is not saved in this browser: it already is the published version`);
  }
  return saved;
}

async function keepCopy(files: IFiles, path: string, saved: any): Promise<string> {
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const taken = new Set(await files.paths(dir));
  const copy = copyName(path, today(), (p) => taken.has(p));
  await files.saveNotebook(copy, asCopy(saved, path));
  if (!(await files.notebook(copy))) {
    throw new Error(`the copy ${copy} could not be written, so ${path} was left as it is`);
  }
  return copy;
}

/** Keep the learner's notebook as it is, and stop asking about the version `hash`. */
export async function keepMine(files: IFiles, path: string, hash: string): Promise<IDone> {
  await files.saveNotebook(path, keptOver(await mine(files, path), hash));
  return { message: `Kept your ${path}. "Reset this part" still gives you the published version.` };
}

/** The published notebook with the learner's exercise cells, the old one kept as a copy. */
export async function update(files: IFiles, path: string, published: any): Promise<IDone> {
  const saved = await mine(files, path);
  const { notebook, carried, left } = carryOver(published, saved);
  const copy = await keepCopy(files, path, saved);
  await files.saveNotebook(path, notebook);
  const what = carried.length ? `your code of ${carried.join(', ')} carried over` : 'none of your exercise code differed';
  const gone = left.length ? ` The new version has no ${left.join(', ')}: that code is only in the copy.` : '';
  return { copy, message: `Updated ${path} to the new version, ${what}; your old notebook is ${copy}.${gone}` };
}

/** The published notebook as it is, the learner's kept as a copy. */
export async function reset(files: IFiles, path: string, published: any): Promise<IDone> {
  const copy = await keepCopy(files, path, await mine(files, path));
  await files.saveNotebook(path, published);
  return { copy, message: `Reset ${path} to the published version; your notebook is kept as ${copy}.` };
}
