/**
 * The learner's record part by part, and the part to continue with: agent_team/tally.py, which the
 * progress widget shows, done the same way in the browser on the same file (pure functions;
 * tests/site/test_home_record.py runs both on the same records and compares).
 *
 * A prediction or a quiz counts in the part its record states, else the part its key names
 * (`keyParts`, agent_team.progress.KEY_PARTS, shipped by website/home.py: "fault: …" is part 4's),
 * else the part a quiz id names ("3.2" is part 3's). A part is finished once each of its exercises
 * has passed at least once.
 */

import type { IRecord } from './record';

export type KeyParts = [string, number][];

export interface ITally {
  part: string; // "part1"
  number: number;
  exercises: number;
  passed: number; // exercises passed at least once
  graded: number; // exercises graded at least once
  hints: number;
  predictions: number;
  right: number; // predictions the run bore out
  quizzes: number;
  finished: boolean;
}

/** The number of the part a prediction's or quiz's record belongs to, or null (agent_team.progress.part_of). */
export function partOf(key: string, entry: { part?: number } | undefined, keyParts: KeyParts, parts: number[]): number | null {
  if (entry && typeof entry.part === 'number' && parts.includes(entry.part)) {
    return entry.part;
  }
  for (const [prefix, number] of keyParts) {
    if (key.startsWith(prefix)) {
      return number;
    }
  }
  const quiz = /^(\d+)\.\d+$/.exec(key);
  return quiz && parts.includes(Number(quiz[1])) ? Number(quiz[1]) : null;
}

/** One row per part, in course order; `exercises`: part key -> its exercise ids, in course order. */
export function byPart(exercises: Record<string, string[]>, keyParts: KeyParts, record: IRecord): ITally[] {
  const parts = Object.keys(exercises).map((key) => Number(key.replace(/^part/, '')));
  const count = (table: Record<string, { part?: number }>, number: number) =>
    Object.entries(table).filter(([key, entry]) => partOf(key, entry, keyParts, parts) === number).map(([, e]) => e);
  return Object.entries(exercises).map(([part, ids], i) => {
    const number = parts[i];
    const entries = ids.map((id) => record.exercises[id]);
    const mine = count(record.predictions, number) as IRecord['predictions'][string][];
    const passed = entries.filter((e) => e && e.passed_once).length;
    return {
      part, number, exercises: ids.length, passed,
      graded: entries.filter((e) => e && e.attempts > 0).length,
      hints: ids.reduce((sum, id) => sum + (record.hints[id] || 0), 0),
      predictions: mine.length, right: mine.filter((p) => p.right).length,
      quizzes: count(record.quizzes, number).length,
      finished: passed === ids.length,
    };
  });
}

const touched = (row: ITally) => Boolean(row.graded || row.hints || row.predictions || row.quizzes);

/** The part to continue with (agent_team.tally.next_part): the furthest part worked in if it is not
 *  finished, else the first unfinished one after it, else the first before it; the first part when
 *  nothing is recorded; null when every part is finished. */
export function nextPart(rows: ITally[]): string | null {
  const worked = rows.map((row, i) => (touched(row) ? i : -1)).filter((i) => i >= 0);
  const start = worked.length ? worked[worked.length - 1] : 0;
  const found = [...rows.slice(start), ...rows.slice(0, start)].find((row) => !row.finished);
  return found ? found.part : null;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A part's line on the home page's card (agent_team.tally.line); '' for a part not begun. */
export function line(row: ITally): string {
  if (!touched(row)) {
    return '';
  }
  const said = row.predictions ? ` (${row.right} right)` : '';
  return [`${row.passed} of ${row.exercises} passed`, `${row.graded} graded`, `${plural(row.hints, 'hint')} seen`,
    `${plural(row.predictions, 'prediction')} made${said}`, `${plural(row.quizzes, 'quiz', 'quizzes')} answered`].join(' · ');
}
