/**
 * A returning learner's kernel starts from a memory snapshot of the first one (issue 14).
 *
 * On a visit with no snapshot, the worker boots Pyodide as usual (with `_makeSnapshot`), imports
 * the kernel's packages, and then, before the kernel has run anything, takes:
 * - the heap: Pyodide's `makeMemorySnapshot`, Python's whole memory after those imports;
 * - the files: everything under site-packages (the unpacked wheels), which the heap does not hold
 *   and a module imported later needs.
 * Both go into the browser's Cache Storage. The next visit restores them in well under a second
 * instead of starting Python, unpacking the wheels and importing IPython & co. again.
 *
 * Never stale: the entry's key is the one the site's build wrote (site/snapshot.py), a hash of
 * the package lock (every wheel's sha256, agent_team's included), the packages and these worker
 * files. A site rebuilt with other code has another key, and the old entries are deleted when the
 * new one is stored. A snapshot of another Pyodide build is refused by Pyodide itself.
 * Whatever goes wrong here (no Cache Storage, a failed restore) only means a normal start; a
 * restore that failed or hung (boot.ts, start.ts) is refused: its entry deleted and a `refused`
 * mark stored in its place, so that no later visit restores or stores one for this build again.
 */

const CACHE = 'agent-team-kernel';
// Written by the site's build (site/snapshot.py), next to pyodide.mjs.
const KEY_FILE = 'agent-team-snapshot.json';
const REFUSED = 'refused';

/** Where this site's snapshot lives in the cache. */
export interface IPlace {
  cache: Cache;
  key: string;
  heap: string;
  files: string;
  refused: boolean; // a restore under this key failed or hung before: neither restore nor store
}

/** What `take` took: to be stored with `store`. */
export interface ITaken {
  heap: Uint8Array;
  files: Uint8Array;
}

interface IFilesHeader {
  loaded: Record<string, string>; // pyodide.loadedPackages when taken
  files: [string, number][]; // path, size: the bytes follow the header in this order
}

// A reference the heap holds to a JS object: one of Pyodide's own API objects, by name.
interface IRef {
  root: 'pyodide' | 'api';
  key?: string;
}

/** The snapshot's place for this site; null if the site has no snapshot key (site/snapshot.py)
 *  or the browser offers no Cache Storage (not a secure context: a site over plain http from
 *  another machine). */
export async function place(indexUrl: string): Promise<IPlace | null> {
  if (typeof caches === 'undefined') {
    return null;
  }
  // Asked of the server every time (no-cache): a key kept from an older build would restore it.
  const response = await fetch(new URL(KEY_FILE, indexUrl), { cache: 'no-cache' });
  if (!response.ok) {
    return null;
  }
  const key = String((await response.json()).key);
  if (!/^[0-9a-f]{64}$/.test(key)) {
    throw new Error(`${KEY_FILE}: not a snapshot key: ${key.slice(0, 80)}`);
  }
  const url = (part: string) => new URL(`agent-team-snapshot/${key}/${part}`, indexUrl).href;
  const cache = await caches.open(CACHE);
  const refused = !!(await cache.match(url(REFUSED)));
  return { cache, key, heap: url('heap'), files: url('files'), refused };
}

/** Never restore this build's snapshot again here: delete it, and mark its key refused. */
export async function refuse(where: IPlace): Promise<void> {
  where.refused = true;
  await where.cache.delete(where.heap);
  await where.cache.delete(where.files);
  await where.cache.put(where.heap.replace(/heap$/, REFUSED), new Response('refused'));
}

/** Python's heap and the site-packages files, taken right after the kernel's imports; null if
 *  the heap holds a JS reference this module cannot name again. */
export function take(pyodide: any): ITaken | null {
  // A fresh Pyodide has no loaded packages, and makeMemorySnapshot checks its objects are as
  // fresh: the record is taken out for the snapshot and stored with the files instead.
  const loaded = { ...pyodide.loadedPackages };
  for (const name of Object.keys(loaded)) {
    delete pyodide.loadedPackages[name];
  }
  let heap: Uint8Array;
  try {
    heap = pyodide.makeMemorySnapshot({ serializer: (o: unknown) => reference(pyodide, o) });
  } catch (error) {
    console.warn('agent_team: no kernel snapshot taken', error);
    return null;
  } finally {
    Object.assign(pyodide.loadedPackages, loaded);
  }
  return { heap, files: packFiles(pyodide.FS, pyodide._api.sitepackages, loaded) };
}

/** Store what `take` took under this site's key, and delete the entries of other builds. */
export async function store(where: IPlace, taken: ITaken): Promise<void> {
  for (const request of await where.cache.keys()) {
    if (!request.url.includes(where.key)) {
      await where.cache.delete(request);
    }
  }
  const put = (url: string, bytes: Uint8Array) =>
    where.cache.put(url, new Response(bytes as BlobPart, { headers: { 'content-type': 'application/octet-stream' } }));
  // The files first: the heap's presence is what says the entry is complete.
  await put(where.files, taken.files);
  await put(where.heap, taken.heap);
}

