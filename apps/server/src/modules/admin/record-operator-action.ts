import { newId, schema, type Tx } from "@moonport/db";

/**
 * One audit-log line per operator action (back-office and CLI), written in the transaction of the change itself,
 * so the log holds exactly the changes that happened, with what they changed from and to.
 */
export async function recordOperatorAction(
  tx: Tx,
  entry: {
    actor: string;
    action: string;
    target: string | null;
    before?: unknown;
    after?: unknown;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await tx.insert(schema.operatorActions).values({
    id: newId("opa"),
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    details: entry.details ?? {},
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
