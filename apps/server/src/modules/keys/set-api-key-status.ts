import { type Db, schema } from "@moonport/db";
import { and, eq, isNull } from "drizzle-orm";
import type { KeyEvents } from "../../gateway/key-events.ts";
import { AppError } from "../../lib/app-error.ts";

/** Shared by disable/enable: flips the status of a live key and tells the gateway (every instance) at once. */
export async function setApiKeyStatus(opts: {
  db: Db;
  keyEvents: KeyEvents;
  orgId: string;
  keyId: string;
  status: "enabled" | "disabled";
}): Promise<void> {
  const rows = await opts.db
    .update(schema.apiKeys)
    .set({ status: opts.status })
    .where(
      and(eq(schema.apiKeys.id, opts.keyId), eq(schema.apiKeys.orgId, opts.orgId), isNull(schema.apiKeys.deletedAt)),
    )
    .returning({ keyHash: schema.apiKeys.keyHash });
  if (!rows[0]) throw new AppError("not_found");
  await opts.keyEvents.invalidate({ keyHash: rows[0].keyHash });
}
