/**
 * What the kernel's worker imports as "pyodide.mjs" (kernel.ts sets the kernel's pyodideUrl to
 * this file): its loadPyodide is the Pyodide that boot.ts started booting, whatever options the
 * kernel passes (boot.ts used the same site settings).
 */

import type { IBootGlobals } from './boot';

export async function loadPyodide(): Promise<unknown> {
  const booted = (globalThis as IBootGlobals).__agentTeamBooted;
  if (!booted) {
    throw new Error('agent_team: this kernel worker was never asked to boot Pyodide');
  }
  return booted;
}
