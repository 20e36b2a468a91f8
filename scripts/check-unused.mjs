#!/usr/bin/env node
/**
 * `npm run check:unused`: knip's findings (unused files, dependencies, exports and types…) against a baseline.
 * scripts/knip-baseline.json lists the unused exports and types that existed when the check was switched on; it
 * can only shrink. The check fails on any finding not in it (new dead code, or any unused file or dependency,
 * which are never baselined) and on a baseline entry that knip no longer reports (delete it: `--update` rewrites
 * the file, after which `git diff` must show only removals).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const baselineFile = path.join(root, "scripts", "knip-baseline.json");
const BASELINED = new Set(["exports", "types"]);

let output;
try {
  output = execFileSync(
    process.execPath,
    [path.join(root, "node_modules", "knip", "bin", "knip.js"), "--no-progress", "--reporter", "json"],
    {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
} catch (e) {
  // knip exits non-zero when it finds anything; its JSON is still on stdout.
  output = e.stdout;
  if (!output) throw e;
}
const report = JSON.parse(output);
const found = [];
for (const file of report.files ?? []) found.push(`files ${file}`);
for (const issue of report.issues) {
  for (const [kind, entries] of Object.entries(issue)) {
    if (!Array.isArray(entries)) continue;
    for (const e of entries) found.push(`${kind} ${issue.file} ${e.name ?? JSON.stringify(e)}`);
  }
}
found.sort();

if (process.argv.includes("--update")) {
  fs.writeFileSync(
    baselineFile,
    `${JSON.stringify(
      found.filter((f) => BASELINED.has(f.split(" ")[0])),
      null,
      2,
    )}\n`,
  );
  console.log(`check:unused: wrote ${baselineFile}`);
  process.exit(0);
}

const baseline = new Set(JSON.parse(fs.readFileSync(baselineFile, "utf8")));
const present = new Set(found);
const fresh = found.filter((f) => !baseline.has(f) || !BASELINED.has(f.split(" ")[0]));
const stale = [...baseline].filter((b) => !present.has(b));
for (const f of fresh) console.error(`✖ unused: ${f}`);
for (const s of stale) console.error(`✖ no longer reported, delete it from scripts/knip-baseline.json: ${s}`);
if (fresh.length || stale.length) {
  console.error(`\nunused code: ${fresh.length} new finding(s), ${stale.length} stale baseline entr(y/ies)`);
  process.exit(1);
}
console.log(`unused code: nothing new (${baseline.size} known, listed in scripts/knip-baseline.json)`);
