import { type Db, schema, type Tx } from "@moonport/db";
import { and, eq, isNull } from "drizzle-orm";

/** Whose keys: a project's, a user's in an organization, or a user's in one project. */
export type KeySelector = { orgId: string } & ({ projectId: string; createdBy?: string } | { createdBy: string });

/**
 * Disables every live key the selector names: the key writes of archiving a project and of removing someone from
 * an organization or a project. Runs inside the caller's transaction; once it has committed, the caller tells
 * the gateway with `invalidateKeys` (same selector). Permission checks: caller.
 */
export async function disableApiKeys(opts: { db: Db | Tx } & KeySelector): Promise<void> {
  const where = [eq(schema.apiKeys.orgId, opts.orgId), isNull(schema.apiKeys.deletedAt)];
  if ("projectId" in opts) where.push(eq(schema.apiKeys.projectId, opts.projectId));
  if (opts.createdBy !== undefined) where.push(eq(schema.apiKeys.createdBy, opts.createdBy));
  await opts.db
    .update(schema.apiKeys)
    .set({ status: "disabled" })
    .where(and(...where));
}
