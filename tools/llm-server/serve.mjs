// A small OpenAI-compatible server around node-llama-cpp, for tests and for trying a local model.
//
//   node tools/llm-server/serve.mjs --model build/models/SmolLM2-135M-Instruct.Q4_1.gguf [--port 0]
//
// node-llama-cpp ships a prebuilt llama.cpp for linux-x64 in npm, so nothing is compiled; it has
// no HTTP server of its own, hence this shim. It speaks only what the course's client sends:
// POST /v1/chat/completions (messages, max_tokens, temperature, response_format json_schema,
// which becomes a grammar the sampler must follow), GET /v1/models (with the CPU kernels in use),
// and CORS preflights (any
// origin, as llama.cpp's own llama-server does), so the course page can call it too.
// Requests are answered one at a time; a client that hangs up aborts its generation.
// When the model is loaded it prints one line: `listening http://127.0.0.1:PORT`.
import http from "node:http";
import path from "node:path";
import {getLlama, LlamaChatSession} from "node-llama-cpp";

const args = Object.fromEntries(process.argv.slice(2).join(" ").split("--").filter(Boolean)
  .map((part) => part.trim().split(/\s+/)));
const modelPath = path.resolve(args.model ?? "build/models/SmolLM2-135M-Instruct.Q4_1.gguf");
const host = args.host ?? "127.0.0.1";
// One thread by default: llama.cpp's threads spin while they wait for each other, and on a busy
// machine (CI, or 2 cores shared) two of them ran a schema reply 14x slower than one (123 s vs 8.8 s).
const threads = Number(args.threads ?? 1);

const llama = await getLlama({gpu: false, build: "never", progressLogs: false, logLevel: "error"});
const model = await llama.loadModel({modelPath});
const context = await model.createContext({contextSize: Number(args.context ?? 2048), threads});
const sequence = context.getSequence();
const grammars = new Map(); // schema text -> grammar: building one costs more than a short reply
const name = path.basename(modelPath, ".gguf");
// Which llama.cpp and which of its CPU kernels run here: llama.cpp loads the kernels built for the
// CPU's features (AVX2, AVX-512...), and greedy decoding is repeatable only on the same ones, so
// GET /v1/models tells (an extra field; OpenAI's clients ignore it) and a recording's label keeps it.
const kernels = {llama_cpp: `${llama.llamaCppRelease.repo} ${llama.llamaCppRelease.release}`,
  cpu: llama.systemInfo.replace(/\s*\|\s*$/, "").trim()};

async function grammarFor(schema) {
  const key = JSON.stringify(schema);
  if (!grammars.has(key)) grammars.set(key, await llama.createGrammarForJsonSchema(schema));
  return grammars.get(key);
}

async function complete(body, signal) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const text = (role) => messages.filter((m) => m.role === role).map((m) => String(m.content)).join("\n\n");
  const schema = body.response_format?.json_schema?.schema ?? body.response_format?.schema;
  await sequence.clearHistory(); // every request starts from nothing, as with a hosted API
  const session = new LlamaChatSession({contextSequence: sequence, systemPrompt: text("system") || undefined});
  try {
    const prompt = text("user");
    const answer = await session.prompt(prompt, {
      maxTokens: Number(body.max_tokens ?? 256), temperature: Number(body.temperature ?? 0),
      grammar: schema ? await grammarFor(schema) : undefined, signal, stopOnAbortSignal: true,
    });
    return {
      id: `chatcmpl-${Date.now()}`, object: "chat.completion", model: body.model ?? name,
      choices: [{index: 0, message: {role: "assistant", content: answer}, finish_reason: "stop"}],
      usage: {prompt_tokens: model.tokenize(prompt).length, completion_tokens: model.tokenize(answer).length},
    };
  } finally {
    session.dispose({disposeSequence: false});
  }
}

function send(req, res, status, payload) {
  const data = JSON.stringify(payload);
  res.writeHead(status, {"Content-Type": "application/json", "Content-Length": Buffer.byteLength(data), ...cors(req)});
  res.end(data);
}

function cors(req) {
  return {"Access-Control-Allow-Origin": req.headers.origin ?? "*", "Access-Control-Allow-Headers": "*",
          "Access-Control-Allow-Methods": "GET, POST, OPTIONS", "Access-Control-Allow-Private-Network": "true"};
}

let queue = Promise.resolve(); // one generation at a time: the model has one sequence
const server = http.createServer((req, res) => {
  if (req.method === "OPTIONS") {
    res.writeHead(204, cors(req));
    return res.end();
  }
  if (req.method === "GET" && req.url.endsWith("/v1/models")) {
    return send(req, res, 200, {object: "list", data: [{id: name, object: "model", kernels}]});
  }
  if (req.method !== "POST" || !req.url.endsWith("/v1/chat/completions")) {
    return send(req, res, 404, {error: {message: `no ${req.method} ${req.url} here; POST /v1/chat/completions`}});
  }
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return send(req, res, 400, {error: {message: "the request body is not JSON"}});
    }
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    queue = queue.then(async () => {
      if (abort.signal.aborted) return;
      try {
        send(req, res, 200, await complete(body, abort.signal));
      } catch (err) {
        if (!res.headersSent && !abort.signal.aborted) send(req, res, 500, {error: {message: String(err?.message ?? err)}});
      }
    });
  });
});

server.listen(Number(args.port ?? 0), host, () => {
  console.log(`listening http://${host}:${server.address().port}`);
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));
