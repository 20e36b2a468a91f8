import { type Db, schema } from "@moonport/db";
import { and, eq, isNull } from "drizzle-orm";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import type { KeyEvents } from "../../metering/key-events.ts";
import { invalidateKeysAfterCommit } from "./invalidate-keys.ts";

/** Renames a key. The gateway caches no name, but is told anyway so any future cached field stays fresh. */
export async function renameApiKey(opts: {
  db: Db;
  keyEvents: KeyEvents;
  orgId: string;
  keyId: string;
  name: string;
}): Promise<void> {
  await withTransaction(opts, async (tx, afterCommit) => {
    const rows = await tx
      .update(schema.apiKeys)
      .set({ name: opts.name })
      .where(
        and(eq(schema.apiKeys.id, opts.keyId), eq(schema.apiKeys.orgId, opts.orgId), isNull(schema.apiKeys.deletedAt)),
      )
      .returning({ keyHash: schema.apiKeys.keyHash });
    if (!rows[0]) throw new AppError("not_found");
    await invalidateKeysAfterCommit({ tx, afterCommit, keyEvents: opts.keyEvents }, { keyHash: rows[0].keyHash });
  });
}
