/**
 * Admission without a Redis round trip while an organization is far from its limits
 * (docs/decisions/0004-limit-allowances.md).
 *
 * With Redis, every admission used to be one script: exact across instances, and about 15 % of a request's CPU
 * in the Redis client (`npm run bench:ab -- <ref> --db postgres` with the counting done in memory instead: 0.85 ×
 * non-streaming, 0.89 × streaming). An allowance is a part of the remaining headroom of one scope (an
 * organization's RPM and TPM counters, plus its project's TPM and the day's TPD when they apply, and its
 * concurrency lease set) that this instance takes ahead, in Redis: other instances see it as consumed, so the
 * instances together never admit more than the limits, and this one admits from it in memory.
 *
 * - It is asked for only once a scope has had two or more admissions through the per-request script in one sync
 *   interval (`GATEWAY_LIMIT_SYNC_MS`), so a quiet organization costs nothing more.
 * - Every interval one script per active scope tops it up to about two intervals of its recent demand, never
 *   more than 1/SHARE of what is left of a limit (1/SLOT_SHARE of the free concurrency). Near a limit the top-up
 *   is refused, the allowance runs out and is given back, and every request goes through the exact per-request
 *   script again: every 429 still comes from there.
 * - Slots are lease members of the organization's lease set, held by the allowance and reused by its requests;
 *   like a request's own lease they expire (LEASE_MS, refreshed while held) if this process dies.
 * - A request that finds the allowance short goes through the script, and the allowance is topped up at once.
 * - An allowance idle for IDLE_SYNCS intervals, past its window, or met by a request under other limits (a tier
 *   change) is given back at once: its unused counts are subtracted from the same window (the script tells
 *   windows apart by their end on Redis's clock), its free slots removed.
 *
 * The cost of this is what one instance holds unused, at most ~2 intervals of demand (and never more than
 * 1/SHARE of the headroom): other instances near a limit may refuse a little early, never late.
 */
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";

/** Part of the headroom one top-up may take: a few instances can each hold one without starving the others. */
const SHARE = 8;
const SLOT_SHARE = 4;
/** Most slots one allowance holds (the script's argument list stays far below Lua's stack limit). */
const MAX_SLOTS = 1000;
/** Intervals without a request and without a request in flight before the allowance is given back. */
const IDLE_SYNCS = 3;
/** Each top-up brings the allowance to about this many intervals of the last interval's demand… */
const INTERVALS_AHEAD = 2;
/** …and to at least this many requests' worth. */
const MIN_REQUESTS = 4;
/** How long a scope whose top-up was refused goes through the per-request script before asking again. */
const DENIED_MS = 1000;
/** Held slots get a fresh expiry this often (their expiry is the per-request lease's, LEASE_MS). */
const REFRESH_MS = 60_000;

/**
 * KEYS[1]: the lease set; KEYS[2..]: the counters, in rate-limiter-flexible's keys and fixed windows (SET NX EX as
 * its RateLimiterRedis and ADMIT_LUA do). ARGV: mode (1 top up, 0 give back only), now, lease expiry, concurrency
 * limit, slot share, share, least new slots, then three lists each led by its length (members to remove, members
 * to refresh, new members offered), then per counter: points to give back, the window end they were granted in
 * (Redis ms, 0 = none), wanted, least acceptable, limit, window seconds.
 * Returns {granted 0/1, new slots, then per counter: consumed (after), ms to the window's end, its end (Redis ms),
 * points granted}.
 */
