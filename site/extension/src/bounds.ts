/**
 * How long each start-up step may take before the kernel gives up on it and starts plainly
 * (docs/kernel-start.md). Generous: a slow machine must never fall back for being slow, only a
 * step that hangs. Read when each step starts, so a test can shrink them at run time:
 * `globalThis.__agentTeamBounds = { restored: 5000 }` (milliseconds) before the page loads.
 */

export interface IBounds {
  place: number; // the worker finds this site's snapshot key and opens Cache Storage
  restore: number; // the worker restores the snapshot (heap and files)
  restored: number; // page: from the worker saying "restoring" to the kernel being ready
  start: number; // page: from a kernel's creation to its being ready, on any path
  isolation: number; // page: registering the service worker until it controls the page
}

const DEFAULTS: IBounds = {
  place: 10_000,
  restore: 20_000,
  restored: 45_000,
  start: 300_000,
  isolation: 20_000,
};

/** The bounds in force now: the defaults, with any a test set on globalThis.__agentTeamBounds. */
export function bounds(): IBounds {
  const set = (globalThis as any).__agentTeamBounds;
  return { ...DEFAULTS, ...(set && typeof set === 'object' ? set : {}) };
}

/** `promise`, or a rejection saying `what` did not finish within `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
