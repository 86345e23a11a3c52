/**
 * Kernel -> Restart brings the kernel back however long its new start takes.
 *
 * JupyterLite restarts a kernel by disposing it and then awaiting the kernel factory for a new
 * one with the same id (LiteKernelClient.restart); this site's factory hands a kernel over only
 * once it is ready (start.ts). Meanwhile the kernel is in no list: JupyterLab's kernel manager,
 * which polls the running kernels every 10 s, and the notebook's connection, which asks for its
 * kernel when its socket closes, both find none and declare the kernel dead. Where a new start is
 * quick (a snapshot restored in 2-4 s in Chromium and Firefox) no poll falls inside it; in WebKit,
 * where it took 12-60 s, every restart ended with a dead kernel and a notebook that no longer ran
 * anything, and without SharedArrayBuffer a restart is the only way out of a cell that never
 * ends (the page tells the learner so: capabilities.ts). So a kernel being restarted stays listed,
 * with its id and name, until its replacement is there.
 */

import type { Kernel } from '@jupyterlab/services';
import type { IKernelClient } from '@jupyterlite/services';

/** Keep each kernel `client` restarts in its answers (listRunning, getModel) until it is back. */
export function keepListedWhileRestarting(client: IKernelClient): void {
  const restarting = new Map<string, Kernel.IModel>();
  const restart = client.restart.bind(client);
  const listRunning = client.listRunning.bind(client);
  const getModel = client.getModel.bind(client);

  client.restart = async (id: string) => {
    const kernel = await getModel(id);
    if (kernel) {
      restarting.set(id, { id, name: kernel.name });
    }
    try {
      return await restart(id);
    } finally {
      restarting.delete(id);
    }
  };
  client.listRunning = async () => {
    const running = await listRunning();
    const gone = [...restarting.values()].filter((model) => !running.some((kernel) => kernel.id === model.id));
    return [...running, ...gone];
  };
  client.getModel = async (id: string) => (await getModel(id)) ?? restarting.get(id);
}
