/**
 * The course's Python kernel: JupyterLite's Pyodide kernel, with three differences.
 *
 * 1. It takes the worker the page started early (src/worker.ts), whose Pyodide is already
 *    booting, instead of starting one of its own only once the notebook's session exists.
 * 2. Kernel -> Interrupt stops the running cell. JupyterLite's interrupt only cancels the
 *    cells still queued (jupyterlite/jupyterlite#459); Pyodide stops running Python when 2
 *    (SIGINT) is written into the buffer registered with `setInterruptBuffer`, and Python raises
 *    KeyboardInterrupt in the cell, every variable kept. That buffer must be a
 *    SharedArrayBuffer, so this works only in a cross-origin isolated page (page/isolation.ts)
 *    whose browser shares memory with workers (capabilities.ts); elsewhere the kernel talks to its
 *    worker over comlink, as JupyterLite's does in a page that is not isolated, and Interrupt
 *    only cancels the queued cells (the page says so: page/index.ts).
 * 3. It answers `comm_info_request`. The widget manager asks that first when a notebook opens
 *    and restores the widgets saved in the notebook only after the answer; JupyterLite's
 *    BaseKernel has no case for it, so no answer came and every saved widget said
 *    "Loading widget..." until its cell was run again.
 */

import { KernelMessage } from '@jupyterlab/services';
import { PyodideKernel } from '@jupyterlite/pyodide-kernel';
import type { IPyodideWorkerKernel } from '@jupyterlite/pyodide-kernel';
import { wrap } from 'comlink';

import { sharedMemory } from './capabilities';
import { IStarted, takeWorker } from './worker';

export { startKernel } from './start';

/** The kernel's options, with the worker start.ts started for it. */
export interface IOptions extends PyodideKernel.IOptions {
  started?: IStarted;
}

// The worker's `loadPyodide` (src/boot.ts): resolves to the Pyodide it booted early.
const BOOTED_PYODIDE = new URL('./booted-pyodide.mjs', import.meta.url).href;

// Set from inside the base class's constructor (initWorker), before this class's own fields
// exist: so kept beside the kernel, not on it.
const buffers = new WeakMap<object, Uint8Array | null>();
// The execution running now, one token per execute_request (none while idle).
const running = new WeakMap<object, object>();
const kernels = new Map<string, AgentTeamKernel>();
const SIGINTS = 4;

export class AgentTeamKernel extends PyodideKernel {
  constructor(options: IOptions) {
    super(options);
    this._send = options.sendMessage;
    kernels.set(this.id, this);
    // Read by bench/bench.py: when JupyterLab asked for the kernel, and when it was ready.
    performance.mark('agent-team:kernel-created');
    this.ready.then(() => performance.mark('agent-team:kernel-ready'), () => {});
  }

  /**
   * Interrupt the kernel `id` if it is one of ours and is running a cell. SIGINT is sent again,
   * a second apart (at most SIGINTS times), while that same cell still runs: one that reaches
   * Python before the cell's own code starts (the request still on its way to the worker) can
   * be spent in the kernel's machinery, and the cell would then go on running.
   */
  static interrupt(id: string): void {
    const kernel = kernels.get(id);
    const buffer = kernel && buffers.get(kernel);
    const cell = kernel && running.get(kernel);
    if (!kernel || !buffer || !cell) {
      return;
    }
    let sent = 0;
    const send = () => {
      if (running.get(kernel) === cell && sent++ < SIGINTS) {
        buffer[0] = 2;
        setTimeout(send, 1000);
      }
    };
    send();
  }

  protected initWorker(options: IOptions): Worker {
    const started: IStarted = options.started || takeWorker({
      by: 'kernel',
      pyodideUrl: options.pyodideUrl,
      loadPyodideOptions: (options.loadPyodideOptions || {}) as Record<string, unknown>,
    });
    buffers.set(this, started.interrupt);
    return started.worker;
  }

  /**
   * The base class picks the channel by `crossOriginIsolated` alone, and an isolated page whose
   * browser has no SharedArrayBuffer (WebKitGTK) or no Atomics.waitAsync then gets no kernel:
   * there, the comlink channel it uses in a page that is not isolated (its code, for that case).
   */
  protected initRemote(options: PyodideKernel.IOptions): any {
    if (sharedMemory() || !self.crossOriginIsolated) {
      return super.initRemote(options);
    }
    const self_ = this as any;
    const remote: any = wrap(self_._worker);
    self_._worker.addEventListener('message', (event: MessageEvent) => {
      const data = event.data;
      if (data && data._kernelMessage !== undefined) {
        self_._processWorkerMessage(data._kernelMessage);
      } else if (data && data._logMessage !== undefined) {
        self_._processLogMessage(data._logMessage);
      }
    });
    remote.initialize(this.initRemoteOptions(options)).then(
      () => self_._ready.resolve(),
      (error: Error) => {
        self_._logger({ payload: { type: 'text', level: 'critical', data: error.message }, kernelId: this.id });
        self_._ready.reject(error.message);
      },
    );
    return remote;
  }

  protected initRemoteOptions(options: PyodideKernel.IOptions): IPyodideWorkerKernel.IOptions {
    // indexUrl (the packages) still comes from the real pyodideUrl; only loadPyodide is ours.
    return { ...super.initRemoteOptions(options), pyodideUrl: BOOTED_PYODIDE };
  }

  async executeRequest(
    content: KernelMessage.IExecuteRequestMsg['content'],
  ): Promise<KernelMessage.IExecuteReplyMsg['content']> {
    const buffer = buffers.get(this);
    if (buffer) {
      buffer[0] = 0; // an Interrupt pressed as the previous cell ended must not stop this one
    }
    const cell = {};
    running.set(this, cell);
    try {
      return await super.executeRequest(content);
    } finally {
      if (running.get(this) === cell) {
        running.delete(this);
      }
    }
  }

  async handleMessage(msg: KernelMessage.IMessage): Promise<void> {
    if (msg.header.msg_type !== 'comm_info_request') {
      return super.handleMessage(msg);
    }
    // As the base class answers its other requests: busy, the reply, idle.
    this._status(msg, 'busy');
    let content: KernelMessage.ICommInfoReplyMsg['content'] = { status: 'ok', comms: {} };
    try {
      content = await this.commInfoRequest(msg.content as KernelMessage.ICommInfoRequestMsg['content']);
    } catch (error) {
      // No widgets listed: the saved ones are still restored, and the kernel still goes idle.
      console.warn('agent_team: comm_info_request failed', error);
    }
    this._send(
      KernelMessage.createMessage<KernelMessage.ICommInfoReplyMsg>({
        msgType: 'comm_info_reply',
        channel: 'shell',
        session: msg.header.session,
        parentHeader: msg.header as KernelMessage.ICommInfoRequestMsg['header'],
        content,
      }),
    );
    this._status(msg, 'idle');
  }

  dispose(): void {
    kernels.delete(this.id);
    super.dispose();
  }

  private _status(parent: KernelMessage.IMessage, state: KernelMessage.Status): void {
    this._send(
      KernelMessage.createMessage<KernelMessage.IStatusMsg>({
        msgType: 'status',
        channel: 'iopub',
        session: parent.header.session,
        parentHeader: parent.header,
        content: { execution_state: state },
      }),
    );
  }

  private _send: (msg: KernelMessage.IMessage) => void;
}
