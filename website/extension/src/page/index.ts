/**
 * The notebook pages' own script, run first thing, before any bundle (the site's build puts it
 * into the pages with its settings in `globalThis.__agentTeamPage`: website/pages.py):
 *
 * 1. a browser that lacks what the kernel needs says so in one line, and nothing starts;
 * 2. the page isolates itself through the site's service worker (isolation.ts), maybe reloading;
 * 3. unless it reloads, it starts the kernel's worker early (prewarm.ts), and says in one line
 *    what the learner cannot do here and what to do instead (capabilities.ts).
 */

import { missing, NO_INTERRUPT, NO_SERVICE_WORKER, serviceWorkers, sharedMemory, TOO_OLD } from '../capabilities';
import { notice } from '../notice';
import { isolate } from './isolation';
import type { IIsolation } from './isolation';
import { prewarm } from './prewarm';
import type { IPrewarm } from './prewarm';

const g = globalThis as any;
const config: { isolation?: IIsolation; prewarm?: IPrewarm } = g.__agentTeamPage || {};

const lacking = () => {
  if (!sharedMemory()) {
    notice(NO_INTERRUPT);
  }
  if (!serviceWorkers()) {
    notice(NO_SERVICE_WORKER);
  }
};

const lacks = missing();
if (lacks.length) {
  g.__agentTeamUnsupported = lacks;
  notice(TOO_OLD(lacks), 'error');
} else {
  if (config.isolation) {
    isolate(config.isolation, lacking);
  }
  if (!g.__agentTeamReloading) {
    if (config.prewarm) {
      prewarm(config.prewarm);
    }
    lacking();
  }
}
