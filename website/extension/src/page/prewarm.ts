/**
 * Boot Pyodide while JupyterLab loads (website/prewarm.py says why): the notebook page starts the
 * kernel's worker before any bundle loads, with worker.ts's own steps, for the worker files the
 * site's build names; the first kernel takes that worker.
 */

import { startEarly } from '../worker';

export interface IPrewarm {
  static: string; // the plugin's static folder, from the site's root
  comlink: string; // the worker files' names there
  coincident: string;
  options: Record<string, unknown>; // the kernel's loadPyodideOptions
}

export function prewarm(config: IPrewarm): void {
  const root = new URL('../', location.href);
  const file = (name: string) => new URL(`${config.static}/${name}`, root);
  try {
    startEarly(
      { by: 'page', pyodideUrl: new URL('static/pyodide/pyodide.mjs', root).href, loadPyodideOptions: config.options },
      { comlink: file(config.comlink), coincident: file(config.coincident) },
    );
  } catch (error) {
    console.warn('agent_team: no early start', error);
  }
}
