/**
 * The benchmark's stand-in for a model server: an OpenAI-compatible /v1/chat/completions that answers at once,
 * as one JSON body or as a short SSE stream (8 content chunks, a final chunk with usage, [DONE]).
 * With `--hold-ms=<ms>` every stream is spread over that long (one chunk every HOLD_INTERVAL_MS): the held-streams
 * mode of bench/gateway.ts.
 * Usage: node --import tsx bench/mock-upstream.ts <port> [--hold-ms=<ms>]
 */
import http from "node:http";

const port = Number(process.argv[2] ?? 3403);
const holdMs = Number(process.argv.find((a) => a.startsWith("--hold-ms="))?.split("=")[1] ?? 0);
const HOLD_INTERVAL_MS = 2000;
const WORDS = ["The ", "quick ", "brown ", "fox ", "jumps ", "over ", "the ", "dog."];
const usage = { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 };
const json = JSON.stringify({
  id: "chatcmpl-mock",
  object: "chat.completion",
  created: 1,
  model: "mock",
  choices: [{ index: 0, message: { role: "assistant", content: WORDS.join("") }, finish_reason: "stop" }],
  usage,
});
const chunk = (delta: object, finish: string | null, u?: object) =>
  `data: ${JSON.stringify({ id: "chatcmpl-mock", object: "chat.completion.chunk", created: 1, model: "mock", choices: [{ index: 0, delta, finish_reason: finish, ...(u ? { usage: u } : {}) }] })}\n\n`;
const sse =
  chunk({ role: "assistant", content: "" }, null) +
  WORDS.map((w) => chunk({ content: w }, null)).join("") +
  chunk({}, "stop", usage) +
  "data: [DONE]\n\n";

const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => {
    body += c;
  });
  req.on("end", () => {
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    if (body.includes('"stream":true')) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const parts = sse.split(/(?<=\n\n)/);
      if (holdMs > 0) {
        // A slow model: the content chunks spread over holdMs, the last ones at the end.
        let i = 0;
        const started = Date.now();
        res.write(parts[i++]);
        const timer = setInterval(() => {
          if (Date.now() - started < holdMs && i < parts.length - 2) res.write(parts[i++]);
          else if (Date.now() - started >= holdMs) {
            clearInterval(timer);
            while (i < parts.length) res.write(parts[i++]);
            res.end();
          } else res.write(": keep-alive\n\n");
        }, HOLD_INTERVAL_MS);
        res.on("close", () => clearInterval(timer));
        return;
      }
      // Written chunk by chunk, as a model server does.
      for (const part of parts) res.write(part);
      res.end();
    } else {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
      res.end(json);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ ready: true, port })}\n`));
