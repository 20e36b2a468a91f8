/**
 * The money half of the gateway: authenticate → admit → settle (see pipeline.ts for the seam). Everything the
 * hot path needs is in memory once warm (key cache, account views, in-memory or Redis counters); bills are made
 * durable in a local journal and committed to the database in batches by the bill writer.
 */
import { EDITION_TIME_ZONE, findModel, parseMoney, tierFor, withLimitOverride } from "@moonport/contracts";
import { newTimeOrderedId, randomString } from "@moonport/db";
import type { BaseContext } from "../base-context.ts";
import { GatewayError, gatewayErrors } from "../chat/errors.ts";
import { getOrganizationBalance } from "../modules/billing/index.ts";
import { API_KEY_PATTERN, hashApiKey } from "../modules/keys/index.ts";
import { Accounts } from "./accounts.ts";
import { BillWriter, commitEntries, type QueuedEntry } from "./bill-writer.ts";
import {
  BillJournal,
  type BillLine,
  claimOrphanJournals,
  type InterruptedStream,
  type JournalEntry,
  type OpenRecord,
} from "./journal.ts";
import { type CachedKey, KeyCache } from "./key-cache.ts";
import type { KeyEvents } from "./key-events.ts";
import { RateLimits } from "./limits.ts";
import { Mutex } from "./mutex.ts";
import type {
  Admission,
  AdmitRequest,
  ChargeRequest,
  GatewayPipeline,
  KeyIdentity,
  SettleRequest,
  Usage,
} from "./pipeline.ts";
import { contextCachingPrices, costAt, inferenceCost, unitPrices, webSearchFee } from "./pricing.ts";

