import { type Db, schema } from "@moonport/db";
import { and, eq, isNull, sql } from "drizzle-orm";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import type { KeyEvents } from "../../metering/key-events.ts";
import { invalidateKeysAfterCommit } from "./invalidate-keys.ts";

/**
 * Deletes a key: the row stays (bills reference it) with `deleted_at` set, and the gateway refuses the key within
 * one second on every instance. Permission checks: caller.
 */
export async function deleteApiKey(opts: {
  db: Db;
  keyEvents: KeyEvents;
  orgId: string;
  keyId: string;
}): Promise<void> {
  await withTransaction(opts, async (tx, afterCommit) => {
    const rows = await tx
      .update(schema.apiKeys)
      .set({ deletedAt: sql`now()`, status: "disabled" })
      .where(
        and(eq(schema.apiKeys.id, opts.keyId), eq(schema.apiKeys.orgId, opts.orgId), isNull(schema.apiKeys.deletedAt)),
      )
      .returning({ keyHash: schema.apiKeys.keyHash });
    if (!rows[0]) throw new AppError("not_found");
    await invalidateKeysAfterCommit({ tx, afterCommit, keyEvents: opts.keyEvents }, { keyHash: rows[0].keyHash });
  });
}
