/**
 * Cross-origin isolation without server headers, from the site's own service worker
 * (website/isolation.py puts it into the site; why: see there).
 *
 * A page is isolated only if it was loaded through the worker, so on the very first visit (no
 * worker yet) the notebook page registers it, as the plugin would, and reloads itself once it is
 * in control, at the address it was opened with (JupyterLab may have dropped `?path=` from it by
 * then). Once per tab session: no reload loop if isolation still fails. Bounded: a worker not in
 * control within `bounds.isolation` is given up on for this page (no reload later, in the middle
 * of the learner's work), which then starts its kernel without isolation.
 */

import { bounds } from '../bounds';
import { serviceWorkers } from '../capabilities';

export interface IIsolation {
  worker: string; // the service worker's file, at the site's root
  version: string; // JupyterLite's version: marked installed, or JupyterLite unregisters it
}

const TRYING = 'agentTeamIsolating';

/** The site's service worker's URL (the one the plugin registers too), from the site's root. */
export function workerUrl(config: IIsolation, root: URL): string {
  return new URL(`${config.worker}?enableCache=false`, root).href;
}

/** Register the site's service worker, marked as JupyterLite's installed version (or JupyterLite
 *  unregisters it). The home page does it without a reload, so that the first notebook page a
 *  learner opens from it is isolated from its start (home.ts). */
export function register(config: IIsolation, root: URL): Promise<ServiceWorkerRegistration> {
  const url = workerUrl(config, root);
  localStorage.setItem(`${url}-version`, config.version);
  return navigator.serviceWorker.register(url);
}

/** Start isolating this page; `gaveUp` is called if it will not reload after all. */
export function isolate(config: IIsolation, gaveUp: () => void): void {
  const g = globalThis as any;
  if (self.crossOriginIsolated) {
    sessionStorage.removeItem(TRYING);
    return;
  }
  if (!serviceWorkers() || sessionStorage.getItem(TRYING)) {
    return;
  }
  const container = navigator.serviceWorker;
  const url = workerUrl(config, new URL('../', location.href));
  const here = location.href;
  let settled = false;
  const reload = () => {
    if (!settled) {
      settled = true;
      location.replace(here);
    }
  };
  const giveUp = (why: unknown) => {
    if (!settled) {
      settled = true;
      console.warn('agent_team: no cross-origin isolation', why);
      container.removeEventListener('controllerchange', reload);
      g.__agentTeamReloading = false;
      gaveUp();
    }
  };
  try {
    sessionStorage.setItem(TRYING, '1');
    g.__agentTeamReloading = true;
    container.addEventListener('controllerchange', reload);
    register(config, new URL('../', location.href)).then(() => container.ready).then((registration) => {
      if (container.controller && registration.active && container.controller.scriptURL === url) {
        reload();
      }
    }).catch(giveUp);
    const ms = bounds().isolation;
    setTimeout(() => giveUp(`the service worker was not in control within ${Math.round(ms / 1000)} s`), ms);
  } catch (error) {
    giveUp(error);
  }
}
