/**
 * Python documentation samples cannot run here: the Python `openai` client is not packaged by Debian 12 and PyPI
 * is out of reach. Each one instead must have a twin: a JavaScript sample of the same page, run against the
 * simulator by docs-samples.test.ts, that calls the same endpoints with the same models and uses every request
 * option the Python sample uses (with the same values). A Python sample may be a simplified twin (the JavaScript
 * one may do more), never a sample that asks the API something no tested sample asks. `requestShape` reduces a
 * sample of either language to what it asks the API.
 */
import type { DocSample } from "./docs-samples-extract.ts";

interface RequestShape {
  /** Endpoints called, e.g. "chat.completions", "/users/me/balance". Empty: the sample only builds a client. */
  endpoints: string[];
  models: string[];
  /** Request and client options that change what the API is asked, with their values where they matter. */
  options: string[];
}

const MODEL = /["'`]((?:moonshot|kimi)-[a-z0-9.-]+)["'`]/g;

interface OptionPattern {
  name: string;
  python: RegExp;
  javascript: RegExp;
  /** Matched only inside the arguments of API calls and client constructors (not, say, in a tool's result). */
  inCall?: boolean;
  scale?: { python?: number; javascript?: number };
}

/** One pattern per language for each option; the value group, when present, is part of the option. */
const OPTIONS: OptionPattern[] = [
  { name: "stream", python: /\bstream\s*=\s*True\b/, javascript: /\bstream:\s*true\b/ },
  { name: "json mode", python: /"type":\s*"json_object"/, javascript: /type:\s*"json_object"/ },
  { name: "partial", python: /"partial":\s*True\b/, javascript: /\bpartial:\s*true\b/ },
  { name: "assistant name", python: /"role":\s*"assistant",\s*"name":/, javascript: /role:\s*"assistant",\s*name:/ },
  { name: "function tools", python: /"type":\s*"function"/, javascript: /type:\s*"function"/ },
  { name: "$web_search", python: /"\$web_search"/, javascript: /"\$web_search"/ },
  { name: "tool results", python: /"role":\s*"tool"/, javascript: /role:\s*"tool"/ },
  { name: "image input", python: /"type":\s*"image_url"/, javascript: /type:\s*"image_url"/ },
  { name: "reasoning_content", python: /\breasoning_content\b/, javascript: /\breasoning_content\b/ },
  {
    name: "temperature",
    python: /\btemperature\s*=\s*([\d.]+)/,
    javascript: /\btemperature:\s*([\d.]+)/,
    inCall: true,
  },
  { name: "max_tokens", python: /\bmax_tokens\s*=\s*([\d_]+)/, javascript: /\bmax_tokens:\s*([\d_]+)/, inCall: true },
  { name: "stop", python: /\bstop\s*=/, javascript: /\bstop:/, inCall: true },
  { name: "retries", python: /\bmax_retries\s*=\s*(\d+)/, javascript: /\bmaxRetries:\s*(\d+)/, inCall: true },
  // Python's timeout is in seconds, the Node SDK's in milliseconds.
  {
    name: "timeout s",
    python: /\btimeout\s*=\s*([\d.]+)/,
    javascript: /\btimeout:\s*([\d_]+)/,
    inCall: true,
    scale: { javascript: 1 / 1000 },
  },
];

/**
 * The argument text of every API call and client constructor in `code` (`.create(…)`, `OpenAI(…)`, `httpx.post(…)`,
 * `fetch(…)`), found by matching brackets outside string literals.
 */
function callArguments(code: string): string {
  const parts: string[] = [];
  for (const m of code.matchAll(/(?:\.create|\bOpenAI|\bhttpx\.(?:get|post)|\bfetch)\(/g)) {
    let depth = 0;
    let quote = "";
    for (let i = m.index + m[0].length - 1; i < code.length; i++) {
      const c = code[i]!;
      if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = "";
        continue;
      }
      if (c === '"' || c === "'" || c === "`") quote = c;
      else if (c === "(" || c === "[" || c === "{") depth++;
      else if (c === ")" || c === "]" || c === "}") {
        depth--;
        if (depth === 0) {
          parts.push(code.slice(m.index, i + 1));
          break;
        }
      }
    }
  }
  return parts.join("\n");
}

export function requestShape(sample: Pick<DocSample, "language" | "code">): RequestShape {
  const { code } = sample;
  const lang = sample.language === "python" ? "python" : "javascript";
  const calls = callArguments(code);
  const endpoints: string[] = [];
  if (/\.chat\.completions\.create\(/.test(code)) endpoints.push("chat.completions");
  for (const path of ["/tokenizers/estimate-token-count", "/users/me/balance", "/models"]) {
    if (code.includes(`{{API_BASE_URL}}${path}`)) endpoints.push(path);
  }
  const models = [...new Set([...code.matchAll(MODEL)].map((m) => m[1]!))].sort();
  const options: string[] = [];
  for (const o of OPTIONS) {
    const m = o[lang].exec(o.inCall ? calls : code);
    if (!m) continue;
    if (m[1] === undefined) {
      options.push(o.name);
      continue;
    }
    const value = Number(m[1].replaceAll("_", "")) * (o.scale?.[lang] ?? 1);
    options.push(`${o.name}=${value}`);
  }
  return { endpoints, models, options };
}

/** What `python` asks the API that `js` does not (empty: `js` covers it). */
function uncovered(python: RequestShape, js: RequestShape): string[] {
  const missing = (kind: string, a: string[], b: string[]) =>
    a.filter((x) => !b.includes(x)).map((x) => `${kind} ${x}`);
  return [
    ...missing("endpoint", python.endpoints, js.endpoints),
    ...missing("model", python.models, js.models),
    ...missing("option", python.options, js.options),
  ];
}

type TwinResult =
  | { kind: "twin"; twin: DocSample }
  /** Builds a client with no option beyond key and base URL and calls nothing (e.g. aimed at a local proxy). */
  | { kind: "client-only" }
  | { kind: "none"; shape: RequestShape; candidates: { sample: DocSample; uncovered: string[] }[] };

/** The first tested JavaScript sample of the same page (same file, same locale) that covers the Python sample. */
export function findTwin(python: DocSample, tested: DocSample[]): TwinResult {
  const shape = requestShape(python);
  if (shape.endpoints.length === 0 && shape.options.length === 0) return { kind: "client-only" };
  const candidates = tested
    .filter((s) => s.file === python.file && s.language === "javascript")
    .map((sample) => ({ sample, uncovered: uncovered(shape, requestShape(sample)) }));
  const twin = candidates.find((c) => c.uncovered.length === 0);
  return twin ? { kind: "twin", twin: twin.sample } : { kind: "none", shape, candidates };
}
