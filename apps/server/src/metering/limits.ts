/**
 * Rate limits per organization by tier (docs/api-compat.md §8.3): concurrency, RPM, TPM and TPD, plus a project's own
 * TPM cap (never above the organization's). Requests and tokens are counted in fixed windows: in this process
 * (WindowCounters) without Redis, in Redis when REDIS_URL is set, so all instances count together (one script per
 * request, in rate-limiter-flexible's keys, with its limiters as the fallback while Redis is down). The counters
 * are unbounded and compared with the tier's limit here, because one organization's limit changes with its tier.
 * A refused request gives back what it took, so retries do not dig the hole deeper. Concurrency is a lease set: in
 * memory a counter, in Redis a sorted set of leases that expire, so a crashed instance cannot hold slots for ever.
 */
import { randomUUID } from "node:crypto";
import type { Tier } from "@moonport/contracts";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import type { BaseContext } from "../base-context.ts";
import { gatewayErrors } from "../chat/errors.ts";
import { periodStarts } from "../lib/edition-time.ts";
import { createLimiter } from "../lib/limiter.ts";
import { redisKey } from "../lib/redis.ts";
import { LimitAllowances, type ScopeDemand } from "./limit-allowances.ts";

const UNBOUNDED = Number.MAX_SAFE_INTEGER;
/** Longest a concurrency lease can outlive its request (requests time out well before). */
const LEASE_MS = 10 * 60_000;

export interface LimitRequest {
  orgId: string;
  keyId: string;
  projectId: string;
  tier: Tier;
  projectTpm: number | null;
  tokens: number;
  /** The organization's edition time zone: TPD counts calendar days there. */
  timeZone: string;
}

export interface LimitGrant {
  headers: Record<string, string>;
  release(): void;
}

interface ConcurrencyGate {
  acquire(orgId: string, limit: number): Promise<(() => void) | null>;
}

class MemoryGate implements ConcurrencyGate {
  private readonly counts = new Map<string, number>();
  async acquire(orgId: string, limit: number) {
    return this.tryAcquire(orgId, limit);
  }
  tryAcquire(orgId: string, limit: number): (() => void) | null {
    const n = this.counts.get(orgId) ?? 0;
    if (n >= limit) return null;
    this.counts.set(orgId, n + 1);
    return () => {
      const left = (this.counts.get(orgId) ?? 1) - 1;
      if (left <= 0) this.counts.delete(orgId);
      else this.counts.set(orgId, left);
    };
  }
}

const ACQUIRE_LUA = `
redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('zadd', KEYS[1], ARGV[3], ARGV[4])
redis.call('pexpire', KEYS[1], ARGV[5])
return 1`;

class RedisGate implements ConcurrencyGate {
  /** While Redis is unreachable, slots are counted in this process (like the limiters' insurance). */
  private readonly fallback = new MemoryGate();
  constructor(private readonly ctx: BaseContext) {}
  async acquire(orgId: string, limit: number) {
    const redis = this.ctx.redis!;
    const key = redisKey(this.ctx, "conc", orgId);
    const lease = randomUUID();
    const now = Date.now();
    let ok: unknown;
    try {
      // Leases given back this turn go first (the same connection keeps the order): the slot is free for this call.
      for (let leases = takeReleases(this.ctx, key); leases.length; leases = takeReleases(this.ctx, key)) {
        removeLeases(this.ctx, key, leases);
      }
      ok = await redis.eval(ACQUIRE_LUA, 1, key, now, limit, now + LEASE_MS, lease, LEASE_MS);
    } catch {
      return this.fallback.acquire(orgId, limit);
    }
    if (Number(ok) !== 1) return null;
    return () => releaseLease(this.ctx, key, lease);
  }
}

let turnEnd: Promise<void> | null = null;

/**
 * Resolves in this event-loop turn's check phase (setImmediate), once for every caller of the turn. Admissions
 * wait for it before their script, so every admission that started in the turn's I/O callbacks reaches ioredis in
 * one microtask drain and leaves in one pipeline, one write(2): ioredis's auto-pipelining flushes on
 * process.nextTick, which under load came after nearly every single command, and a write to a loopback socket
 * measured ~10 µs of gateway CPU (`npm run bench:profile -- --target postgres`).
 */
