/**
 * Commits journaled bills to the database in batches, off the request path. One transaction per batch: the
 * billing core (modules/billing/charge-organizations.ts) locks the organizations, allocates every charge to
 * vouchers then cash and writes balances and ledger entries; this file writes the bill rows and the keys' last-used
 * time and the projects' daily spend. Lines already in request_bills are skipped, which makes replaying a journal
 * harmless.
 */
import { type CopyColumn, CopyEncoder, type CopyValue, copyRows, type Db, schema } from "@moonport/db";
import { inArray, type SQL, sql } from "drizzle-orm";
import { chargeOrganizations, ProjectSpend, type UsageCharge } from "../modules/billing/index.ts";
import type { CommittedCharge } from "./accounts.ts";
import type { JournalEntry } from "./journal.ts";

export interface QueuedEntry {
  entry: JournalEntry;
  /** Counted in this instance's `uncommitted` and journaled by this instance. */
  local: boolean;
  /** Failed commits of this entry on its own (see BillWriter: a batch that fails is retried entry by entry). */
  failures?: number;
  /**
   * Journaled by this process just now and never tried: its line ids are fresh, so the database cannot have them
   * and the existence check can skip it. Replays and anything whose commit failed (it may have committed all the
   * same: a lost acknowledgement) are checked. Should a fresh line exist after all, the insert violates the
   * primary key, the batch rolls back and its retry checks every entry.
   */
  fresh?: boolean;
}

interface BillRow {
  id: string;
  requestId: string;
  orgId: string;
  projectId: string;
  apiKeyId: string;
  model: string;
  productName: string;
  productType: string;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  toolCalls: number;
  contextCacheId: string | null;
  consumption: bigint;
  cashDeduction: bigint;
  voucherDeduction: bigint;
  status: string;
  latencyMs: number;
  createdAt: Date;
}

/** Both drivers (node-postgres, PGlite) return raw results as { rows }. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** request_bills as the bill writer fills it, in the order of billValues. */
const BILL_COLUMNS: readonly CopyColumn[] = [
  { name: "id", type: "text" },
  { name: "request_id", type: "text" },
  { name: "org_id", type: "text" },
  { name: "project_id", type: "text" },
  { name: "api_key_id", type: "text" },
  { name: "model", type: "text" },
  { name: "product_name", type: "text" },
  { name: "product_type", type: "text" },
  { name: "input_tokens", type: "int4" },
  { name: "output_tokens", type: "int4" },
  { name: "cached_tokens", type: "int4" },
  { name: "tool_calls", type: "int4" },
  { name: "consumption", type: "int8" },
  { name: "cash_deduction", type: "int8" },
  { name: "voucher_deduction", type: "int8" },
  { name: "status", type: "text" },
  { name: "latency_ms", type: "int4" },
  { name: "created_at", type: "timestamptz" },
  { name: "context_cache_id", type: "text" },
];

const CREATED_AT = BILL_COLUMNS.findIndex((c) => c.name === "created_at");

/** A bill row's values in BILL_COLUMNS order: money as bigint, the time as epoch ms (nothing through a float). */
function billValues(b: BillRow): CopyValue[] {
  return [
    b.id,
    b.requestId,
    b.orgId,
    b.projectId,
    b.apiKeyId,
    b.model,
    b.productName,
    b.productType,
    b.inputTokens,
    b.outputTokens,
    b.cachedTokens,
    b.toolCalls,
    b.consumption,
    b.cashDeduction,
    b.voucherDeduction,
    b.status,
    b.latencyMs,
    b.createdAt.getTime(),
    b.contextCacheId,
  ];
}

/**
 * Multi-row inserts as one JSON parameter expanded by jsonb_array_elements: drizzle's insert builder spends more
 * CPU per row (it inspects every value) than the database spends storing it.
 */
