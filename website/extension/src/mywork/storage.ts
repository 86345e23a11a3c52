/**
 * The learner's files where JupyterLite keeps them, read and written from a page without
 * JupyterLab (the home page). JupyterLite's contents drive (@jupyterlite/services, drive.ts) keeps
 * them with localforage in IndexedDB: database `JupyterLite Storage - <the site's path>`, object
 * store `files`, one record per path, the value a Jupyter contents model ({name, path, type,
 * format, content, ...}; a notebook's content is its JSON). Written here in the same shape, so
 * JupyterLab reads them as its own. Each call opens and closes the database, so localforage can
 * always upgrade it.
 *
 * Before its first write, the page upgrades the database by one version, changing nothing in it:
 * WebKit (2.50, 2026-12-01) keeps a JupyterLab page the learner just left in its back/forward
 * cache with a read-write transaction of that page suspended, and every later read-write
 * transaction on the database waits behind it for good (reads go on: the home page showed the
 * parts, then its first write hung, 3 runs of 3). The upgrade closes the cached page's
 * connection, which ends that transaction (then 2 of 2 and the walks' runs wrote at once); a live
 * JupyterLab tab closes its connection on the `versionchange` (localforage does) and reopens it.
 * A write that still waits is given up after `limits.storageSeconds` (aborted: nothing
 * half-written) with a message to try again.
 */

import type { IFiles } from './parts';

const STORES = ['files', 'counters', 'checkpoints']; // localforage's stores of the drive
/** How long a transaction may wait, read at each call (tests may set it). */
export const limits = { storageSeconds: 10 };

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function open(name: string, version?: number): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    // Blocked: another tab holds a connection and has not closed it on `versionchange` (yet).
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new Error('the browser storage is busy: close the other tabs of this site and try again'));
    }, limits.storageSeconds * 1000);
    const settle = (act: () => void) => () => {
      clearTimeout(timer);
      act();
    };
    const req = version ? indexedDB.open(name, version) : indexedDB.open(name);
    req.onupgradeneeded = () => {
      for (const store of STORES) {
        if (!req.result.objectStoreNames.contains(store)) {
          req.result.createObjectStore(store);
        }
      }
    };
    req.onsuccess = settle(() => {
      if (late) { // given up on: let go, so as not to block the next upgrade
        req.result.close();
        return;
      }
      // localforage adds its stores as it needs them, each an upgrade: never be in its way.
      req.result.onversionchange = () => req.result.close();
      resolve(req.result);
    });
    req.onerror = settle(() => reject(req.error));
  });
}

export class BrowserFiles implements IFiles {
  /** The drive of the site whose root is `root` (the URL of its folder). */
  constructor(root: string) {
    this.name = `JupyterLite Storage - ${new URL(root).pathname}`;
  }

  /** The database; upgraded by one version if it lacks the store (made by someone else without
   *  it: add it) or, before this page's first write, to release pages in the back/forward cache. */
  private async db(write: boolean): Promise<IDBDatabase> {
    const db = await open(this.name);
    if (db.objectStoreNames.contains('files') && !(write && !this.released)) {
      return db;
    }
    const version = db.version + 1;
    db.close();
    const upgraded = await open(this.name, version);
    this.released ||= write;
    return upgraded;
  }

  private async with<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => Promise<T>): Promise<T> {
    const db = await this.db(mode === 'readwrite');
    try {
      const tx = db.transaction('files', mode);
      const done = new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error ?? new Error('the browser refused to store the file'));
      });
      done.catch(() => {}); // an abort after the time limit is reported by `late`
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          try {
            tx.abort();
          } catch {
            // already finished
          }
          reject(new Error(`the browser's storage did not answer within ${limits.storageSeconds} s (another tab `
            + 'of this site may be saving); nothing was changed by this step: try again'));
        }, limits.storageSeconds * 1000);
      });
      try {
        const result = await Promise.race([act(tx.objectStore('files')), late]);
        await Promise.race([done, late]);
        return result;
      } finally {
        clearTimeout(timer);
      }
    } finally {
      db.close();
    }
  }

  async paths(): Promise<string[]> {
    const keys = await this.with('readonly', (store) => request(store.getAllKeys()));
    return keys.map(String);
  }

  async get(path: string): Promise<any | null> {
    return (await this.with('readonly', (store) => request(store.get(path)))) ?? null;
  }

  async notebook(path: string): Promise<any | null> {
    const model = await this.get(path);
    if (!model || model.type === 'directory') {
      return null;
    }
    return model.format === 'json' ? model.content : JSON.parse(asText(model));
  }

  async text(path: string): Promise<string | null> {
    const model = await this.get(path);
    return model && model.type !== 'directory' ? asText(model) : null;
  }

  async saveNotebook(path: string, notebook: any): Promise<void> {
    await this.put(path, 'notebook', 'json', 'application/json', notebook,
                   new TextEncoder().encode(JSON.stringify(notebook)).length);
  }

  async saveText(path: string, text: string): Promise<void> {
    await this.put(path, 'file', 'text', 'application/json', text, new TextEncoder().encode(text).length);
  }

  private async put(path: string, type: string, format: string, mimetype: string, content: any, size: number) {
    const now = new Date().toISOString();
    await this.with('readwrite', async (store) => {
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++) { // its folders, as JupyterLite makes them on a save
        const dir = parts.slice(0, i).join('/');
        if (!(await request(store.get(dir)))) {
          store.put({ name: parts[i - 1], path: dir, last_modified: now, created: now, format: 'json',
                      mimetype: '', content: null, size: 0, writable: true, type: 'directory' }, dir);
        }
      }
      const old = await request(store.get(path));
      store.put({ name: parts[parts.length - 1], path, last_modified: now, created: old?.created ?? now,
                  format, mimetype, content, size, writable: true, type }, path);
    });
  }

  private readonly name: string;
  private released = false; // whether this page upgraded the database before writing
}

function asText(model: any): string {
  if (model.format === 'json') {
    return JSON.stringify(model.content);
  }
  if (model.format === 'base64') {
    const bytes = Uint8Array.from(atob(model.content), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  }
  return String(model.content ?? '');
}