function endOfTurn(): Promise<void> {
  turnEnd ??= new Promise((resolve) =>
    setImmediate(() => {
      turnEnd = null;
      resolve();
    }),
  );
  return turnEnd;
}

/**
 * Leases given back are not a command each: they wait for the next admission of their organization, whose
 * script removes them before it counts (so that admission, and every later one, sees the slots free), or for the
 * end of the event-loop turn, when what is left goes as one ZREM per organization, in the pipeline of the turn's
 * admissions. Under load an organization's requests end and start in the same turns, and every Redis command is
 * client CPU (ioredis builds a Command per call): this takes the release's round trip off most requests. A lease
 * whose release is lost expires anyway.
 */
const pendingReleases = new Map<BaseContext, Map<string, string[]>>();

function releaseLease(ctx: BaseContext, key: string, lease: string) {
  let byKey = pendingReleases.get(ctx);
  if (!byKey) {
    byKey = new Map();
    pendingReleases.set(ctx, byKey);
    // With the turn's admissions: their scripts and these ZREMs resume in the same microtask drain, so they leave
    // in the same pipeline (one write), the ZREMs first when they were given back first.
    void endOfTurn().then(() => flushReleases(ctx));
  }
  const leases = byKey.get(key);
  if (leases) leases.push(lease);
  else byKey.set(key, [lease]);
}

/** Most leases one admission script removes (Lua's unpack has a stack limit); the rest wait for the next. */
const RELEASES_PER_SCRIPT = 1000;

/** The leases of `key` given back and not yet removed; the caller removes them. */
function takeReleases(ctx: BaseContext, key: string): string[] {
  const byKey = pendingReleases.get(ctx);
  const leases = byKey?.get(key);
  if (!leases) return [];
  if (leases.length > RELEASES_PER_SCRIPT) return leases.splice(0, RELEASES_PER_SCRIPT);
  byKey!.delete(key);
  return leases;
}

/** Removes every pending lease, one ZREM per organization (at the end of the turn they were given back in). */
function flushReleases(ctx: BaseContext) {
  const byKey = pendingReleases.get(ctx);
  if (!byKey) return;
  pendingReleases.delete(ctx);
  for (const [key, leases] of byKey) removeLeases(ctx, key, leases);
}

function removeLeases(ctx: BaseContext, key: string, leases: string[]) {
  ctx.redis!.zrem(key, ...leases).catch((err: Error) => ctx.log.warn({ err: err.message }, "concurrency release"));
}

/**
 * Lease and counters of one request in one script, so one round trip admits it (with auto-pipelining, the scripts
 * of every request admitted in the same turn leave in one write). KEYS[1] is the organization's lease set, as in
 * ACQUIRE_LUA; KEYS[2..] are rate-limiter-flexible's counter keys, each updated exactly as its RateLimiterRedis
 * does (fixed window from the first hit: SET NX EX, INCRBY, PTTL), so both paths count in the same keys and a
 * refusal gives points back with the limiter's own `reward`. ARGV: now, concurrency limit, lease expiry, lease
 * id, lease ms, the count of leases given back since the last command for this organization and those leases
 * (removed first: see releaseLease), then (points, window seconds) per counter. Returns {0} when no slot is free
 * (nothing counted), else {1, consumed, ttl ms, consumed, ttl ms, …}.
 */
const ADMIT_LUA = `
local released = tonumber(ARGV[6])
if released > 0 then redis.call('zrem', KEYS[1], unpack(ARGV, 7, 6 + released)) end
redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[2]) then return {0} end
redis.call('zadd', KEYS[1], ARGV[3], ARGV[4])
redis.call('pexpire', KEYS[1], ARGV[5])
local out = {1}
for i = 2, #KEYS do
  local secs = ARGV[2 * i + 4 + released]
  redis.call('set', KEYS[i], 0, 'EX', secs, 'NX')
  local consumed = redis.call('incrby', KEYS[i], ARGV[2 * i + 3 + released])
  local ttl = redis.call('pttl', KEYS[i])
  if ttl == -1 then
    redis.call('expire', KEYS[i], secs)
    ttl = 1000 * secs
  end
  out[#out + 1] = consumed
  out[#out + 1] = ttl
end
return out`;