export interface GatewayPipelineHandle extends GatewayPipeline {
  /** Resolves when journals left by dead instances have been settled. */
  ready: Promise<void>;
  /**
   * Journals and queues bill lines outside a chat run (context cache creation and storage). An entry whose lines
   * were committed before is skipped, so a job may retry: with the same line ids **and the same `createdAt`**
   * (request_bills is keyed by organization, time and id), so derive both from what is billed, never from the
   * clock of the attempt. Committed later, in the batch.
   */
  charge(req: ChargeRequest): Promise<void>;
  /**
   * Commits everything settled so far (tests, shutdown, console reads of bills). With `maxWaitMs`, resolves after
   * that long at the latest, committed or not (the database may be down and the writer backing off).
   */
  flush(maxWaitMs?: number): Promise<void>;
  close(): Promise<void>;
  /** Simulates a crash: stops without committing; the journal file stays for the next instance. */
  abandon(): void;
  /** Read by the metrics at scrape time (observability/metrics.ts). */
  readonly stats: {
    billQueueDepth(): number;
    journalBacklog(): number;
    openStreams(): number;
    limitAdmissions(): { allowance: number; script: number };
  };
  /** Internals exposed for tests. */
  readonly accounts: Accounts;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

class PipelineAdmission implements Admission {
  headers: Record<string, string>;
  private released = false;
  /** The id of this request's inference bill line, chosen now so a journaled stream and its bill share it. */
  readonly lineId = newTimeOrderedId("bill");
  tracked = false;
  constructor(
    readonly requestId: string,
    readonly key: KeyIdentity,
    readonly model: string,
    readonly startedAt: number,
    grant: { headers: Record<string, string>; release(): void },
    private readonly journal: BillJournal,
  ) {
    this.headers = grant.headers;
    this.releaseSlot = grant.release;
  }
  private readonly releaseSlot: () => void;
  settled = false;
  track(sample: () => Usage | null) {
    if (this.settled || this.tracked) return;
    this.tracked = true;
    this.journal.track(this.lineId, () => this.openRecord(), sample);
  }
  private openRecord(): OpenRecord {
    // The catalog's prices are fixed for the process's life: the same as at admission.
    const model = findModel(this.model)!;
    return {
      kind: "open",
      lineId: this.lineId,
      requestId: this.requestId,
      orgId: this.key.orgId,
      projectId: this.key.projectId,
      apiKeyId: this.key.keyId,
      model: model.id,
      prices: unitPrices(model, this.key.currency),
      startedAt: this.startedAt,
    };
  }
  release() {
    if (this.released) return;
    this.released = true;
    this.releaseSlot();
  }
}

/**
 * The bill of a stream whose process died mid-way: the prompt and the completion tokens produced up to its last
 * journaled progress, at the prices of its admission, under the line id it would have settled with.
 */
function interruptedEntry({ open, progress }: InterruptedStream): JournalEntry {
  const usage = {
    promptTokens: progress.promptTokens,
    completionTokens: progress.completionTokens,
    cachedTokens: progress.cachedTokens,
  };
  return {
    requestId: open.requestId,
    orgId: open.orgId,
    projectId: open.projectId,
    apiKeyId: open.apiKeyId,
    status: "interrupted",
    latencyMs: Math.max(0, progress.at - open.startedAt),
    createdAt: progress.at,
    lines: [
      {
        id: open.lineId,
        model: open.model,
        productName: open.model,
        productType: "model_inference",
        inputTokens: usage.promptTokens,
        outputTokens: usage.completionTokens,
        cachedTokens: usage.cachedTokens,
        toolCalls: 0,
        consumption: costAt(open.prices, usage).toString(),
      },
    ],
  };
}

/** Product names of context caching lines (product type `context_caching`). */
export const CACHE_CALL = "context_cache_call";
export const CACHE_CREATION = "context_cache_creation";
export const CACHE_STORAGE = "context_cache_storage";

function identityOf(cached: CachedKey | null): KeyIdentity {
  if (!cached) throw gatewayErrors.incorrectApiKey();
  return cached.identity;
}

export function createGatewayPipeline(ctx: BaseContext & { keyEvents: KeyEvents }): GatewayPipelineHandle {
  const instanceId = randomString(12, "abcdefghijklmnopqrstuvwxyz0123456789");
  const log = ctx.log.child({ component: "gateway" });
  const onError = (err: unknown) => log.error({ err }, "gateway background task failed");
  const lock = new Mutex();
  const keys = new KeyCache(ctx.db);
  const accounts = new Accounts(ctx.db, lock, onError);
  const limits = new RateLimits(ctx);
  const journal = BillJournal.open(ctx.config.billingJournalDir, instanceId, ctx.config.billingJournalSync);

  const commit = (items: QueuedEntry[]) =>
    lock.run(async () => {
      const charges = await commitEntries(ctx.db, items, "copy");
      accounts.applyCommitted(charges);
      const mine = items.filter((i) => i.local).length;
      ctx.observability.metrics.billsCommitted(items);
      if (mine) journal.committed(mine);
    });
  const writer = new BillWriter(commit, onError);

  const unsubscribe = ctx.keyEvents.subscribe((event) => {
    keys.evict(event);
    if (event === "all") accounts.evict("all");
    else if ("orgId" in event) accounts.evict({ orgId: event.orgId });
    else if ("projectId" in event) accounts.evict({ projectId: event.projectId });
  });

  // Replays what dead instances journaled but never committed (exactly once: bill line ids are idempotent).
  const ready = (async () => {
    const orphans = claimOrphanJournals(ctx.config.billingJournalDir, instanceId);
    const entries = [...orphans.entries, ...orphans.interrupted.map(interruptedEntry)];
    if (!entries.length) {
      orphans.done();
      return;
    }
    log.warn(
      { entries: orphans.entries.length, interruptedStreams: orphans.interrupted.length, files: orphans.files },
      "settling bills from an earlier instance",
    );
    for (let i = 0; i < entries.length; i += BillWriter.BATCH) {
      const batch = entries.slice(i, i + BillWriter.BATCH).map((entry) => ({ entry, local: false }));
      await commit(batch);
    }
    orphans.done();
  })();
  ready.catch(onError);

  /**
   * Journals an entry and queues it for the batch commit; its amount counts for admission at once. `fresh`: its
   * line ids were made just now (a chat run's), so the commit need not look for them.
   */
  async function record(entry: JournalEntry, fresh: boolean) {
    const amount = entry.lines.reduce((s, l) => s + BigInt(l.consumption), 0n);
    // Counted for admission at once, before the disk or the database has it.
    accounts.addUncommitted(entry.orgId, entry.projectId, amount);
    try {
      await journal.append(entry);
    } catch (err) {
      log.error({ err, requestId: entry.requestId }, "bill journal write failed; committing without it");
    }
    writer.enqueue({ entry, local: true, fresh });
  }

  return {
    ready,
    accounts,
    stats: {
      billQueueDepth: () => writer.size,
      journalBacklog: () => journal.outstanding,
      openStreams: () => journal.openStreams,
      limitAdmissions: () => ({
        allowance: limits.allowances?.admittedLocally ?? 0,
        script: limits.allowances?.admittedByScript ?? 0,
      }),
    },

    authenticate(authorization) {
      const m = authorization ? BEARER.exec(authorization) : null;
      if (!m) throw gatewayErrors.invalidAuthentication();
      const key = m[1]!;
      if (!API_KEY_PATTERN.test(key)) throw gatewayErrors.invalidAuthentication();
      const found = keys.lookup(hashApiKey(key));
      return found instanceof Promise ? found.then(identityOf) : identityOf(found);
    },

    async admit(req: AdmitRequest): Promise<Admission> {
      const { key } = req;
      if (!findModel(req.model)) throw gatewayErrors.modelNotFound(req.model);
      // Warm: both views at hand, no promise. Cold: loaded one after the other (their loads share a lock anyway).
      const org = accounts.orgIfReady(key.orgId) ?? (await accounts.org(key.orgId));
      const project = accounts.projectIfReady(key.projectId) ?? (await accounts.project(key.projectId));
      if (org.suspended) throw gatewayErrors.accountNotActive(key.orgId, key.keyId, "suspended");
      if (project.status !== "active") throw gatewayErrors.accountNotActive(key.orgId, key.keyId, "project_archived");
      if (accounts.available(org) <= 0n) throw gatewayErrors.insufficientBalance();
      const spent = accounts.spent(project);
      if (project.dailyBudget !== null && spent.day >= parseMoney(String(project.dailyBudget))) {
        throw gatewayErrors.accountNotActive(key.orgId, key.keyId, "daily_budget_exceeded");
      }
      if (project.monthlyBudget !== null && spent.month >= parseMoney(String(project.monthlyBudget))) {
        throw gatewayErrors.accountNotActive(key.orgId, key.keyId, "monthly_budget_exceeded");
      }
      const tier = withLimitOverride(tierFor(org), org.rateLimitOverride);
      let grant: { headers: Record<string, string>; release(): void };
      try {
        grant = await limits.admit({
          orgId: key.orgId,
          keyId: key.keyId,
          projectId: key.projectId,
          tier,
          projectTpm: project.tpmLimit,
          tokens: Math.max(0, Math.ceil(req.admissionTokens)),
          timeZone: EDITION_TIME_ZONE[org.edition],
        });
      } catch (err) {
        if (err instanceof GatewayError) throw err;
        // The shared counter store is down: serving without limits beats refusing every paying request.
        log.error({ err }, "rate-limit store unavailable; admitting without limits");
        grant = { headers: {}, release: () => {} };
      }
      return new PipelineAdmission(req.requestId, key, req.model, Date.now(), grant, journal);
    },

    async settle(req: SettleRequest) {
      const admission = req.admission;
      admission.release();
      if (admission instanceof PipelineAdmission) {
        if (admission.settled) return;
        admission.settled = true;
      }
      try {
        const { key } = admission;
        const model = findModel(admission.model)!;
        const now = Date.now();
        const tracked = admission instanceof PipelineAdmission;
        if (tracked && admission.tracked) journal.untrack(admission.lineId);
        ctx.observability.metrics.tokensUsed(model.id, req.usage);
        const cache = req.contextCache;
        // The cached prefix is paid for by the cache (creation, storage, the call fee), not as input again.
        const cachedPrefix = cache ? Math.min(cache.tokens, req.usage.promptTokens) : 0;
        const lines: BillLine[] = [
          {
            id: tracked ? admission.lineId : newTimeOrderedId("bill"),
            model: model.id,
            productName: model.id,
            productType: "model_inference",
            inputTokens: req.usage.promptTokens,
            outputTokens: req.usage.completionTokens,
            cachedTokens: cache ? cachedPrefix : req.usage.cachedTokens,
            toolCalls: 0,
            consumption: inferenceCost(
              model,
              key.currency,
              cache
                ? { ...req.usage, promptTokens: req.usage.promptTokens - cachedPrefix, cachedTokens: 0 }
                : req.usage,
            ).toString(),
            ...(cache ? { contextCacheId: cache.id } : {}),
          },
        ];
        if (cache) {
          lines.push({
            id: newTimeOrderedId("bill"),
            model: model.id,
            productName: CACHE_CALL,
            productType: "context_caching",
            inputTokens: 0,
            outputTokens: 0,
            cachedTokens: 0,
            toolCalls: 1,
            consumption: contextCachingPrices(key.currency).call.toString(),
            contextCacheId: cache.id,
          });
        }
        if (req.webSearchCalls > 0) {
          lines.push({
            id: newTimeOrderedId("bill"),
            model: model.id,
            productName: "$web_search",
            productType: "$web_search",
            inputTokens: 0,
            outputTokens: 0,
            cachedTokens: 0,
            toolCalls: req.webSearchCalls,
            consumption: webSearchFee(key.currency, req.webSearchCalls).toString(),
          });
        }
        const entry: JournalEntry = {
          requestId: admission.requestId,
          orgId: key.orgId,
          projectId: key.projectId,
          apiKeyId: key.keyId,
          status: req.status,
          latencyMs: Math.max(0, now - admission.startedAt),
          createdAt: now,
          lines,
        };
        await record(entry, true);
      } catch (err) {
        log.error({ err, requestId: admission.requestId }, "settle failed");
      }
    },

    async charge(req) {
      // A job's ids are derived from what it bills and may have been committed by an earlier attempt: checked.
      await record({ ...req, status: "ok", latencyMs: 0 }, false);
    },

    flush(maxWaitMs) {
      const drained = writer.drain();
      if (maxWaitMs === undefined) return drained;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, maxWaitMs);
      });
      return Promise.race([drained, timeout]).finally(() => clearTimeout(timer));
    },

    async balance(orgId) {
      await writer.drain();
      return getOrganizationBalance({ db: ctx.db, orgId });
    },

    async close() {
      unsubscribe();
      await ready.catch(() => {});
      await writer.drain();
      writer.stop();
      await journal.close();
      await limits.close();
    },

    abandon() {
      unsubscribe();
      limits.allowances?.abandon();
      writer.stop();
      journal.abandon();
    },
  };
}
