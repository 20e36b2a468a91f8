import type { ApiKeyRow } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../http/errors.ts";
import { getOrgAccess } from "../orgs/access.ts";
import { invalidateKeys } from "./invalidate-keys.ts";
import { getVisibleKey } from "./key-access.ts";

/**
 * Renames, enables or disables a key the caller can see, or deletes it (soft: the row stays for bills, the key
 * stops working). Keys of archived projects are read-only.
 */
export async function updateApiKey(opts: {
  ctx: AppContext;
  userId: string;
  orgId: string;
  keyId: string;
  change: { name?: string; status?: "enabled" | "disabled" } | "delete";
}): Promise<ApiKeyRow | null> {
  const result = await opts.ctx.db.transaction(async (tx) => {
    const access = await getOrgAccess(tx, opts);
    const key = await getVisibleKey(tx, access, opts.keyId);
    if (key.project.status !== "active") throw new AppError("project_archived");
    if (opts.change === "delete") {
      await tx
        .update(schema.apiKeys)
        .set({ status: "disabled", deletedAt: new Date() })
        .where(eq(schema.apiKeys.id, opts.keyId));
      return null;
    }
    const { name, status } = opts.change;
    await tx
      .update(schema.apiKeys)
      .set({ ...(name !== undefined ? { name } : {}), ...(status !== undefined ? { status } : {}) })
      .where(eq(schema.apiKeys.id, opts.keyId));
    return getVisibleKey(tx, access, opts.keyId);
  });
  await invalidateKeys(opts.ctx, { orgId: opts.orgId, keyIds: [opts.keyId] });
  return result;
}
