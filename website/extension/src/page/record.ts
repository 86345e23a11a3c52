/**
 * The learner's record, read from plain JavaScript on the home page (no JupyterLab loaded): the
 * progress file `agent_team.progress` writes (agent_team_progress.json beside the notebooks) and
 * the notebooks the learner saved, both where JupyterLite keeps its files: the IndexedDB database
 * "JupyterLite Storage - <the site's path>" (its default drive's name, unless the site sets
 * `contentsStorageName`), object store "files" (localforage's; JupyterLite's BrowserStorageDrive),
 * one entry per path, each a contents model whose content is JSON, text or base64.
 *
 * Read only, and never creating the database: a first visit that opened it would leave an empty
 * database that JupyterLite would then have to upgrade, so an open that would create it is
 * aborted (`onupgradeneeded`), which leaves nothing behind.
 */

/** The database JupyterLite's default drive uses for the site whose root is `root`. */
export const database = (root: URL, contentsStorageName?: string) =>
  contentsStorageName || `JupyterLite Storage - ${root.pathname}`;
const STORE = 'files';
export const PROGRESS = 'agent_team_progress.json';

export interface IExercise {
  passed: boolean;
  passed_once: boolean;
  attempts: number;
}

/** A prediction's or a quiz's record: `part` only where it states one (else its key says: tally.ts). */
export interface IPrediction {
  predicted: string;
  actual: string;
  right: boolean;
  part?: number;
}

export interface IQuiz {
  answer: string;
  right: boolean;
  tries: number;
  part?: number;
}

export interface IRecord {
  exercises: Record<string, IExercise>;
  hints: Record<string, number>;
  predictions: Record<string, IPrediction>;
  quizzes: Record<string, IQuiz>;
  saved: number; // how many notebooks the learner saved
}

export const EMPTY: IRecord = { exercises: {}, hints: {}, predictions: {}, quizzes: {}, saved: 0 };

function openExisting(name: string): Promise<IDBDatabase | null> {
  return new Promise((resolve) => {
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(name);
    } catch {
      resolve(null); // no IndexedDB here (some private windows)
      return;
    }
    request.onupgradeneeded = () => request.transaction?.abort(); // it did not exist: leave none
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
    request.onblocked = () => resolve(null);
  });
}

/** Every entry of the files store, {path: model}; {} if there is none. */
async function files(name: string): Promise<Record<string, any>> {
  const db = await openExisting(name);
  if (!db) {
    return {};
  }
  try {
    if (!db.objectStoreNames.contains(STORE)) {
      return {};
    }
    return await new Promise((resolve) => {
      const out: Record<string, any> = {};
      const cursor = db.transaction(STORE, 'readonly').objectStore(STORE).openCursor();
      cursor.onsuccess = () => {
        const at = cursor.result;
        if (!at) {
          resolve(out);
          return;
        }
        out[String(at.key)] = at.value;
        at.continue();
      };
      cursor.onerror = () => resolve(out);
    });
  } finally {
    db.close();
  }
}

/** A contents model's content as the JSON it holds; null if it holds none. */
export function modelJson(model: any): any {
  try {
    if (!model || model.content === null || model.content === undefined) {
      return null;
    }
    if (model.format === 'json') {
      return typeof model.content === 'string' ? JSON.parse(model.content) : model.content;
    }
    if (model.format === 'base64') {
      const bytes = Uint8Array.from(atob(model.content), (c) => c.charCodeAt(0));
      return JSON.parse(new TextDecoder().decode(bytes));
    }
    return JSON.parse(String(model.content));
  } catch {
    return null;
  }
}

const table = (data: any, name: string) =>
  data && typeof data[name] === 'object' && data[name] !== null && !Array.isArray(data[name]) ? data[name] : {};

const isCount = (n: any) => Number.isInteger(n) && typeof n === 'number';
/** `{part: n}` where an entry states a part of the course (`parts`: their numbers), else {}. */
const statedPart = (entry: any, parts: number[]) =>
  isCount(entry.part) && parts.includes(entry.part) ? { part: entry.part as number } : {};

/** The progress file's tables, cleaned as agent_team.progress cleans them on every read; `parts`:
 *  the numbers of the course's parts (a record may state only one of them). */
export function progressOf(data: any, parts: number[] = []): Pick<IRecord, 'exercises' | 'hints' | 'predictions' | 'quizzes'> {
  const exercises: Record<string, IExercise> = {};
  for (const [id, e] of Object.entries<any>(table(data, 'exercises'))) {
    if (e && typeof e === 'object') {
      const attempts = Number.isInteger(e.attempts) && e.attempts >= 0 ? e.attempts : 0;
      exercises[id] = { passed: e.passed === true, passed_once: e.passed_once === true || e.passed === true, attempts };
    }
  }
  const hints: Record<string, number> = {};
  for (const [id, n] of Object.entries<any>(table(data, 'hints'))) {
    if (Number.isInteger(n) && n > 0) {
      hints[id] = n;
    }
  }
  const predictions: IRecord['predictions'] = {};
  for (const [key, p] of Object.entries<any>(table(data, 'predictions'))) {
    if (p && typeof p === 'object' && !Array.isArray(p)) {
      const [predicted, actual] = [String(p.predicted ?? ''), String(p.actual ?? '')];
      predictions[key] = { predicted, actual, right: predicted === actual, ...statedPart(p, parts) };
    }
  }
  const quizzes: IRecord['quizzes'] = {};
  for (const [key, q] of Object.entries<any>(table(data, 'quizzes'))) {
    if (q && typeof q === 'object' && !Array.isArray(q)) {
      const tries = q.tries === undefined ? 1 : q.tries;
      quizzes[key] = { answer: String(q.answer ?? ''), right: q.right === true,
        tries: isCount(tries) && tries > 0 ? tries : 1, ...statedPart(q, parts) };
    }
  }
  return { exercises, hints, predictions, quizzes };
}

/** The learner's record in this browser, in the database `name`; EMPTY on a first visit or where
 *  storage is unreadable. */
export async function read(name: string, parts: number[] = []): Promise<IRecord> {
  let all: Record<string, any>;
  try {
    all = await files(name);
  } catch {
    return EMPTY;
  }
  const saved = Object.entries(all).filter(([path, model]) => path.endsWith('.ipynb') && model && model.type === 'notebook');
  return { ...progressOf(modelJson(all[PROGRESS]), parts), saved: saved.length };
}
