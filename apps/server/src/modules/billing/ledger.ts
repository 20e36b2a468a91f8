/**
 * The ledger: an append-only record of every change to an organization's cash and voucher balances. Only the
 * billing core writes it (and the balances), in the same transaction as the change, so for every organization
 * Σ cash_delta = org_balances.cash_balance and Σ voucher_delta = Σ vouchers.remaining (tests check both).
 */
import { newId, type Tx } from "@moonport/db";
import * as money from "@moonport/db/money-schema";
import { type SQL, sql } from "drizzle-orm";

export type LedgerKind = (typeof money.ledgerEntries.$inferInsert)["kind"];

export interface LedgerRow {
  id: string;
  orgId: string;
  kind: LedgerKind;
  cashDelta: bigint;
  voucherDelta: bigint;
  /**
   * What caused it (a bill line, a payment, a voucher). Unique per kind except for charges (whose bill line ids
   * are unique already), which makes a repeated credit a no-op.
   */
  reference: string | null;
  note: string | null;
  createdBy?: string | null;
  createdAt: Date;
}

export function newLedgerId(): string {
  return newId("led");
}

/**
 * The INSERT of many entries as one statement with one JSON parameter (drizzle's insert builder spends more CPU
 * per row than the database spends storing it). Money goes as decimal strings, times as ISO strings, so nothing
 * passes through a float. With `idempotent`, entries whose (kind, reference) is already recorded are skipped and
 * the ids inserted are returned. Also a data-modifying CTE of the charge batch's one write statement.
 */
export function ledgerInsertSql(rows: LedgerRow[], opts: { idempotent?: boolean } = {}): SQL {
  const json = JSON.stringify(
    rows.map((l) => [
      l.id,
      l.orgId,
      l.kind,
      l.cashDelta.toString(),
      l.voucherDelta.toString(),
      l.reference,
      l.note,
      l.createdBy ?? null,
      l.createdAt.toISOString(),
    ]),
  );
  return sql`insert into ${money.ledgerEntries} (id, org_id, kind, cash_delta, voucher_delta,
    reference, note, created_by, created_at)
    select r->>0, r->>1, r->>2, (r->>3)::bigint, (r->>4)::bigint, r->>5, r->>6, r->>7, (r->>8)::timestamptz
    from jsonb_array_elements(${json}::jsonb) as r
    ${opts.idempotent ? sql`on conflict do nothing returning id` : sql``}`;
}

/** Inserts many entries with one statement (`ledgerInsertSql`); with `idempotent`, returns the ids inserted. */
export async function insertLedgerEntries(
  tx: Tx,
  rows: LedgerRow[],
  opts: { idempotent?: boolean } = {},
): Promise<Set<string>> {
  if (!rows.length) return new Set();
  const result = await tx.execute(ledgerInsertSql(rows, opts));
  return new Set(opts.idempotent ? (result as unknown as { rows: { id: string }[] }).rows.map((r) => r.id) : []);
}
