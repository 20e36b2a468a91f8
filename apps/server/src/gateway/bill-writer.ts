/**
 * Commits journaled bills to the database in batches, off the request path. One transaction per batch: for each
 * organization (in id order, so instances lock in the same order) it locks the organization row and its usable
 * vouchers, spends vouchers first (soonest-expiring first, only those still valid when the request was settled),
 * then cash (which may go below zero by what was in flight when it reached zero), and writes the bill rows, one
 * ledger entry per charged line, and the keys' last-used time. Lines already in request_bills are skipped, which
 * makes replaying a journal harmless.
 */
import { type Db, newId, schema, type Tx } from "@moonport/db";
import { asc, inArray, sql } from "drizzle-orm";
import type { CommittedCharge } from "./accounts.ts";
import type { JournalEntry } from "./journal.ts";

export interface QueuedEntry {
  entry: JournalEntry;
  /** Counted in this instance's `uncommitted` and journaled by this instance. */
  local: boolean;
  /** Failed commits of this entry on its own (see BillWriter: a batch that fails is retried entry by entry). */
  failures?: number;
}

const CHUNK = 500;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Commits `items` in one transaction; returns what each did to balances. */
export async function commitEntries(db: Db, items: QueuedEntry[]): Promise<CommittedCharge[]> {
  if (!items.length) return [];
  return db.transaction(async (tx) => {
    const lineIds = items.flatMap((i) => i.entry.lines.map((l) => l.id));
    const existing = new Set<string>();
    for (const ids of chunks(lineIds, 1000)) {
      const rows = await tx
        .select({ id: schema.requestBills.id })
        .from(schema.requestBills)
        .where(inArray(schema.requestBills.id, ids));
      for (const r of rows) existing.add(r.id);
    }
    const result: CommittedCharge[] = [];
    const byOrg = new Map<string, QueuedEntry[]>();
    for (const item of items) {
      const e = item.entry;
      const amount = e.lines.reduce((s, l) => s + BigInt(l.consumption), 0n);
      // Lines of one entry are written together, so one present line means the entry was committed before.
      if (e.lines.some((l) => existing.has(l.id))) {
        result.push({
          orgId: e.orgId,
          projectId: e.projectId,
          amount,
          cash: 0n,
          voucher: 0n,
          createdAt: e.createdAt,
          applied: false,
          local: item.local,
        });
        continue;
      }
      const list = byOrg.get(e.orgId) ?? [];
      list.push(item);
      byOrg.set(e.orgId, list);
    }
    for (const orgId of [...byOrg.keys()].sort()) {
      const list = byOrg.get(orgId)!.sort((a, b) => a.entry.createdAt - b.entry.createdAt);
      result.push(...(await commitOrg(tx, orgId, list)));
    }
    const keyIds = [...new Set(items.map((i) => i.entry.apiKeyId))];
    if (keyIds.length) {
      await tx.update(schema.apiKeys).set({ lastUsedAt: sql`now()` }).where(inArray(schema.apiKeys.id, keyIds));
    }
    return result;
  });
}