function insertBillsSql(bills: BillRow[]): SQL {
  // Strings for bigint and timestamp: JSON has neither, and nothing may pass through a float.
  const json = JSON.stringify(
    bills.map((b) =>
      billValues(b).map((v, i) =>
        typeof v === "bigint" ? v.toString() : i === CREATED_AT ? b.createdAt.toISOString() : v,
      ),
    ),
  );
  return sql`insert into ${schema.requestBills} (${sql.raw(BILL_COLUMNS.map((c) => c.name).join(", "))})
    select r->>0, r->>1, r->>2, r->>3, r->>4, r->>5, r->>6, r->>7, (r->>8)::integer, (r->>9)::integer,
      (r->>10)::integer, (r->>11)::integer, (r->>12)::bigint, (r->>13)::bigint, (r->>14)::bigint, r->>15,
      (r->>16)::integer, (r->>17)::timestamptz, r->>18
    from jsonb_array_elements(${json}::jsonb) as r`;
}

/**
 * How bill rows reach the table. "insert": inside the batch's one write statement, as one jsonb parameter.
 * "copy": a binary COPY of their own in the same transaction (@moonport/db copy.ts), what the gateway uses on
 * both drivers: one statement more per batch, and less work per row on each side. "insert" stays as the
 * reference the tests hold "copy" to (bill-rows-copy.test.ts, project-spend.test.ts).
 * On PGlite its database work is gateway CPU, and binary rows skip all field parsing; on PostgreSQL encoding ~200
 * binary bytes a row costs the gateway less than building and sending the JSON, and the server parses no jsonb
 * array of the whole batch. The numbers: docs/decisions/0002-copy-encoded-bill-rows.md.
 */
export type BillRowWrite = "insert" | "copy";

/**
 * Commits `items` in one transaction; returns what each did to balances. The statement count does not grow with
 * the batch or the number of organizations (the database runs in-process with PGlite, where each statement has a
 * fixed cost of about a millisecond of gateway CPU whatever it does): one existence check, then the billing core's
 * lock and voucher read, and one statement for every write — vouchers, cash, ledger (billing core), bill rows and
 * the keys' last use (here) as data-modifying CTEs; with `rows: "copy"` the bill rows follow in a COPY of their own.
 */