const ALLOWANCE_LUA = `
local t = redis.call('time')
local rnow = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local mode = tonumber(ARGV[1])
local i = 8
local n = tonumber(ARGV[i])
if n > 0 then redis.call('zrem', KEYS[1], unpack(ARGV, i + 1, i + n)) end
i = i + n + 1
n = tonumber(ARGV[i])
for j = i + 1, i + n do redis.call('zadd', KEYS[1], 'XX', ARGV[3], ARGV[j]) end
i = i + n + 1
local offered = tonumber(ARGV[i])
local firstNew = i + 1
i = i + offered + 1
redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[2])
local granted = mode == 1
local slots = 0
if granted then
  local free = tonumber(ARGV[4]) - redis.call('zcard', KEYS[1])
  slots = math.min(offered, math.floor(free / tonumber(ARGV[5])))
  if slots < 0 then slots = 0 end
  if slots < tonumber(ARGV[7]) then granted = false end
end
local share = tonumber(ARGV[6])
local out = {0, 0}
local grants = {}
for k = 2, #KEYS do
  local back, windowEnd, want, least, limit, secs =
    tonumber(ARGV[i]), tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3]), tonumber(ARGV[i + 4]), ARGV[i + 5]
  i = i + 6
  -- A give-back never opens a window, and gives nothing to a counter that is gone (PTTL -2).
  if mode == 1 then redis.call('set', KEYS[k], 0, 'EX', secs, 'NX') end
  local ttl = redis.call('pttl', KEYS[k])
  if ttl == -1 then
    redis.call('expire', KEYS[k], secs)
    ttl = 1000 * tonumber(secs)
  end
  local ends = rnow + ttl
  if back > 0 and ttl >= 0 and windowEnd > 0 and math.abs(ends - windowEnd) < 500 * tonumber(secs) then
    redis.call('decrby', KEYS[k], string.format('%d', back))
  end
  local consumed = tonumber(redis.call('get', KEYS[k])) or 0
  local g = math.min(want, math.floor((limit - consumed) / share))
  if g < least then granted = false end
  if g < 0 then g = 0 end
  grants[k] = g
  out[#out + 1] = consumed
  out[#out + 1] = ttl
  out[#out + 1] = ends
  out[#out + 1] = 0
end
if granted then
  for k = 2, #KEYS do
    if grants[k] > 0 then
      redis.call('incrby', KEYS[k], string.format('%d', grants[k]))
      out[4 * (k - 2) + 3] = out[4 * (k - 2) + 3] + grants[k]
      out[4 * (k - 2) + 6] = grants[k]
    end
  end
  if slots > 0 then
    local args = {}
    for j = firstNew, firstNew + slots - 1 do
      args[#args + 1] = ARGV[3]
      args[#args + 1] = ARGV[j]
    end
    redis.call('zadd', KEYS[1], unpack(args))
    redis.call('pexpire', KEYS[1], tonumber(ARGV[3]) - tonumber(ARGV[2]))
  end
  out[1] = 1
  out[2] = slots
end
return out`;

/** One scope's limits as a request presents them; `id` names the scope (its counter keys). */
export interface ScopeDemand {
  id: string;
  leaseKey: string;
  concurrency: number;
  keys: string[];
  limits: number[];
  secs: number[];
  /** What this request counts on each counter. */
  points: number[];
}

/** What an admission from an allowance reads, as the per-request script's answer reads. */
interface LocalCount {
  consumedPoints: number;
  msBeforeNext: number;
}

interface LocalAdmission {
  counts: LocalCount[];
  release(): void;
  /** Undoes the counts (the request was refused after all). */
  giveBack(): void;
}

class Allowance {
  /** Free lease members; `held` also has those of requests in flight. */
  readonly free: string[] = [];
  readonly held = new Set<string>();
  inFlight = 0;
  peak = 0;
  live = false;
  retired = false;
  /** The top-up on its way, if any. */
  pending: Promise<void> | undefined;
  idleSyncs = 0;
  /** Local ms after which the grant may belong to a window that has ended. */
  validUntil = 0;
  refreshedAt = 0;
  readonly left: number[];
  readonly used: number[];
  /** Per counter, as of the last answer: consumed in Redis (this allowance's grants included), reset time, window end. */
  readonly consumed: number[];
  readonly resetAt: number[];
  readonly windowEnd: number[];

