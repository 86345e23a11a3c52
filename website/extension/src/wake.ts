/**
 * A message to the page after every Atomics.notify of the kernel's worker (boot.ts installs it).
 *
 * The page waits for the worker's answers with Atomics.waitAsync (coincident). WebKit resolves
 * that wait only when something else wakes the page: the kernel's first answer (to `initialize`)
 * reached the page 0.3 to 3.7 s after this worker's notify, the page idle meanwhile, and the
 * widgets' first calls up to 1.2 s late (bench/README.md). A message is delivered at once, so the
 * page's coincident (website/extension/patches) also ends its waits on `{agentTeamWake: true}`.
 */

// The kernel's workers notify on Int32Arrays only (coincident's channel); the replacement passes any
// array through to the real notify as it is. Typed as Atomics.notify's first overload, so that the
// worker's own Atomics (whose notify also takes a BigInt64Array) is one of these.
type Notify = (array: Int32Array, index: number, count?: number) => number;

export const WAKE = 'agentTeamWake';

/** Make `atomics.notify` also `post` the wake message, after the notify itself. */
export function wakeAfterNotify(atomics: { notify: Notify }, post: (message: unknown) => void): void {
  const notify = atomics.notify;
  atomics.notify = (array, index, count) => {
    const woken = notify.call(atomics, array, index, count);
    post({ [WAKE]: true });
    return woken;
  };
}
