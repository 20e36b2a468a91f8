#!/usr/bin/env node
/**
 * `npm run check:boundaries`: the import rules of .dependency-cruiser.cjs over apps/ and packages/.
 * Fails on any violation that is not a listed known one, and on a known one that no longer occurs (so the
 * allow-list shrinks as the branches that fix them land, instead of silently hiding a future regression).
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const config = require(path.join(root, ".dependency-cruiser.cjs"));
const bin = path.join(root, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");

let output;
try {
  output = execFileSync(
    process.execPath,
    [bin, "apps", "packages", "--config", ".dependency-cruiser.cjs", "--output-type", "json"],
    { cwd: root, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, stdio: ["ignore", "pipe", "inherit"] },
  );
} catch (e) {
  // depcruise exits non-zero when it finds errors; its JSON is still on stdout.
  output = e.stdout;
  if (!output) throw e;
}
const { summary } = JSON.parse(output);
const comments = new Map(config.forbidden.map((r) => [r.name, r.comment]));

const failures = summary.violations.filter((v) => v.rule.severity === "error" || v.rule.severity === "warn");
for (const v of failures) {
  console.error(`✖ ${v.rule.name}: ${v.from} → ${v.to}`);
  console.error(`  ${comments.get(v.rule.name) ?? ""}`);
}

const known = summary.violations.filter((v) => v.rule.severity === "ignore");
const key = (v) => `${v.rule.name} ${v.from} ${v.to}`;
const present = new Set(known.map(key));
const stale = config.options.knownViolations.filter((k) => !present.has(key(k)));
for (const k of stale) {
  console.error(`✖ known violation no longer occurs, delete it from .dependency-cruiser.cjs: ${k.from} → ${k.to}`);
}

const cruised = `${summary.totalCruised} modules, ${summary.totalDependenciesCruised} imports`;
if (failures.length || stale.length) {
  console.error(
    `\nimport boundaries: ${failures.length} violation(s), ${stale.length} stale allow-list entr(y/ies) (${cruised})`,
  );
  process.exit(1);
}
console.log(`import boundaries: no violations (${cruised}; ${known.length} known, listed in .dependency-cruiser.cjs)`);
