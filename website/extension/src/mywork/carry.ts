/**
 * A learner's saved notebook against the version the site publishes now: which is newer, and the
 * published version with the learner's exercise cells carried over. Pure (no storage, no DOM): the
 * home page (mywork/index.ts) and the notebook's notice (../survive.ts) both call it, and Node
 * tests it (tests/site/test_mywork.py). TypeScript rather than Python: the home page has no kernel.
 *
 * Which version a notebook is: the build writes the published notebook's content hash into its
 * metadata (`agent_team.published`) and into the site's manifest (website/mywork.py). A learner's
 * saved copy keeps the hash it was loaded with, so "the site published a newer one" and "the
 * learner changed it" never look alike. "Keep mine" records the declined version (`kept`).
 */

/** How a learner's notebook stands against the published one. */
export type PartState =
  | 'published' // nothing saved: the learner sees the site's version
  | 'current' // saved, from the version published now
  | 'kept' // saved from an older one, and the learner chose to keep it
  | 'newer'; // saved from an older one (or from before versions were recorded): ask

export function partState(saved: any, publishedHash: string): PartState {
  if (!saved) {
    return 'published';
  }
  const meta = courseMeta(saved);
  if (meta.published === publishedHash) {
    return 'current';
  }
  return meta.kept === publishedHash ? 'kept' : 'newer';
}

/** The notebook's `agent_team` metadata, or {} if it has none. */
export function courseMeta(notebook: any): Record<string, any> {
  const meta = notebook?.metadata?.agent_team;
  return meta && typeof meta === 'object' && !Array.isArray(meta) ? meta : {};
}

/** A copy of `saved` that says the learner keeps it over the version `publishedHash`. */
export function keptOver(saved: any, publishedHash: string): any {
  return { ...saved, metadata: { ...saved.metadata, agent_team: { ...courseMeta(saved), kept: publishedHash } } };
}

/**
 * The learner's notebook as the copy kept beside `path`: marked `agent_team.copy_of`, so that
 * grading a class (agent-team-grade, src/agent_team/classroom/collect.py) grades `path`, not both.
 */
export function asCopy(notebook: any, path: string): any {
  return { ...notebook, metadata: { ...notebook.metadata, agent_team: { ...courseMeta(notebook), copy_of: path } } };
}

/** The key an exercise cell is matched by: its `exercise-N.M` tags; null for any other cell. */
export function exerciseKey(cell: any): string | null {
  const tags: unknown = cell?.metadata?.tags;
  if (cell?.cell_type !== 'code' || !Array.isArray(tags)) {
    return null;
  }
  const named = tags.filter((t) => typeof t === 'string' && t.startsWith('exercise-')).sort();
  if (named.length) {
    return named.join(' ');
  }
  return tags.includes('exercise') ? 'exercise' : null;
}

/** Each exercise cell's key, with its place among cells of the same key (two cells tagged alike). */
function keyed(cells: any[]): Map<string, any> {
  const seen = new Map<string, number>();
  const out = new Map<string, any>();
  for (const cell of cells) {
    const key = exerciseKey(cell);
    if (key !== null) {
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      out.set(n ? `${key} #${n + 1}` : key, cell);
    }
  }
  return out;
}

const text = (source: unknown) => (Array.isArray(source) ? source.join('') : String(source ?? ''));

export interface ICarried {
  notebook: any; // the published notebook, with the learner's exercise cells in it
  carried: string[]; // the exercises whose code the learner had changed, now in `notebook`
  left: string[]; // the learner's exercise cells the published version no longer has (only in the copy)
}

/**
 * The published notebook with each of its exercise cells replaced by the learner's cell of the same
 * exercise tags: the learner's code, the published cell's id and metadata; no outputs (they came
 * from a run of the old notebook, and its widgets are not in the new one).
 */
export function carryOver(published: any, mine: any): ICarried {
  if (!Array.isArray(published?.cells) || !Array.isArray(mine?.cells)) {
    throw new Error('carryOver: both notebooks need a list of cells');
  }
  const theirs = keyed(published.cells);
  const ours = keyed(mine.cells);
  const carried: string[] = [];
  const byCell = new Map<any, any>();
  for (const [key, cell] of theirs) {
    const own = ours.get(key);
    if (own && text(own.source) !== text(cell.source)) {
      carried.push(key);
      byCell.set(cell, { ...cell, source: text(own.source), outputs: [], execution_count: null });
    }
  }
  const left = [...ours.keys()].filter((key) => !theirs.has(key));
  const cells = published.cells.map((cell: any) => byCell.get(cell) ?? cell);
  return { notebook: { ...published, cells }, carried, left };
}

/**
 * Where the learner's old copy goes: `dir/name (my copy 2026-12-01).ipynb`, numbered if `taken`.
 * `day` is the date as YYYY-MM-DD (the caller's today, so tests are not tied to a clock).
 */
export function copyName(path: string, day: string, taken: (path: string) => boolean): string {
  const slash = path.lastIndexOf('/') + 1;
  const dot = path.lastIndexOf('.');
  const [stem, ext] = dot > slash ? [path.slice(0, dot), path.slice(dot)] : [path, ''];
  for (let n = 1; ; n++) {
    const name = `${stem} (my copy ${day}${n > 1 ? ` ${n}` : ''})${ext}`;
    if (!taken(name)) {
      return name;
    }
  }
}