  constructor(readonly demand: ScopeDemand) {
    const n = demand.keys.length;
    this.left = new Array<number>(n).fill(0);
    this.used = new Array<number>(n).fill(0);
    this.consumed = new Array<number>(n).fill(0);
    this.resetAt = new Array<number>(n).fill(0);
    this.windowEnd = new Array<number>(n).fill(0);
  }

  /** Admitted under the same limits (a tier or override change makes a new allowance). */
  sameLimits(d: ScopeDemand): boolean {
    const a = this.demand;
    if (a.concurrency !== d.concurrency || a.limits.length !== d.limits.length) return false;
    for (let k = 0; k < d.limits.length; k++) if (a.limits[k] !== d.limits[k]) return false;
    return true;
  }
}

type AllowanceScript = (numKeys: number, ...args: (string | number)[]) => Promise<number[]>;

export class LimitAllowances {
  private readonly scopes = new Map<string, Allowance>();
  /** Scopes admitted through the per-request script this interval, with how often and their last demand. */
  private readonly wanted = new Map<string, { demand: ScopeDemand; times: number }>();
  private readonly deniedUntil = new Map<string, number>();
  private readonly script: AllowanceScript;
  private readonly memberPrefix = randomBytes(6).toString("base64url");
  private members = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Admissions from an allowance and by the per-request script, and top-up scripts run (metrics, tests). */
  admittedLocally = 0;
  admittedByScript = 0;
  syncs = 0;

  constructor(
    redis: Redis,
    private readonly syncMs: number,
    private readonly leaseMs: number,
    /** Gives a request's lease back the per-request way (limits.ts), for slots of an allowance given back. */
    private readonly releaseLease: (leaseKey: string, member: string) => void,
    private readonly onError: (err: Error) => void,
  ) {
    redis.defineCommand("moonportAllowance", { lua: ALLOWANCE_LUA });
    const r = redis as unknown as { moonportAllowance: AllowanceScript };
    this.script = (...args) => r.moonportAllowance(...args);
  }

