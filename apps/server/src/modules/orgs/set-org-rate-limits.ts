import type { RateLimitOverride } from "@moonport/contracts";
import { type Db, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { AppError } from "../../lib/app-error.ts";

/**
 * Grants an organization limits above its tier (or, with `override: null`, returns it to the tier tables).
 * Gateways pick the change up with their next refresh of the organization (within a second). Operator only:
 * the caller checks that.
 */
export async function setOrgRateLimits(opts: {
  db: Db;
  orgId: string;
  override: RateLimitOverride | null;
}): Promise<void> {
  const o = opts.override;
  if (o) {
    for (const [name, value] of Object.entries(o)) {
      if (name === "tpd" && value === null) continue;
      if (!Number.isSafeInteger(value) || (value as number) < 1) throw new AppError("bad_request");
    }
  }
  const rows = await opts.db
    .update(schema.organizations)
    .set({ rateLimitOverride: o && Object.keys(o).length ? o : null })
    .where(eq(schema.organizations.id, opts.orgId))
    .returning({ id: schema.organizations.id });
  if (!rows[0]) throw new AppError("not_found");
}