async function commitOrg(tx: Tx, orgId: string, items: QueuedEntry[]): Promise<CommittedCharge[]> {
  await tx.execute(sql`select 1 from ${schema.organizations} where ${schema.organizations.id} = ${orgId} for update`);
  const earliest = new Date(Math.min(...items.map((i) => i.entry.createdAt)));
  const vouchers = await tx
    .select({ id: schema.vouchers.id, remaining: schema.vouchers.remaining, expiresAt: schema.vouchers.expiresAt })
    .from(schema.vouchers)
    .where(
      sql`${schema.vouchers.orgId} = ${orgId} and ${schema.vouchers.remaining} > 0 and ${schema.vouchers.expiresAt} > ${earliest.toISOString()}::timestamptz`,
    )
    .orderBy(asc(schema.vouchers.expiresAt), asc(schema.vouchers.id))
    .for("update");
  const touched = new Set<string>();
  let cashTotal = 0n;
  const bills: (typeof schema.requestBills.$inferInsert)[] = [];
  const ledger: (typeof schema.ledgerEntries.$inferInsert)[] = [];
  const result: CommittedCharge[] = [];
  for (const { entry, local } of items) {
    let entryCash = 0n;
    let entryVoucher = 0n;
    for (const line of entry.lines) {
      let due = BigInt(line.consumption);
      let fromVoucher = 0n;
      for (const v of vouchers) {
        if (due === 0n) break;
        if (v.remaining <= 0n || v.expiresAt.getTime() <= entry.createdAt) continue;
        const take = v.remaining < due ? v.remaining : due;
        v.remaining -= take;
        due -= take;
        fromVoucher += take;
        touched.add(v.id);
      }
      const fromCash = due;
      cashTotal += fromCash;
      entryCash += fromCash;
      entryVoucher += fromVoucher;
      bills.push({
        id: line.id,
        requestId: entry.requestId,
        orgId,
        projectId: entry.projectId,
        apiKeyId: entry.apiKeyId,
        model: line.model,
        productName: line.productName,
        productType: line.productType,
        inputTokens: line.inputTokens,
        outputTokens: line.outputTokens,
        cachedTokens: line.cachedTokens,
        toolCalls: line.toolCalls,
        consumption: BigInt(line.consumption),
        cashDeduction: fromCash,
        voucherDeduction: fromVoucher,
        status: entry.status,
        latencyMs: entry.latencyMs,
        createdAt: new Date(entry.createdAt),
      });
      if (fromCash !== 0n || fromVoucher !== 0n) {
        ledger.push({
          id: newId("led"),
          orgId,
          kind: "charge",
          cashDelta: -fromCash,
          voucherDelta: -fromVoucher,
          reference: line.id,
          note: `${line.productType} ${line.model} request ${entry.requestId}`,
          createdAt: new Date(entry.createdAt),
        });
      }
    }
    result.push({
      orgId,
      projectId: entry.projectId,
      amount: entryCash + entryVoucher,
      cash: entryCash,
      voucher: entryVoucher,
      createdAt: entry.createdAt,
      applied: true,
      local,
    });
  }
  if (touched.size) {
    const rows = vouchers.filter((v) => touched.has(v.id));
    const values = sql.join(
      rows.map((v) => sql`(${v.id}, ${v.remaining.toString()}::bigint)`),
      sql`, `,
    );
    await tx.execute(
      sql`update ${schema.vouchers} as v set remaining = x.remaining from (values ${values}) as x(id, remaining) where v.id = x.id`,
    );
  }
  if (cashTotal !== 0n) {
    await tx.execute(
      sql`update ${schema.organizations} set cash_balance = cash_balance - ${cashTotal.toString()}::bigint where id = ${orgId}`,
    );
  }
  for (const part of chunks(bills, CHUNK)) await tx.insert(schema.requestBills).values(part);
  for (const part of chunks(ledger, CHUNK)) await tx.insert(schema.ledgerEntries).values(part);
  return result;
}

/**
 * The queue in front of commitEntries: flushes when BATCH entries wait or FLUSH_MS after the first, one batch at
 * a time, and retries with backoff when the database is unavailable (the journal still holds every entry).
 */
export class BillWriter {
  static readonly BATCH = 500;
  static readonly FLUSH_MS = 10;
  static readonly MAX_FAILURES = 5;
  private queue: QueuedEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | null = null;
  private stopped = false;
  private failures = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly commit: (items: QueuedEntry[]) => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  enqueue(item: QueuedEntry) {
    if (this.stopped) return;
    this.queue.push(item);
    if (this.queue.length >= BillWriter.BATCH) this.kick(0);
    else this.kick(BillWriter.FLUSH_MS);
  }

  private kick(delay: number) {
    if (this.flushing) return; // the running flush loops until the queue is empty
    if (this.timer && delay > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushing = this.loop().finally(() => {
        this.flushing = null;
        if (this.queue.length && !this.stopped) this.kick(this.retryDelay());
        else for (const w of this.idleWaiters.splice(0)) w();
      });
    }, delay);
  }

  private retryDelay() {
    return this.failures ? Math.min(5000, 50 * 2 ** this.failures) : BillWriter.FLUSH_MS;
  }

  private async loop() {
    while (this.queue.length && !this.stopped) {
      const batch = this.queue.splice(0, BillWriter.BATCH);
      try {
        await this.commit(batch);
        this.failures = 0;
        continue;
      } catch (err) {
        this.onError(err);
      }
      // One bad entry must not hold every bill back: retry them one by one. An entry that keeps failing on its
      // own is parked — left in its journal file, which is then kept and replayed at the next start.
      const retry: QueuedEntry[] = [];
      let committed = 0;
      for (const item of batch) {
        try {
          await this.commit([item]);
          committed++;
        } catch (err) {
          item.failures = (item.failures ?? 0) + 1;
          if (item.failures >= BillWriter.MAX_FAILURES) {
            this.onError(
              new Error(`bill for request ${item.entry.requestId} parked after ${item.failures} failed commits`, {
                cause: err,
              }),
            );
          } else {
            retry.push(item);
          }
        }
      }
      this.queue.unshift(...retry);
      if (committed === 0) {
        // Nothing goes through (database down): back off.
        this.failures++;
        return;
      }
    }
  }

  get size() {
    return this.queue.length;
  }

  /** Resolves when everything queued so far is committed (or the writer stopped). */
  async drain(): Promise<void> {
    while (!this.stopped && (this.queue.length || this.flushing || this.timer)) {
      await new Promise<void>((resolve) => {
        this.idleWaiters.push(resolve);
        if (!this.flushing && !this.timer) this.kick(0);
      });
    }
  }

  /** Stops without committing what is queued (a simulated crash; the journal keeps it). */
  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.idleWaiters.splice(0)) w();
  }
}