/** One counter a request counts on: its limiter, key, points, window seconds and limit. */
type CounterUse = [RateLimiterAbstract, string, number, number, number];

type AdmitScript = (numKeys: number, ...args: (string | number)[]) => Promise<number[]>;

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** What a limit check reads from a counter (a RateLimiterRes, or the script's answer). */
interface Count {
  consumedPoints: number;
  msBeforeNext: number;
}

/** The request's slot and counts; `giveBack` undoes the counts when the request is refused. */
interface Counted {
  release: () => void;
  counts: (Count | null)[];
  giveBack: () => Promise<void>;
}

/**
 * The counters without Redis (one instance): fixed windows from the first hit, as RateLimiterMemory counts them,
 * but synchronous. Through rate-limiter-flexible a request's four counters cost four promises, four result
 * objects and a Promise.all, about 3 KB allocated per request (`npm run bench:profile -- --heap`); here they are
 * four Map lookups. Expired windows are swept once per window length.
 */
export class WindowCounters {
  private readonly windows = new Map<string, { consumed: number; resetAt: number }>();
  private sweepAt = 0;
  constructor(private readonly windowMs: number) {}

  consume(key: string, points: number, now: number): Count {
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      if (now >= this.sweepAt) this.sweep(now);
      w = { consumed: 0, resetAt: now + this.windowMs };
      this.windows.set(key, w);
    }
    w.consumed += points;
    return { consumedPoints: w.consumed, msBeforeNext: w.resetAt - now };
  }

  giveBack(key: string, points: number) {
    const w = this.windows.get(key);
    if (w) w.consumed -= points;
  }

  private sweep(now: number) {
    this.sweepAt = now + this.windowMs;
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}

export class RateLimits {
  private readonly rpm: RateLimiterAbstract;
  private readonly tpm: RateLimiterAbstract;
  private readonly projectTpm: RateLimiterAbstract;
  private readonly tpd: RateLimiterAbstract;
  private readonly gate: ConcurrencyGate;
  private readonly admitScript: AdmitScript | undefined;
  /** Without Redis: the counters of each limiter, in this process. */
  private readonly local: Map<RateLimiterAbstract, WindowCounters> | undefined;
  /** With Redis: headroom taken ahead, so most admissions need no round trip (limit-allowances.ts). */
  readonly allowances: LimitAllowances | undefined;

  constructor(private readonly ctx: BaseContext) {
    const limiter = (keyPrefix: string, durationSeconds: number) =>
      createLimiter({ ctx, keyPrefix: `gw-${keyPrefix}`, points: UNBOUNDED, durationSeconds }).raw;
    this.rpm = limiter("rpm", 60);
    this.tpm = limiter("tpm", 60);
    this.projectTpm = limiter("ptpm", 60);
    // Keyed by local date (below); the window outlives the day a little so the key expires on its own.
    this.tpd = limiter("tpd", 2 * 86_400);
    this.gate = ctx.redis ? new RedisGate(ctx) : new MemoryGate();
    if (!ctx.redis) {
      this.local = new Map([
        [this.rpm, new WindowCounters(60_000)],
        [this.tpm, new WindowCounters(60_000)],
        [this.projectTpm, new WindowCounters(60_000)],
        [this.tpd, new WindowCounters(2 * 86_400_000)],
      ]);
    }
    if (ctx.redis) {
      // EVALSHA, falling back to EVAL once per connection (ioredis's defined commands).
      ctx.redis.defineCommand("moonportAdmit", { lua: ADMIT_LUA });
      const redis = ctx.redis as unknown as { moonportAdmit: AdmitScript };
      this.admitScript = (...args) => redis.moonportAdmit(...args);
      if (ctx.config.gatewayLimitSyncMs > 0) {
        this.allowances = new LimitAllowances(
          ctx.redis,
          ctx.config.gatewayLimitSyncMs,
          LEASE_MS,
          (key, lease) => releaseLease(ctx, key, lease),
          (err) => ctx.log.warn({ err: err.message }, "rate limit allowance"),
        );
      }
    }
  }

  /** Gives back the headroom this instance took ahead (a clean shutdown). */
  async close(): Promise<void> {
    await this.allowances?.close();
  }

  /** With Redis: the slot and every counter in one script. Undefined when the script could not run. */
  private async countInRedis(
    req: LimitRequest,
    limits: CounterUse[],
    leaseKey: string,
    counterKeys: string[],
  ): Promise<Counted | null | undefined> {
    const lease = randomUUID();
    const keys = [leaseKey, ...counterKeys];
    await endOfTurn();
    const now = Date.now();
    const released = takeReleases(this.ctx, leaseKey);
    const argv: (string | number)[] = [now, req.tier.concurrency, now + LEASE_MS, lease, LEASE_MS, released.length];
    for (const r of released) argv.push(r);
    for (const [, , points, secs] of limits) argv.push(points, secs);
    let answer: number[];
    try {
      answer = await this.admitScript!(keys.length, ...keys, ...argv);
    } catch {
      // The leases it carried were not removed: give them back to the queue.
      for (const r of released) releaseLease(this.ctx, leaseKey, r);
      return undefined;
    }
    if (Number(answer[0]) !== 1) return null;
    return {
      release: () => releaseLease(this.ctx, leaseKey, lease),
      counts: limits.map((_, i) => ({
        consumedPoints: Number(answer[1 + 2 * i]),
        msBeforeNext: Number(answer[2 + 2 * i]),
      })),
      giveBack: () => giveBack(limits),
    };
  }

  /** Without Redis: the slot and every counter in this process, synchronously. */
  private countLocally(
    req: LimitRequest,
    limits: CounterUse[],
    local: Map<RateLimiterAbstract, WindowCounters>,
  ): Counted | null {
    const release = (this.gate as MemoryGate).tryAcquire(req.orgId, req.tier.concurrency);
    if (!release) return null;
    const now = Date.now();
    const counts = limits.map(([l, key, points]) => local.get(l)!.consume(key, points, now));
    return {
      release,
      counts,
      giveBack: async () => {
        for (const [l, key, points] of limits) local.get(l)!.giveBack(key, points);
      },
    };
  }

  /** Without Redis, or when the script failed: the gate, then each limiter (each with its memory fallback). */
  private async countEach(req: LimitRequest, limits: CounterUse[]): Promise<Counted | null> {
    const release = await this.gate.acquire(req.orgId, req.tier.concurrency);
    if (!release) return null;
    const taken: [RateLimiterAbstract, string, number][] = [];
    try {
      const counts = await Promise.all(
        limits.map(async ([limiter, key, points]) => {
          const res = await limiter.consume(key, points);
          taken.push([limiter, key, points]);
          return res;
        }),
      );
      return { release, counts, giveBack: () => giveBack(taken) };
    } catch (err) {
      release();
      await giveBack(taken);
      throw err;
    }
  }

  /** Takes a concurrency slot and counts the request and its tokens, or throws the 429 of the first limit hit. */
  async admit(req: LimitRequest): Promise<LimitGrant> {
    const { orgId, keyId, tier, tokens } = req;
    const now = Date.now();
    const day = periodStarts(now, req.timeZone);
    const tpmLimit = req.projectTpm !== null ? Math.min(req.projectTpm, tier.tpm) : tier.tpm;
    // Counters in this order: RPM, TPM, then the project's TPM and TPD when they apply.
    const limits: CounterUse[] = [
      [this.rpm, orgId, 1, 60, tier.rpm],
      [this.tpm, orgId, tokens, 60, tier.tpm],
    ];
    if (req.projectTpm !== null) limits.push([this.projectTpm, req.projectId, tokens, 60, tpmLimit]);
    if (tier.tpd !== null) limits.push([this.tpd, `${orgId}:${day.day}`, tokens, 2 * 86_400, tier.tpd]);
    let counted: Counted | null | undefined;
    let scope: ScopeDemand | undefined;
    if (this.local) counted = this.countLocally(req, limits, this.local);
    else if (this.admitScript) {
      const leaseKey = redisKey(this.ctx, "conc", orgId);
      const counterKeys = limits.map(([l, key]) => `${l.keyPrefix}:${key}`);
      if (this.allowances) {
        scope = {
          id: counterKeys.join(" "),
          leaseKey,
          concurrency: tier.concurrency,
          keys: counterKeys,
          limits: limits.map((c) => c[4]),
          secs: limits.map((c) => c[3]),
          points: limits.map((c) => c[2]),
        };
        const local = this.allowances.take(scope, now);
        if (local) {
          counted = { release: local.release, counts: local.counts, giveBack: async () => local.giveBack() };
          scope = undefined;
        }
      }
      counted ??= await this.countInRedis(req, limits, leaseKey, counterKeys);
      // The script could not run (Redis is down): no allowance to ask for, the fallback below counts.
      if (counted === undefined) scope = undefined;
    }
    if (counted === undefined) counted = await this.countEach(req, limits);
    if (!counted) {
      throw gatewayErrors.maxConcurrency(orgId, keyId, tier.concurrency, 1, {
        "retry-after": "1",
        ...baseHeaders(tier.rpm, tpmLimit),
      });
    }
    const { release, counts } = counted;
    const rpm = counts[0]!;
    const tpm = counts[1]!;
    const ptpm = req.projectTpm !== null ? counts[2]! : null;
    const tpd = tier.tpd !== null ? counts[limits.length - 1]! : null;
    try {
      const headers = (tokenRes: Count, tokenLimit: number) => ({
        "x-ratelimit-limit-requests": String(tier.rpm),
        "x-ratelimit-remaining-requests": String(Math.max(0, tier.rpm - rpm.consumedPoints)),
        "x-ratelimit-reset-requests": `${seconds(rpm.msBeforeNext)}s`,
        "x-ratelimit-limit-tokens": String(tokenLimit),
        "x-ratelimit-remaining-tokens": String(Math.max(0, tokenLimit - tokenRes.consumedPoints)),
        "x-ratelimit-reset-tokens": `${seconds(tokenRes.msBeforeNext)}s`,
      });
      if (rpm.consumedPoints > tier.rpm) {
        const wait = seconds(rpm.msBeforeNext);
        throw gatewayErrors.maxRequests(orgId, keyId, tier.rpm, wait, {
          ...headers(tpm, tier.tpm),
          "retry-after": String(wait),
        });
      }
      if (tpm.consumedPoints > tier.tpm) {
        // `current` is what the window would hold with this request, as the upstream reports it.
        throw gatewayErrors.tpmLimit(orgId, keyId, tpm.consumedPoints, tier.tpm, {
          ...headers(tpm, tier.tpm),
          "retry-after": String(seconds(tpm.msBeforeNext)),
        });
      }
      if (ptpm && ptpm.consumedPoints > tpmLimit) {
        throw gatewayErrors.tpmLimit(orgId, keyId, ptpm.consumedPoints, tpmLimit, {
          ...headers(ptpm, tpmLimit),
          "retry-after": String(seconds(ptpm.msBeforeNext)),
        });
      }
      if (tpd && tier.tpd !== null && tpd.consumedPoints > tier.tpd) {
        throw gatewayErrors.tpdLimit(orgId, keyId, tpd.consumedPoints, tier.tpd, {
          ...headers(tpm, tier.tpm),
          "retry-after": String(seconds(day.nextDay - now)),
        });
      }
      const tokenView =
        ptpm && tpmLimit - ptpm.consumedPoints < tier.tpm - tpm.consumedPoints
          ? headers(ptpm, tpmLimit)
          : headers(tpm, tier.tpm);
      let released = false;
      // Admitted by the per-request script: a scope admitted often gets an allowance (limit-allowances.ts).
      if (scope) this.allowances!.noteAdmitted(scope);
      return {
        headers: tokenView,
        release: () => {
          if (released) return;
          released = true;
          release();
        },
      };
    } catch (err) {
      release();
      await counted.giveBack();
      throw err;
    }
  }
}

/** Gives back what a refused request counted; a failed store call is not a refusal to report. */
async function giveBack(taken: readonly (readonly [RateLimiterAbstract, string, number, ...unknown[]])[]) {
  await Promise.all(taken.map(([l, key, points]) => l.reward(key, points).catch(() => {})));
}

function baseHeaders(rpm: number, tpm: number): Record<string, string> {
  return { "x-ratelimit-limit-requests": String(rpm), "x-ratelimit-limit-tokens": String(tpm) };
}
