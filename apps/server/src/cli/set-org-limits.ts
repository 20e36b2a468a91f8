import type { RateLimitOverride } from "@moonport/contracts";
import { AppError } from "../lib/app-error.ts";
import { setOrgRateLimits } from "../modules/orgs/index.ts";
import type { CliCommand } from "./command.ts";

const USAGE =
  "Usage: npm run moonport -- set-org-limits <org-id> [--concurrency N] [--rpm N] [--tpm N] [--tpd N|unlimited] | --clear";

export const setOrgLimitsCommand: CliCommand = {
  name: "set-org-limits",
  summary: "Grant an organization rate limits above its tier (or --clear to return to the tier)",
  async run({ db, args, print }) {
    const [orgId, ...rest] = args;
    if (!orgId || orgId.startsWith("--")) {
      print(USAGE);
      return 2;
    }
    let override: RateLimitOverride | null = {};
    for (let i = 0; i < rest.length; i++) {
      const [flag, inline] = rest[i]!.split("=", 2) as [string, string | undefined];
      if (flag === "--clear") {
        override = null;
        continue;
      }
      const name = flag.replace(/^--/, "");
      if (!["concurrency", "rpm", "tpm", "tpd"].includes(name) || !flag.startsWith("--")) {
        print(`unknown option ${flag}\n${USAGE}`);
        return 2;
      }
      const value = inline ?? rest[++i];
      if (name === "tpd" && value === "unlimited") {
        if (override) override.tpd = null;
        continue;
      }
      const n = Number(value);
      if (!/^\d+$/.test(value ?? "") || !Number.isSafeInteger(n) || n < 1) {
        print(`--${name} needs a whole number of at least 1, got ${JSON.stringify(value ?? "")}\n${USAGE}`);
        return 2;
      }
      if (override) (override as Record<string, number>)[name] = n;
    }
    if (override && Object.keys(override).length === 0) {
      print(USAGE);
      return 2;
    }
    try {
      await setOrgRateLimits({ db, orgId, override, actor: "cli:set-org-limits" });
    } catch (e) {
      if (e instanceof AppError && e.code === "not_found") {
        print(`No organization ${orgId}.`);
        return 1;
      }
      throw e;
    }
    print(
      override
        ? `Rate limits of ${orgId}: ${JSON.stringify(override)} (on top of its tier).`
        : `${orgId} follows its tier again.`,
    );
    return 0;
  },
};
