/**
 * Every curl and Node sample in the documentation runs against a real instance (the built app on a random port,
 * the built-in simulator engine, a funded key) and must exit 0. curl runs with --fail-with-body, so an HTTP error
 * fails the sample; Node samples run as .mjs files placed under the repository's node_modules so that
 * `import OpenAI from "openai"` resolves to the repo's copy of the SDK.
 *
 * Python samples cannot run: Debian 12 packages no Python `openai` client (`apt-cache policy python3-openai`
 * finds none) and PyPI is out of reach. Each is byte-compiled with python3 and must have a tested JavaScript
 * twin on its page asking the API the same thing (docs-samples-twins.ts).
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allSamples, type DocSample, extractSamples } from "./docs-samples-extract.ts";
import { findTwin, requestShape } from "./docs-samples-twins.ts";
import { seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const SCRATCH = path.join(REPO_ROOT, "node_modules", ".cache", "docs-samples");
const SAMPLE_TIMEOUT_MS = 60_000;

const { samples, skipped } = allSamples();
const { samples: pythonSamples, skipped: pythonSkipped } = allSamples(undefined, ["python"]);

let t: TestApp;
let baseUrl: string;
let apiKey: string;

function run(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Async on purpose: the server under test lives in this process and must keep answering.
    const child = spawn(command, args, { env: { ...process.env, ...env }, cwd: REPO_ROOT });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), SAMPLE_TIMEOUT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function runSample(sample: DocSample) {
  const code = sample.code.replaceAll("{{API_BASE_URL}}", baseUrl);
  const env = { MOONPORT_API_KEY: apiKey };
  if (sample.language === "bash") {
    // Plain curl exits 0 on HTTP errors; the samples must really succeed.
    const prelude = 'curl() { command curl --fail-with-body --silent --show-error --max-time 60 "$@"; }\n';
    return run("bash", ["-e", "-o", "pipefail", "-c", prelude + code], env);
  }
  const name = `${createHash("sha256").update(`${sample.file}:${sample.line}`).digest("hex").slice(0, 16)}.mjs`;
  const file = path.join(SCRATCH, name);
  fs.writeFileSync(file, code);
  try {
    return await run(process.execPath, [file], env);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

beforeAll(async () => {
  fs.mkdirSync(SCRATCH, { recursive: true });
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
  // Global edition (USD), a real balance through the ledger, and the top tier so ~100 samples in a row stay
  // inside RPM.
  apiKey = (await seedAccount(t.ctx, { edition: "global", cash: "1000", tierOverride: 5 })).key;
});
afterAll(() => t?.close());

describe("documentation sample extraction", () => {
  it("finds curl and Node samples in both locales and keeps skip-test fragments rare", () => {
    expect(samples.filter((s) => s.file.startsWith("en-US/")).length).toBeGreaterThan(20);
    expect(samples.filter((s) => s.file.startsWith("zh-CN/")).length).toBeGreaterThan(20);
    expect(skipped).toBeLessThanOrEqual(samples.length / 10);
  });

  it("reads fences exactly and leaves out blocks marked skip-test", () => {
    const src = [
      "text",
      "```bash",
      "curl {{API_BASE_URL}}/models",
      "```",
      "```javascript skip-test",
      "client.chat(…)",
      "```",
      "````javascript",
      'const fence = "```";',
      "```",
      "console.log(1);",
      "````",
      "```python",
      "print(1)",
      "```",
    ].join("\n");
    const { samples: found, skipped: left } = extractSamples(src, "x.mdx");
    expect(left).toBe(1);
    expect(found.map((s) => [s.language, s.line])).toEqual([
      ["bash", 2],
      ["javascript", 8],
    ]);
    expect(found[1]!.code).toBe('const fence = "```";\n```\nconsole.log(1);');
  });

  it("uses bash fences only for curl calls to the API base URL (other shell commands use `shell`)", () => {
    const offenders = samples
      .filter((s) => s.language === "bash" && !(s.code.includes("curl ") && s.code.includes("{{API_BASE_URL}}")))
      .map((s) => `${s.file}:${s.line}`);
    expect(offenders).toEqual([]);
  });
});

describe("documentation samples run against the simulator", () => {
  it.each(samples.map((s) => [`${s.file}:${s.line} (${s.language})`, s] as const))(
    "%s exits 0",
    async (_name, sample) => {
      const result = await runSample(sample);
      expect(result.code, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
    },
    SAMPLE_TIMEOUT_MS + 5_000,
  );
});

describe("the file Q&A guide works end to end", () => {
  // Upload, extraction, content and the simulator's answer from the document: the answer quotes the passage.
  it.each([
    ["en-US", "Hotel costs are reimbursed up to 150 per night in large cities."],
    ["zh-CN", "在大城市出差，住宿费每晚最多报销 150 元。"],
  ])(
    "%s guide sample answers from the uploaded document",
    async (locale, passage) => {
      const sample = samples.find(
        (s) => s.file === `${locale}/guide/use-kimi-api-for-file-based-qa.mdx` && s.language === "javascript",
      );
      expect(sample).toBeDefined();
      const result = await runSample(sample!);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(passage);
    },
    SAMPLE_TIMEOUT_MS,
  );
});

describe("Python documentation samples", () => {
  const label = (s: DocSample) => `${s.file}:${s.line}`;
  /** Syntax errors by sample, from one python3 run over all of them (empty when every sample compiles). */
  let compileErrors: Record<string, string>;

  beforeAll(() => {
    const dir = fs.mkdtempSync(path.join(SCRATCH, "python-"));
    try {
      const files = pythonSamples.map((s, i) => {
        const file = path.join(dir, `sample_${i}.py`);
        fs.writeFileSync(file, s.code);
        return file;
      });
      const script = [
        "import json, py_compile, sys",
        "errors = {}",
        "for i, f in enumerate(sys.argv[1:]):",
        "    try:",
        "        py_compile.compile(f, cfile=f + 'c', doraise=True)",
        "    except py_compile.PyCompileError as e:",
        "        errors[i] = e.msg",
        "print(json.dumps(errors))",
      ].join("\n");
      let out: string;
      try {
        out = execFileSync("python3", ["-c", script, ...files], { encoding: "utf8" });
      } catch (e) {
        throw new Error(`python3 is needed to byte-compile the Python samples (apt-get install python3): ${e}`);
      }
      const byIndex = JSON.parse(out) as Record<string, string>;
      compileErrors = Object.fromEntries(Object.entries(byIndex).map(([i, msg]) => [label(pythonSamples[+i]!), msg]));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("finds the Python samples of both locales, none marked skip-test", () => {
    expect(pythonSamples.filter((s) => s.file.startsWith("en-US/")).length).toBeGreaterThan(15);
    expect(pythonSamples.filter((s) => s.file.startsWith("zh-CN/")).length).toBeGreaterThan(15);
    expect(pythonSkipped).toBe(0);
  });

  it.each(pythonSamples.map((s) => [label(s), s] as const))("%s byte-compiles", (name) => {
    expect(compileErrors[name]).toBeUndefined();
  });

  it.each(pythonSamples.map((s) => [label(s), s] as const))(
    "%s mirrors a tested JavaScript sample of its page",
    (_name, sample) => {
      const result = findTwin(sample, samples);
      const detail =
        result.kind === "none"
          ? `asks ${JSON.stringify(result.shape)}; not covered by:\n${result.candidates
              .map((c) => `  ${label(c.sample)}: ${c.uncovered.join(", ")}`)
              .join("\n")}`
          : "";
      expect(result.kind, detail).not.toBe("none");
    },
  );

  it("tells a covered Python sample from one that asks for more than its page's JavaScript", () => {
    const js = (code: string): DocSample => ({ file: "p.mdx", line: 1, language: "javascript", code });
    const py = (code: string): DocSample => ({ file: "p.mdx", line: 9, language: "python", code });
    const jsStream = js(
      'await client.chat.completions.create({ model: "moonshot-v1-8k", messages, stream: true, temperature: 0.3 });',
    );
    expect(requestShape(jsStream)).toEqual({
      endpoints: ["chat.completions"],
      models: ["moonshot-v1-8k"],
      options: ["stream", "temperature=0.3"],
    });
    // A simplified twin (no temperature) is covered; another model, another option or another value is not.
    const covered = py('client.chat.completions.create(model="moonshot-v1-8k", messages=m, stream=True)');
    expect(findTwin(covered, [jsStream])).toEqual({ kind: "twin", twin: jsStream });
    for (const code of [
      'client.chat.completions.create(model="moonshot-v1-32k", messages=m, stream=True)',
      'client.chat.completions.create(model="moonshot-v1-8k", messages=m, stream=True, max_tokens=10)',
      'client.chat.completions.create(model="moonshot-v1-8k", messages=m, stream=True, temperature=0.9)',
      'httpx.get("{{API_BASE_URL}}/users/me/balance")',
    ]) {
      expect(findTwin(py(code), [jsStream]).kind, code).toBe("none");
    }
    // A twin must be on the same page.
    expect(findTwin({ ...covered, file: "other.mdx" }, [jsStream]).kind).toBe("none");
    // Client options count too: Python seconds against Node milliseconds.
    const jsClient = js('new OpenAI({ baseURL: "{{API_BASE_URL}}", maxRetries: 4, timeout: 120_000 });');
    expect(findTwin(py('OpenAI(base_url="{{API_BASE_URL}}", max_retries=4, timeout=120.0)'), [jsClient]).kind).toBe(
      "twin",
    );
    expect(findTwin(py('OpenAI(base_url="{{API_BASE_URL}}", max_retries=4, timeout=60.0)'), [jsClient]).kind).toBe(
      "none",
    );
    expect(findTwin(py('OpenAI(base_url="http://127.0.0.1:9988/v1")'), []).kind).toBe("client-only");
  });
});