  /** Admits from the scope's allowance, or returns undefined: the caller uses the per-request script. */
  take(d: ScopeDemand, now: number): LocalAdmission | undefined {
    const a = this.scopes.get(d.id);
    if (!a?.live) return undefined;
    const left = a.left;
    const points = d.points;
    if (now >= a.validUntil || !a.sameLimits(d)) {
      // Given back before the caller's script runs (the same connection keeps the order), so that script sees
      // the whole headroom.
      void this.retire(a);
      return undefined;
    }
    let fits = a.free.length > 0;
    for (let k = 0; fits && k < points.length; k++) if (left[k]! < points[k]!) fits = false;
    if (!fits) {
      // Demand outran the last top-up (top-ups near a limit are refused, and then the allowance is gone): this
      // request goes through the script, and the allowance is topped up now rather than at the next interval.
      if (!a.pending) void this.sync(a, now, true);
      return undefined;
    }
    const member = a.free.pop()!;
    a.inFlight++;
    if (a.inFlight > a.peak) a.peak = a.inFlight;
    a.idleSyncs = 0;
    const counts: LocalCount[] = [];
    for (let k = 0; k < points.length; k++) {
      left[k]! -= points[k]!;
      a.used[k]! += points[k]!;
      counts.push({
        consumedPoints: Math.min(d.limits[k]!, a.consumed[k]! - left[k]!),
        msBeforeNext: Math.max(0, a.resetAt[k]! - now),
      });
    }
    this.admittedLocally++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      a.inFlight--;
      if (a.retired) {
        a.held.delete(member);
        this.releaseLease(d.leaseKey, member);
      } else a.free.push(member);
    };
    return {
      counts,
      release,
      giveBack: () => {
        if (a.retired) return;
        for (let k = 0; k < points.length; k++) {
          left[k]! += points[k]!;
          a.used[k]! -= points[k]!;
        }
      },
    };
  }

  /** A request of this scope was admitted by the per-request script: two in one interval ask for an allowance. */
  noteAdmitted(d: ScopeDemand) {
    this.admittedByScript++;
    if (this.closed || this.scopes.has(d.id)) return;
    const w = this.wanted.get(d.id);
    if (w) {
      w.times++;
      w.demand = d;
    } else this.wanted.set(d.id, { demand: d, times: 1 });
    this.timer ??= setInterval(() => this.tick(), this.syncMs).unref();
  }

  /** Gives every allowance back (a clean shutdown); admissions go through the per-request script from now on. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.timer = undefined;
    const all = [...this.scopes.values()];
    await Promise.all(all.map((a) => a.pending));
    await Promise.all(all.map((a) => this.retire(a)));
  }

  /** Stops without giving back (a crash): the grants end with their windows, the slots with their leases. */
  abandon() {
    this.closed = true;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick() {
    const now = Date.now();
    for (const [id, w] of this.wanted) {
      if (w.times >= 2 && (this.deniedUntil.get(id) ?? 0) <= now) {
        const a = new Allowance(w.demand);
        // The first grant is sized by the demand the per-request script has seen this interval.
        for (let k = 0; k < a.used.length; k++) a.used[k] = w.times * w.demand.points[k]!;
        a.peak = Math.min(w.times, MAX_SLOTS);
        this.scopes.set(id, a);
        void this.sync(a, now);
      }
    }
    this.wanted.clear();
    for (const a of this.scopes.values()) {
      if (a.pending) continue;
      const idle = a.inFlight === 0 && a.used.every((u) => u === 0);
      if (idle && ++a.idleSyncs >= IDLE_SYNCS) void this.retire(a);
      else if (!idle) void this.sync(a, now);
    }
    if (this.scopes.size === 0 && this.wanted.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
    for (const [id, until] of this.deniedUntil) if (until <= now) this.deniedUntil.delete(id);
  }

  /**
   * Tops the allowance up to about INTERVALS_AHEAD intervals of its last interval's demand; `early`, between
   * intervals, when a request found it short (the interval's demand keeps counting).
   */
  private sync(a: Allowance, now: number, early = false): Promise<void> | undefined {
    const d = a.demand;
    const n = d.keys.length;
    const counters: (string | number)[] = [];
    let wants = false;
    for (let k = 0; k < n; k++) {
      const per = d.points[k]!;
      const target = Math.max(INTERVALS_AHEAD * a.used[k]!, MIN_REQUESTS * per);
      const want = Math.max(0, target - a.left[k]!);
      if (want > 0) wants = true;
      // A grant that cannot serve one more request is no grant.
      const least = a.left[k]! < per ? per : 0;
      counters.push(0, a.windowEnd[k]!, want, least, d.limits[k]!, d.secs[k]!);
      if (!early) a.used[k] = 0;
    }
    const targetSlots = Math.min(MAX_SLOTS, Math.ceil(a.peak * 1.5) + 2);
    if (!early) a.peak = a.inFlight;
    const offered: string[] = [];
    for (let held = a.held.size; held < targetSlots; held++) offered.push(`${this.memberPrefix}.${this.members++}`);
    const remove: string[] = [];
    while (a.held.size - remove.length > 2 * targetSlots && a.free.length) remove.push(a.free.pop()!);
    for (const m of remove) a.held.delete(m);
    const refresh = now - a.refreshedAt >= REFRESH_MS && a.held.size ? [...a.held] : [];
    if (!wants && !offered.length && !remove.length && !refresh.length && a.live) return;
    this.syncs++;
    a.pending = this.topUp(a, now, counters, offered, remove, refresh);
    return a.pending;
  }

  private async topUp(
    a: Allowance,
    now: number,
    counters: (string | number)[],
    offered: string[],
    remove: string[],
    refresh: string[],
  ): Promise<void> {
    const d = a.demand;
    const n = d.keys.length;
    let answer: number[];
    try {
      answer = await this.run(
        d,
        now,
        { topUp: true, leastSlots: a.free.length ? 0 : 1, remove, refresh, offered },
        counters,
      );
    } catch (err) {
      // Redis is unreachable: what was taken ends with its windows and leases; the per-request path (and its
      // in-memory fallback) takes over.
      a.pending = undefined;
      this.drop(a);
      this.deniedUntil.set(d.id, Date.now() + DENIED_MS);
      this.onError(err as Error);
      return;
    }
    a.pending = undefined;
    if (refresh.length) a.refreshedAt = now;
    const granted = Number(answer[0]) === 1;
    const slots = Number(answer[1]);
    for (let k = 0; k < n; k++) {
      const consumed = Number(answer[2 + 4 * k]);
      const ttl = Number(answer[3 + 4 * k]);
      const ends = Number(answer[4 + 4 * k]);
      // A grant of an earlier window ended with it.
      if (Math.abs(ends - a.windowEnd[k]!) >= 500 * d.secs[k]!) a.left[k] = 0;
      a.left[k]! += Number(answer[5 + 4 * k]);
      a.consumed[k] = consumed;
      a.resetAt[k] = now + ttl;
      a.windowEnd[k] = ends;
    }
    if (granted) {
      if (slots && !a.refreshedAt) a.refreshedAt = now;
      for (let j = 0; j < slots; j++) {
        a.free.push(offered[j]!);
        a.held.add(offered[j]!);
      }
      // Stop admitting from it before its earliest window can end (local and Redis clocks need not agree).
      a.validUntil = Math.min(...a.resetAt) - 2 * this.syncMs - 50;
      a.live = true;
    } else {
      // Near a limit: what is left goes back, and the scope's requests go through the per-request script.
      this.deniedUntil.set(d.id, Date.now() + DENIED_MS);
      this.drop(a);
    }
    if (a.retired) await this.giveBack(a);
  }

  /** One ALLOWANCE_LUA call (its argument layout is documented there). */
  private run(
    d: ScopeDemand,
    now: number,
    o: { topUp: boolean; leastSlots: number; remove: string[]; refresh: string[]; offered: string[] },
    counters: (string | number)[],
  ): Promise<number[]> {
    return this.script(
      1 + d.keys.length,
      d.leaseKey,
      ...d.keys,
      o.topUp ? 1 : 0,
      now,
      now + this.leaseMs,
      d.concurrency,
      SLOT_SHARE,
      SHARE,
      o.leastSlots,
      o.remove.length,
      ...o.remove,
      o.refresh.length,
      ...o.refresh,
      o.offered.length,
      ...o.offered,
      ...counters,
    );
  }

  /** Gives back what the allowance holds unused; its requests in flight give their slots back as they end. */
  private async retire(a: Allowance): Promise<void> {
    if (a.retired) return;
    this.drop(a);
    // A top-up still on its way is given back when its answer arrives (topUp()).
    if (!a.pending) await this.giveBack(a);
  }

  /** Out of use: no admission comes from it any more; what it holds is the caller's to give back. */
  private drop(a: Allowance) {
    a.retired = true;
    a.live = false;
    if (this.scopes.get(a.demand.id) === a) this.scopes.delete(a.demand.id);
  }

  private async giveBack(a: Allowance): Promise<void> {
    const d = a.demand;
    const remove = a.free.splice(0);
    for (const m of remove) a.held.delete(m);
    const counters: (string | number)[] = [];
    let any = remove.length > 0;
    for (let k = 0; k < d.keys.length; k++) {
      if (a.left[k]! > 0) any = true;
      counters.push(a.left[k]!, a.windowEnd[k]!, 0, 0, d.limits[k]!, d.secs[k]!);
      a.left[k] = 0;
    }
    if (!any) return;
    const now = Date.now();
    try {
      await this.run(d, now, { topUp: false, leastSlots: 0, remove, refresh: [], offered: [] }, counters);
    } catch (err) {
      // Not given back: the counts end with their window, the slots with their leases.
      this.onError(err as Error);
    }
  }
}
