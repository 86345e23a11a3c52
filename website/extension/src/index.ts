/**
 * The course site's JupyterLite plugin: registers the Python kernel (kernel.ts) in place of
 * JupyterLite's own Pyodide kernel plugin, which the site's jupyter-lite.json disables. It reads
 * the same settings as that plugin (`litePluginSettings` of
 * "@jupyterlite/pyodide-kernel-extension:kernel": pyodideUrl, loadPyodideOptions, ...).
 */

import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { PageConfig, URLExt } from '@jupyterlab/coreutils';
import { ILoggerRegistry } from '@jupyterlab/logconsole';
import type { ILogPayload } from '@jupyterlab/logconsole';
import { IServiceWorkerManager, ServiceWorkerManager } from '@jupyterlite/apputils';
import type { IKernel } from '@jupyterlite/services';
import { IKernelClient, IKernelSpecs } from '@jupyterlite/services';

import { openedUnchanged, savedWidgets } from './notebooks';
import { storedWidgets } from './stored-widgets';
import { keepListedWhileRestarting } from './restart';
import { newerPublished } from './survive';
import { startEarly } from './worker';

const ID = '@agent-team/site-extension:kernel';
const SW_ID = '@agent-team/site-extension:service-worker';
const SETTINGS = '@jupyterlite/pyodide-kernel-extension:kernel';

const kernel: JupyterFrontEndPlugin<void> = {
  id: ID,
  description: 'The Pyodide kernel, started early, interruptible, answering comm_info_request.',
  autoStart: true,
  requires: [IKernelSpecs],
  optional: [IKernelClient, IServiceWorkerManager, ILoggerRegistry],
  activate: (
    app: JupyterFrontEnd,
    kernelspecs: IKernelSpecs,
    client: IKernelClient | null,
    serviceWorker: IServiceWorkerManager | null,
    loggers: ILoggerRegistry | null,
  ) => {
    const settings = JSON.parse(PageConfig.getOption('litePluginSettings') || '{}');
    const config = settings[SETTINGS] || {};
    if (!config.pyodideUrl) {
      // No CDN fallback: the site must carry its own Pyodide (website/build.py puts it there).
      throw new Error(`${SETTINGS}: no pyodideUrl in jupyter-lite.json`);
    }
    const baseUrl = PageConfig.getBaseUrl();
    const pyodideUrl = URLExt.parse(config.pyodideUrl).href;
    const loadPyodideOptions: Record<string, unknown> = { ...(config.loadPyodideOptions || {}) };
    for (const [key, value] of Object.entries(loadPyodideOptions)) {
      if (key.endsWith('URL') && typeof value === 'string') {
        loadPyodideOptions[key] = new URL(value, baseUrl).href;
      }
    }
    // If the notebook page did not start the worker already (page/prewarm.ts), now; without
    // startEarly (bench/variants.py's no-prewarm) the kernel starts it when it is created.
    if ((settings[ID] || {}).startEarly) {
      startEarly({ by: 'plugin', pyodideUrl, loadPyodideOptions });
    }

    // The kernel's code, fetched now while JupyterLab goes on starting: fetched only when the
    // session asked for a kernel, it was on a return visit's critical path (3.3 s in, of 4).
    const kernelModule = import('./kernel');
    kernelModule.catch(() => {}); // a failure is reported when a kernel is created

    if (client) {
      // Interrupt: stop the running cell (kernel.ts), then let JupyterLite cancel the queued ones.
      const cancelQueued = client.interrupt.bind(client);
      client.interrupt = async (id: string) => {
        (await kernelModule).AgentTeamKernel.interrupt(id);
        return cancelQueued(id);
      };
      keepListedWhileRestarting(client); // a slow restart must not read as a dead kernel
    }

    // What the kernel logs (a failed start, Pyodide's warnings) goes to its notebook's log console.
    const logger = ({ payload, kernelId }: { payload: ILogPayload; kernelId: string }) => {
      for (const session of app.serviceManager.sessions.running()) {
        if (session.kernel?.id === kernelId) {
          loggers?.getLogger(session.path).log(payload);
        }
      }
    };

    kernelspecs.register({
      spec: {
        name: 'python',
        display_name: 'Python (Pyodide)',
        language: 'python',
        argv: [],
        resources: {},
      },
      // Handed over only once ready, by start.ts, which starts it again plainly if need be.
      create: async (options: IKernel.IOptions): Promise<IKernel> => {
        const { AgentTeamKernel, startKernel } = await kernelModule;
        return startKernel((started) => new AgentTeamKernel({
          ...options,
          started,
          pyodideUrl,
          pipliteUrls: (config.pipliteUrls || []).map((url: string) => URLExt.parse(url).href),
          disablePyPIFallback: !!config.disablePyPIFallback,
          mountDrive: !!(serviceWorker?.enabled || self.crossOriginIsolated),
          loadPyodideOptions: loadPyodideOptions as any,
          contentsManager: app.serviceManager.contents,
          browsingContextId: serviceWorker?.browsingContextId,
          logger,
        }), { by: 'kernel', pyodideUrl, loadPyodideOptions });
      },
    });
  },
};

/**
 * JupyterLite's service worker manager, registering the site's service worker
 * (website/service-worker.js: JupyterLite's own, plus cross-origin isolation). Enabled by
 * website/isolation.py in place of JupyterLite's plugin, which does the same with its own worker.
 */
const serviceWorker: JupyterFrontEndPlugin<IServiceWorkerManager> = {
  id: SW_ID,
  description: "Registers the site's service worker, which isolates the pages.",
  autoStart: true,
  provides: IServiceWorkerManager,
  optional: [IKernelClient],
  activate: (app: JupyterFrontEnd, client: IKernelClient | null) => {
    const settings = JSON.parse(PageConfig.getOption('litePluginSettings') || '{}');
    const { workerUrl } = settings[SW_ID] || {};
    if (!workerUrl) {
      throw new Error(`${SW_ID}: no workerUrl in jupyter-lite.json`);
    }
    const manager = new ServiceWorkerManager({
      contents: app.serviceManager.contents,
      workerUrl: URLExt.join(PageConfig.getBaseUrl(), workerUrl),
    });
    if (client) {
      manager.registerStdinHandler('kernel', client.handleStdin.bind(client));
    }
    return manager;
  },
};

export default [kernel, serviceWorker, savedWidgets, storedWidgets, openedUnchanged, newerPublished];