export async function commitEntries(db: Db, items: QueuedEntry[], rows: BillRowWrite): Promise<CommittedCharge[]> {
  if (!items.length) return [];
  return db.transaction(async (tx) => {
    // A line is always written with the time it was journaled with, so a committed one is found by its key.
    const keys = items.flatMap((i) =>
      i.fresh ? [] : i.entry.lines.map((l) => [i.entry.orgId, new Date(i.entry.createdAt).toISOString(), l.id]),
    );
    const existing = new Set<string>();
    if (keys.length) {
      // The keys travel as one JSON parameter: building a statement with parameters per key costs more CPU than
      // running it.
      const present = await tx.execute(
        sql`select b.id from json_array_elements(${JSON.stringify(keys)}::json) as k
          join ${schema.requestBills} as b on b.org_id = k->>0 and b.created_at = (k->>1)::timestamptz and b.id = k->>2`,
      );
      for (const r of rowsOf<{ id: string }>(present)) existing.add(r.id);
    }
    const result: CommittedCharge[] = [];
    const byOrg = new Map<string, QueuedEntry[]>();
    for (const item of items) {
      const e = item.entry;
      // Lines of one entry are written together, so one present line means the entry was committed before.
      if (e.lines.some((l) => existing.has(l.id))) {
        result.push({
          orgId: e.orgId,
          projectId: e.projectId,
          amount: e.lines.reduce((s, l) => s + BigInt(l.consumption), 0n),
          cash: 0n,
          voucher: 0n,
          createdAt: e.createdAt,
          applied: false,
          local: item.local,
        });
        continue;
      }
      const list = byOrg.get(e.orgId);
      if (list) list.push(item);
      else byOrg.set(e.orgId, [item]);
    }
    const keyIds = [...new Set(items.map((i) => i.entry.apiKeyId))];
    const touchKeys = sql`update ${schema.apiKeys} set last_used_at = now() where ${inArray(schema.apiKeys.id, keyIds)}`;
    if (!byOrg.size) {
      await tx.execute(touchKeys);
      return result;
    }
    const charges: UsageCharge[] = [];
    for (const list of byOrg.values()) {
      for (const { entry } of list.sort((x, y) => x.entry.createdAt - y.entry.createdAt)) {
        for (const line of entry.lines) {
          charges.push({
            orgId: entry.orgId,
            amount: BigInt(line.consumption),
            at: entry.createdAt,
            reference: line.id,
            note: `${line.productType} ${line.model} request ${entry.requestId}`,
          });
        }
      }
    }
    // The bill rows (unless copied after it) and the keys' last use go in the billing core's one write statement
    // (with the balances and the ledger): two statements fewer per batch. Rows to be copied are encoded as they are
    // made, so no row object outlives this callback (copy.ts CopyEncoder).
    const bills: BillRow[] = [];
    const copied = rows === "copy" ? new CopyEncoder(BILL_COLUMNS, items.length) : null;
    await chargeOrganizations(tx, charges, (allocations, editions) => {
      const spend = new ProjectSpend();
      let k = 0;
      for (const list of byOrg.values()) {
        for (const { entry, local } of list) {
          let entryCash = 0n;
          let entryVoucher = 0n;
          const createdAt = new Date(entry.createdAt);
          for (const line of entry.lines) {
            const a = allocations[k++]!;
            entryCash += a.cash;
            entryVoucher += a.voucher;
            const bill: BillRow = {
              id: line.id,
              requestId: entry.requestId,
              orgId: entry.orgId,
              projectId: entry.projectId,
              apiKeyId: entry.apiKeyId,
              model: line.model,
              productName: line.productName,
              productType: line.productType,
              inputTokens: line.inputTokens,
              outputTokens: line.outputTokens,
              cachedTokens: line.cachedTokens,
              toolCalls: line.toolCalls,
              contextCacheId: line.contextCacheId ?? null,
              consumption: a.cash + a.voucher,
              cashDeduction: a.cash,
              voucherDeduction: a.voucher,
              status: entry.status,
              latencyMs: entry.latencyMs,
              createdAt,
            };
            if (copied) copied.add(billValues(bill));
            else bills.push(bill);
          }
          spend.add(entry.projectId, entry.createdAt, editions.get(entry.orgId), entryCash + entryVoucher);
          result.push({
            orgId: entry.orgId,
            projectId: entry.projectId,
            amount: entryCash + entryVoucher,
            cash: entryCash,
            voucher: entryVoucher,
            createdAt: entry.createdAt,
            applied: true,
            local,
          });
        }
      }
      const writes = [touchKeys, ...spend.upsert()];
      return copied ? writes : [insertBillsSql(bills), ...writes];
    });
    if (copied) await copyRows(tx, "request_bills", copied);
    return result;
  });
}

/**
 * The queue in front of commitEntries: flushes when BATCH entries wait or FLUSH_MS after the first, one batch at
 * a time, and retries with backoff when the database is unavailable (the journal still holds every entry).
 * A batch costs its statements more than its rows, so FLUSH_MS trades a little freshness for CPU: every bill is
 * already durable in the journal and counted in this instance's balances, readers that need the database to have
 * it (the balance endpoint, tests, shutdown) drain first, and other instances see it at most FLUSH_MS later than
 * their next refresh would. BATCH bounds how long one commit holds the event loop (PGlite runs statements on it);
 * under full load it, not FLUSH_MS, sets the batch size. Why these values: docs/decisions/0001-bill-writer-batching.md.
 */
export class BillWriter {
  static readonly BATCH = 2000;
  static readonly FLUSH_MS = 500;
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
    // What arrives during a commit waits for its own window (kick(FLUSH_MS) in the finally above) unless a full
    // batch is waiting or someone drains: committing it at once made batches of a few dozen under load, and a
    // batch's CPU is mostly its fixed per-statement cost.
    let first = true;
    while (
      this.queue.length &&
      !this.stopped &&
      (first || this.queue.length >= BillWriter.BATCH || this.idleWaiters.length > 0)
    ) {
      first = false;
      const batch = this.queue.splice(0, BillWriter.BATCH);
      try {
        await this.commit(batch);
        this.failures = 0;
        continue;
      } catch (err) {
        this.onError(err);
      }
      for (const item of batch) item.fresh = false;
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
        // A waiting batch timer is brought forward (a drain never waits out FLUSH_MS); a backoff is not.
        if (!this.flushing && (!this.timer || this.failures === 0)) this.kick(0);
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
