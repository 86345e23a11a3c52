/**
 * Cross-origin isolation without server headers, from the site's own service worker
 * (site/isolation.py puts it into the site; why: see there).
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
  const url = new URL(`../${config.worker}?enableCache=false`, location.href).href;
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
    localStorage.setItem(`${url}-version`, config.version);
    container.addEventListener('controllerchange', reload);
    container.register(url).then(() => container.ready).then((registration) => {
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
