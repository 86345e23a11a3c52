/**
 * The kernel always starts (docs/kernel-start.md). JupyterLite awaits the kernel factory before
 * it connects the notebook to the kernel, so the kernel is handed over only once it is ready:
 * one that is not ready in time is never seen by the notebook, and another takes its place.
 *
 * - Its worker restores the snapshot (boot.ts) and the kernel is not ready within
 *   `bounds.restored` of that (a restore stuck where the worker cannot bound it): the worker is
 *   ended, the snapshot refused (deleted, and never tried again here for this build), and a
 *   kernel with a fresh worker starts plainly.
 * - Any kernel not ready within `bounds.start` of its creation, or whose worker failed to load:
 *   the same, once; a second one fails the start with one line saying what to do, instead of a
 *   spinner turning for good.
 */

import { bounds, within } from './bounds';
import { NO_START, TOO_OLD } from './capabilities';
import { notice } from './notice';
import * as snapshot from './snapshot';
import type { IBoot, IStarted } from './worker';
import { startWorker, takeWorker } from './worker';

/** What start.ts needs of a kernel. */
export interface IStartable {
  ready: Promise<void>;
  dispose(): void;
}

/** A kernel made by `make` that is ready, or an error once a plain start failed too. */
export async function startKernel<K extends IStartable>(make: (started: IStarted) => K, boot: IBoot): Promise<K> {
  const lacks: string[] | undefined = (globalThis as any).__agentTeamUnsupported;
  if (lacks) {
    // The page said so already (page/index.ts): a worker here would only die.
    throw new Error(TOO_OLD(lacks));
  }
  const started = takeWorker(boot);
  let restoring = false;
  started.restoring.then(() => (restoring = true));
  const kernel = make(started);
  const why = await notReady(kernel, started);
  if (why === null) {
    return kernel;
  }
  console.warn(`agent_team: the kernel did not start (${why}); starting it afresh`);
  kernel.dispose();
  if (restoring) {
    await within(forgetSnapshot(boot.pyodideUrl), bounds().place, 'refusing the snapshot').catch(() => {});
  }
  const fresh = startWorker({ ...boot, snapshot: false });
  const again = make(fresh);
  const whyAgain = await notReady(again, fresh);
  if (whyAgain === null) {
    return again;
  }
  again.dispose();
  notice(NO_START(Math.round(bounds().start / 1000)), 'error');
  throw new Error(`agent_team: the kernel did not start: ${whyAgain}`);
}

/** null once `kernel` is ready; otherwise why it will not be, as soon as that is known. */
async function notReady(kernel: IStartable, started: IStarted): Promise<string | null> {
  const limits = bounds();
  const timers: ReturnType<typeof setTimeout>[] = [];
  const late = (ms: number, why: string) =>
    new Promise<string>((resolve) => timers.push(setTimeout(() => resolve(why), ms)));
  try {
    return await Promise.race([
      kernel.ready.then(() => null, (error) => `its start failed: ${error}`),
      late(limits.start, `not ready within ${Math.round(limits.start / 1000)} s`),
      started.restoring.then(() => late(limits.restored,
        `restoring its snapshot, not ready within ${Math.round(limits.restored / 1000)} s`)),
      started.failed.then((message) => `its worker failed: ${message}`),
    ]);
  } finally {
    timers.forEach(clearTimeout);
  }
}

/** Refuse this build's snapshot from the page, the worker that was restoring it being gone. */
async function forgetSnapshot(pyodideUrl: string): Promise<void> {
  const indexUrl = pyodideUrl.slice(0, pyodideUrl.lastIndexOf('/') + 1);
  try {
    const where = await snapshot.place(indexUrl);
    if (where) {
      await snapshot.refuse(where);
    }
  } catch (error) {
    console.warn('agent_team: the kernel snapshot could not be refused', error);
  }
}
