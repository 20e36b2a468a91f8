/**
 * Every curl and Node sample in the documentation runs against a real instance (the built app on a random port,
 * the built-in simulator engine, a funded key) and must exit 0. curl runs with --fail-with-body, so an HTTP error
 * fails the sample; Node samples run as .mjs files placed under the repository's node_modules so that
 * `import OpenAI from "openai"` resolves to the repo's copy of the SDK.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allSamples, type DocSample, extractSamples } from "./docs-samples-extract.ts";
import { seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const SCRATCH = path.join(REPO_ROOT, "node_modules", ".cache", "docs-samples");
const SAMPLE_TIMEOUT_MS = 60_000;

const { samples, skipped } = allSamples();

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
