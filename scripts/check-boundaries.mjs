#!/usr/bin/env node
/**
 * `npm run check:boundaries`: the import rules of .dependency-cruiser.cjs over apps/ and packages/.
 * Fails on any violation that is not a listed known one, and on a known one that no longer occurs (so the
 * allow-list shrinks as the branches that fix them land, instead of silently hiding a future regression).
 *
 * Then it proves the rules still bite: scripts/boundary-probes/ mirrors the repository's paths with files that each
 * commit one forbidden import (`// expect: <rule>` on their first line). They are copied, with the code they
 * import, into a temporary directory and cruised there (never in the repository, so neither the main cruise nor
 * typecheck nor knip sees them). The check fails unless every probe trips its rule and every rule has a probe.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const config = require(path.join(root, ".dependency-cruiser.cjs"));
const bin = path.join(root, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");

function cruise(cwd, targets) {
  let output;
  try {
    output = execFileSync(
      process.execPath,
      [bin, ...targets, "--config", ".dependency-cruiser.cjs", "--output-type", "json"],
      {
        cwd,
        encoding: "utf8",
        maxBuffer: 256 * 1024 * 1024,
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
  } catch (e) {
    // depcruise exits non-zero when it finds errors; its JSON is still on stdout.
    output = e.stdout;
    if (!output) throw e;
  }
  return JSON.parse(output).summary;
}

/** Rule names whose probe did not trip them (or that have no probe), and probes that name no rule. */
function checkProbes() {
  const probeRoot = path.join(root, "scripts", "boundary-probes");
  const probes = fs
    .readdirSync(probeRoot, { recursive: true })
    .filter((f) => /\.(ts|tsx)$/.test(f))
    .map((f) => {
      const rel = f.split(path.sep).join("/");
      const expect = fs.readFileSync(path.join(probeRoot, f), "utf8").match(/^\/\/ expect: ([a-z0-9-]+)/)?.[1];
      return { rel, expect };
    });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "boundary-probes-"));
  try {
    // What the probes import, at the same relative paths, and the resolver's inputs.
    for (const dir of ["apps/server/src", "apps/server/test", "apps/web/src", "packages/contracts", "packages/db"]) {
      fs.cpSync(path.join(root, dir), path.join(tmp, dir), {
        recursive: true,
        filter: (src) => !src.includes(`${path.sep}node_modules`) && !src.includes(`${path.sep}migrations`),
      });
    }
    for (const f of [".dependency-cruiser.cjs", "tsconfig.base.json", "package.json"]) {
      fs.copyFileSync(path.join(root, f), path.join(tmp, f));
    }
    // The workspace packages resolve to the copies above, everything else to the real node_modules.
    fs.mkdirSync(path.join(tmp, "node_modules", "@moonport"), { recursive: true });
    for (const name of fs.readdirSync(path.join(root, "node_modules"))) {
      if (name === "@moonport") continue;
      fs.symlinkSync(path.join(root, "node_modules", name), path.join(tmp, "node_modules", name));
    }
    fs.symlinkSync(path.join(tmp, "packages", "contracts"), path.join(tmp, "node_modules", "@moonport", "contracts"));
    fs.symlinkSync(path.join(tmp, "packages", "db"), path.join(tmp, "node_modules", "@moonport", "db"));
    for (const p of probes) {
      fs.mkdirSync(path.dirname(path.join(tmp, p.rel)), { recursive: true });
      fs.copyFileSync(path.join(probeRoot, p.rel), path.join(tmp, p.rel));
    }
    const { violations } = cruise(
      tmp,
      probes.map((p) => p.rel),
    );
    // A cycle is reported once, from one of its files: each file of a cycle counts as tripping it.
    const tripped = new Set(
      violations.flatMap((v) => [v.from, ...(v.cycle ?? []).map((c) => c.name ?? c)].map((f) => `${v.rule.name} ${f}`)),
    );
    const problems = [];
    for (const p of probes) {
      if (!p.expect) problems.push(`${p.rel} has no "// expect: <rule>" first line`);
      else if (!tripped.has(`${p.expect} ${p.rel}`))
        problems.push(`rule ${p.expect} did not fire on its probe ${p.rel}`);
    }
    const probed = new Set(probes.map((p) => p.expect));
    for (const r of config.forbidden) {
      if (!probed.has(r.name)) problems.push(`rule ${r.name} has no probe in scripts/boundary-probes/`);
    }
    return { problems, count: probes.length };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const summary = cruise(root, ["apps", "packages"]);
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

const probes = checkProbes();
for (const p of probes.problems) console.error(`✖ ${p}`);

const cruised = `${summary.totalCruised} modules, ${summary.totalDependenciesCruised} imports`;
if (failures.length || stale.length || probes.problems.length) {
  console.error(
    `\nimport boundaries: ${failures.length} violation(s), ${stale.length} stale allow-list entr(y/ies), ` +
      `${probes.problems.length} probe failure(s) (${cruised})`,
  );
  process.exit(1);
}
console.log(
  `import boundaries: no violations (${cruised}; ${known.length} known, listed in .dependency-cruiser.cjs); ` +
    `every rule fired on its probe (${probes.count} probes)`,
);
