/**
 * Pulls the code samples out of the documentation MDX files (apps/web/content/docs). A runnable sample is a
 * fenced block whose language is `bash` (a curl call) or `javascript` (a Node script using the openai SDK or
 * fetch). A fence with `skip-test` in its meta (```javascript skip-test) is a deliberate fragment and is left out.
 * `python` blocks are extracted on request: they cannot run here (see docs-samples.test.ts) and are checked
 * against their JavaScript twins instead.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const DOCS_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web/content/docs");

export type SampleLanguage = "bash" | "javascript" | "python";

export interface DocSample {
  /** Path relative to DOCS_ROOT, e.g. "en-US/api/chat.mdx". */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: SampleLanguage;
  code: string;
}

const RUNNABLE: readonly SampleLanguage[] = ["bash", "javascript"];

/** Fenced blocks of one MDX source. Fences are ``` or longer at the start of a line; the closing fence matches. */
export function extractSamples(
  source: string,
  file: string,
  languages: readonly SampleLanguage[] = RUNNABLE,
): { samples: DocSample[]; skipped: number } {
  const lines = source.split("\n");
  const samples: DocSample[] = [];
  let skipped = 0;
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(\S*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const language = open[2]!;
    const meta = open[3]!.split(/\s+/);
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !new RegExp(`^${fence}\\s*$`).test(lines[i]!); i++) body.push(lines[i]!);
    if (!languages.includes(language as SampleLanguage)) continue;
    if (meta.includes("skip-test")) {
      skipped++;
      continue;
    }
    samples.push({ file, line: start + 1, language: language as SampleLanguage, code: body.join("\n") });
  }
  return { samples, skipped };
}

function listDocFiles(root = DOCS_ROOT): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".mdx")) out.push(path.relative(root, full));
    }
  };
  walk(root);
  return out.sort();
}

export function allSamples(
  root = DOCS_ROOT,
  languages: readonly SampleLanguage[] = RUNNABLE,
): { samples: DocSample[]; skipped: number } {
  let skipped = 0;
  const samples: DocSample[] = [];
  for (const file of listDocFiles(root)) {
    const r = extractSamples(fs.readFileSync(path.join(root, file), "utf8"), file, languages);
    samples.push(...r.samples);
    skipped += r.skipped;
  }
  return { samples, skipped };
}
