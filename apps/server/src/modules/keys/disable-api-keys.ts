import { schema, type Tx } from "@moonport/db";
import { and, eq, isNull } from "drizzle-orm";
import type { AfterCommit } from "../../lib/transaction.ts";
import type { KeyEvents } from "../../metering/key-events.ts";
import { invalidateKeysAfterCommit } from "./invalidate-keys.ts";

/** Whose keys: a project's, a user's in an organization, or a user's in one project. */
type KeySelector = { orgId: string } & ({ projectId: string; createdBy?: string } | { createdBy: string });

/**
 * Disables every live key the selector names: the key writes of archiving a project and of removing someone from
 * an organization or a project. Runs inside the caller's `withTransaction` and registers the gateway's cache
 * invalidation for after its commit, so the write and the announcement cannot drift apart. Permission checks:
 * caller.
 */
export async function disableApiKeys(
  scope: { tx: Tx; afterCommit: AfterCommit; keyEvents: KeyEvents },
  selector: KeySelector,
): Promise<void> {
  const where = [eq(schema.apiKeys.orgId, selector.orgId), isNull(schema.apiKeys.deletedAt)];
  if ("projectId" in selector) where.push(eq(schema.apiKeys.projectId, selector.projectId));
  if (selector.createdBy !== undefined) where.push(eq(schema.apiKeys.createdBy, selector.createdBy));
  await scope.tx
    .update(schema.apiKeys)
    .set({ status: "disabled" })
    .where(and(...where));
  await invalidateKeysAfterCommit(scope, selector);
}