/** A Pyodide restored from this site's snapshot, with its files back; null if there is none (or
 *  it cannot be restored: it is then refused). `restoring` is called once there is one. */
export async function restore(pyodideModule: any, indexUrl: string, where: IPlace, restoring: () => void): Promise<any> {
  const heapResponse = await where.cache.match(where.heap);
  const filesResponse = heapResponse && (await where.cache.match(where.files));
  if (!heapResponse || !filesResponse) {
    return null;
  }
  restoring(); // there is one: the restore starts (boot.ts tells the page)
  try {
    const [heap, files] = await Promise.all([heapResponse.arrayBuffer(), filesResponse.arrayBuffer()]);
    const create = (await import(/* webpackIgnore: true */ new URL('pyodide.asm.mjs', indexUrl).href)).default;
    let api: any = null;
    const pyodide = await pyodideModule.loadPyodide({
      indexURL: indexUrl,
      _loadSnapshot: new Uint8Array(heap),
      // Pyodide 314.0.6 copies the heap into the initial memory (31.5 MB) without growing it
      // first ("offset is out of bounds" for a bigger heap): grow it to the snapshot's size.
      createPyodideModule: async (settings: any) => {
        const module = await create(settings);
        api = module.API;
        const restoreSnapshot = api.restoreSnapshot;
        api.restoreSnapshot = (snapshot: Uint8Array) => {
          module.growMemory(snapshot.length);
          return restoreSnapshot(snapshot);
        };
        return module;
      },
      // Called while Pyodide finishes its start: the public API object exists, its functions
      // may not be bound yet, so they are looked up when called.
      _snapshotDeserializer: (ref: IRef) => {
        const root = () => (ref.root === 'api' ? api : api.public_api);
        const key = ref.key;
        return key === undefined ? root() : (...args: unknown[]) => root()[key](...args);
      },
    });
    const loaded = unpackFiles(pyodide.FS, new Uint8Array(files));
    Object.assign(pyodide.loadedPackages, loaded);
    // Every restore would otherwise draw the same "random" numbers as the first start.
    pyodide.runPython('import random as _r; _r.seed(); del _r');
    return pyodide;
  } catch (error) {
    console.warn('agent_team: the kernel snapshot could not be restored; starting afresh', error);
    await refuse(where);
    return null;
  }
}

function reference(pyodide: any, o: unknown): IRef {
  if (o === pyodide) {
    return { root: 'pyodide' };
  }
  for (const [root, holder] of [['pyodide', pyodide], ['api', pyodide._api]] as const) {
    for (const key of Object.getOwnPropertyNames(holder)) {
      let value: unknown;
      try {
        value = holder[key];
      } catch {
        continue; // a getter that throws
      }
      if (value === o) {
        return { root, key };
      }
    }
  }
  throw new Error(`the heap refers to a JS object that is not Pyodide's: ${String(o).slice(0, 80)}`);
}

function packFiles(FS: any, top: string, loaded: Record<string, string>): Uint8Array {
  const header: IFilesHeader = { loaded, files: [] };
  const contents: Uint8Array[] = [];
  const walk = (dir: string) => {
    for (const name of FS.readdir(dir)) {
      if (name === '.' || name === '..') {
        continue;
      }
      const path = `${dir}/${name}`;
      if (FS.isDir(FS.stat(path).mode)) {
        walk(path);
      } else {
        const data: Uint8Array = FS.readFile(path);
        header.files.push([path, data.length]);
        contents.push(data);
      }
    }
  };
  walk(top);
  const head = new TextEncoder().encode(JSON.stringify(header));
  const size = contents.reduce((n, c) => n + c.length, 4 + head.length);
  const out = new Uint8Array(size);
  new DataView(out.buffer).setUint32(0, head.length, true);
  out.set(head, 4);
  let at = 4 + head.length;
  for (const c of contents) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function unpackFiles(FS: any, packed: Uint8Array): Record<string, string> {
  const length = new DataView(packed.buffer, packed.byteOffset).getUint32(0, true);
  const header: IFilesHeader = JSON.parse(new TextDecoder().decode(packed.subarray(4, 4 + length)));
  const made = new Set<string>();
  let at = 4 + length;
  for (const [path, size] of header.files) {
    const dir = path.slice(0, path.lastIndexOf('/'));
    if (!made.has(dir)) {
      FS.mkdirTree(dir);
      made.add(dir);
    }
    FS.writeFile(path, packed.subarray(at, at + size), { canOwn: true });
    at += size;
  }
  return header.loaded;
}
