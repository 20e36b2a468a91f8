import { type Db, schema } from "@moonport/db";
import { and, eq, isNull } from "drizzle-orm";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import type { KeyEvents } from "../../metering/key-events.ts";
import { invalidateKeysAfterCommit } from "./invalidate-keys.ts";

/** Shared by disable/enable: flips the status of a live key and tells the gateway (every instance) at once. */
export async function setApiKeyStatus(opts: {
  db: Db;
  keyEvents: KeyEvents;
  orgId: string;
  keyId: string;
  status: "enabled" | "disabled";
}): Promise<void> {
  await withTransaction(opts, async (tx, afterCommit) => {
    const rows = await tx
      .update(schema.apiKeys)
      .set({ status: opts.status })
      .where(
        and(eq(schema.apiKeys.id, opts.keyId), eq(schema.apiKeys.orgId, opts.orgId), isNull(schema.apiKeys.deletedAt)),
      )
      .returning({ keyHash: schema.apiKeys.keyHash });
    if (!rows[0]) throw new AppError("not_found");
    await invalidateKeysAfterCommit({ tx, afterCommit, keyEvents: opts.keyEvents }, { keyHash: rows[0].keyHash });
  });
}
