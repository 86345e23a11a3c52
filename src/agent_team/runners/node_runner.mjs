// The grading runner: one Node process, one Pyodide worker thread, exercises one after another.
// Started by agent_team/runners/node.py (never by hand) as
//   node --experimental-permission --allow-fs-read=<pyodide> --allow-fs-read=<these two scripts>
//        --allow-worker --disallow-code-generation-from-strings node_runner.mjs <pyodide dir>
// with an empty environment. Reads {files, jobs, limits} as JSON on stdin; writes one line
// "RESULT <json>" per job on stdout, in job order. The main thread never runs Python: it keeps the
// clock and the memory watch, interrupts a job that runs too long, and replaces the worker when a
// job hangs past the interrupt, crashes the interpreter, or leaves it too big.
import { Worker } from "node:worker_threads";

const pyodideDir = process.argv[2];
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { files, jobs, limits } = JSON.parse(input);
const GRACE_MS = 3000;

let worker = null;
let bootRss = 0;
let interrupt = null;

function start() {
  const shared = new SharedArrayBuffer(4);
  interrupt = new Int32Array(shared);
  worker = new Worker(new URL("./node_worker.mjs", import.meta.url), {
    workerData: { pyodideDir, files, interrupt: shared },
    env: {},
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  worker.stdout.resume();
  worker.stderr.resume();
  return new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the grading interpreter exited (${code}) while starting`)));
  });
}

async function stop() {
  const w = worker;
  worker = null;
  if (w) await w.terminate();
}

function runOne(job) {
  return new Promise((resolve) => {
    const w = worker;
    let done = false;
    const finish = (result, replace) => {
      if (done) return;
      done = true;
      Atomics.store(interrupt, 0, 0); // an interrupt that came too late must not hit the next job
      clearTimeout(clock);
      clearTimeout(grace);
      clearInterval(watch);
      w.removeAllListeners("message");
      w.removeAllListeners("error");
      w.removeAllListeners("exit");
      resolve({ result, replace });
    };
    let grace = null;
    const clock = setTimeout(() => {
      Atomics.store(interrupt, 0, 2); // SIGINT: a KeyboardInterrupt inside Python
      grace = setTimeout(() => finish({ status: "timed out", message: "" }, true), GRACE_MS);
    }, limits.seconds * 1000);
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - bootRss > limits.memory_mb * 2 ** 20) {
        finish({ status: "out of memory", message: "" }, true);
      }
    }, 100);
    w.on("message", (msg) => {
      const grown = msg.heap > limits.memory_mb * 2 ** 20 / 2;
      finish(msg.result, msg.fatal || grown);
    });
    w.on("error", (err) => finish({ status: "crashed", message: `the grading interpreter failed: ${err.message}` }, true));
    w.on("exit", () => finish({ status: "crashed", message: "the grading interpreter stopped" }, true));
    w.postMessage(job);
  });
}

try {
  await start();
} catch (err) {
  process.stderr.write(`could not start Pyodide: ${err.message}\n`);
  process.exit(2);
}
bootRss = process.memoryUsage.rss();
for (const job of jobs) {
  if (!worker) {
    try {
      await start();
    } catch (err) {
      process.stdout.write(`RESULT ${JSON.stringify({ status: "crashed", message: err.message })}\n`);
      continue;
    }
  }
  const { result, replace } = await runOne(job);
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  if (replace) await stop();
}
await stop();
process.exit(0);
