import type { RateLimitOverride } from "@moonport/contracts";
import { type Db, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { AppError } from "../../lib/app-error.ts";
import { recordOperatorAction } from "../admin/index.ts";

/**
 * Grants an organization limits above its tier (or, with `override: null`, returns it to the tier tables).
 * Gateways pick the change up with their next refresh of the organization (within a second). Operator only:
 * the caller checks that.
 */
export async function setOrgRateLimits(opts: {
  db: Db;
  orgId: string;
  override: RateLimitOverride | null;
  /** Who did it, for the audit log (the CLI passes "cli:set-org-limits"). */
  actor: string;
}): Promise<void> {
  const o = opts.override;
  if (o) {
    for (const [name, value] of Object.entries(o)) {
      if (name === "tpd" && value === null) continue;
      if (!Number.isSafeInteger(value) || (value as number) < 1) throw new AppError("bad_request");
    }
  }
  const next = o && Object.keys(o).length ? o : null;
  await opts.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ rateLimitOverride: schema.organizations.rateLimitOverride })
      .from(schema.organizations)
      .where(eq(schema.organizations.id, opts.orgId))
      .for("update");
    if (!before) throw new AppError("not_found");
    await tx
      .update(schema.organizations)
      .set({ rateLimitOverride: next })
      .where(eq(schema.organizations.id, opts.orgId));
    await recordOperatorAction(tx, {
      actor: opts.actor,
      action: "org.set_limits",
      target: opts.orgId,
      before,
      after: { rateLimitOverride: next },
    });
  });
}
