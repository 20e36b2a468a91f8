/**
 * Durable background jobs in the database (`jobs` table). Any instance may run any due job: a claim marks rows
 * with this instance's id and a lease (`locked_until`), selecting them `FOR UPDATE SKIP LOCKED`, so on PostgreSQL
 * several instances never claim the same row; PGlite has one process and runs them in it. Domain time comes from
 * `ctx.clock`, so tests move it and call `runDue()` instead of waiting.
 *
 *  - one-off jobs: `enqueue({name, payload, runAt?, key?})`, optionally inside the caller's transaction (the job
 *    exists exactly when the change that asked for it committed); a `key` makes it a singleton;
 *  - periodic jobs: `periodic({name, schedule, handler})`, one row per name (key `periodic:<name>`) moved to its
 *    next run after each run (jobs/schedule.ts);
 *  - a failure is retried with exponential backoff (1 s, 2 s, 4 s … up to an hour) until `maxAttempts`, then the
 *    row is kept with status `failed` and its last error (a periodic job instead waits for its next run); every
 *    failure is logged;
 *  - a running job's lease is extended while it runs; a crashed instance's jobs are claimed again once their lease
 *    ran out. Handlers therefore run at least once per enqueue and must be idempotent (the billing core's credits
 *    are, by reference); two live instances never run the same claim.
 */

import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { newId, schema, type Tx } from "@moonport/db";
import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { BaseContext } from "../base-context.ts";
import { describeSchedule, nextRun, type Schedule } from "./schedule.ts";

type JobRow = typeof schema.jobs.$inferSelect;

/** `C`: the context handlers get (AppContext in the app; the runner itself needs only BaseContext of it). */
interface JobContext<C> {
  ctx: C;
  job: Pick<JobRow, "id" | "name" | "attempts" | "runAt" | "key">;
  /** The domain time at which the job was claimed. */
  now: Date;
}

export interface JobDefinition<C, P = unknown> {
  name: string;
  handler: (payload: P, job: JobContext<C>) => Promise<void>;
  /** Attempts before a one-off job is parked as failed (default 10). */
  maxAttempts?: number;
}

export interface PeriodicDefinition<C> {
  name: string;
  schedule: Schedule;
  /** `scheduledAt`: the run this is (a daily job learns which day to close). */
  handler: (payload: { scheduledAt: string }, job: JobContext<C>) => Promise<void>;
}

export interface JobRunner<C> {
  define<P>(def: JobDefinition<C, P>): void;
  periodic(def: PeriodicDefinition<C>): void;
  /** Adds a job; with `tx` (from withTransaction or db.transaction) it commits with the caller's change. Returns its id, or null when `key` exists. */
  enqueue(
    job: { name: string; payload?: unknown; runAt?: Date; key?: string; maxAttempts?: number },
    opts?: { tx?: Tx },
  ): Promise<string | null>;
  /** Claims and runs what is due now (by ctx.clock), batch after batch; returns how many jobs ran. */
  runDue(opts?: { batch?: number; max?: number }): Promise<number>;
  /** Polls every `pollMs` (real time) until stop(). */
  start(opts?: { pollMs?: number }): void;
  /** Stops polling and waits for the jobs running now (graceful shutdown). */
  stop(): Promise<void>;
  readonly instanceId: string;
}

const BACKOFF_BASE_MS = 1000;
const BACKOFF_MAX_MS = 3_600_000;
const LEASE_MS = 5 * 60_000;
const PERIODIC_PREFIX = "periodic:";

export function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

/**
 * Adds a job row (the runner's `enqueue`); usable without a runner, e.g. by the CLI, whose jobs a running server
 * executes. With `tx`, the job exists exactly when the caller's change commits.
 */
export async function enqueueJob(
  ctx: Pick<BaseContext, "db" | "clock">,
  job: Parameters<JobRunner<unknown>["enqueue"]>[0],
  opts: Parameters<JobRunner<unknown>["enqueue"]>[1] = {},
): Promise<string | null> {
  const db = opts.tx ?? ctx.db;
  const rows = await db
    .insert(schema.jobs)
    .values({
      id: newId("job"),
      name: job.name,
      key: job.key ?? null,
      payload: (job.payload ?? {}) as object,
      runAt: job.runAt ?? ctx.clock.now(),
      ...(job.maxAttempts ? { maxAttempts: job.maxAttempts } : {}),
    })
    .onConflictDoNothing()
    .returning({ id: schema.jobs.id });
  return rows[0]?.id ?? null;
}

export function createJobRunner<C extends BaseContext>(ctx: C): JobRunner<C> {
  const instanceId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const defs = new Map<string, JobDefinition<C, never>>();
  const schedules = new Map<string, Schedule>();
  let scheduled = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<unknown> | null = null;

  async function ensurePeriodicRows() {
    const now = ctx.clock.now().getTime();
    for (const [name, schedule] of schedules) {
      const spec = JSON.stringify(schedule);
      const runAt = new Date(nextRun(schedule, now));
      // A changed schedule moves the row; an unchanged one keeps its run time (and a pending retry).
      await ctx.db
        .insert(schema.jobs)
        .values({ id: newId("job"), name, key: PERIODIC_PREFIX + name, payload: { schedule: spec }, runAt })
        .onConflictDoUpdate({
          target: schema.jobs.key,
          set: { payload: { schedule: spec }, runAt, status: "pending", attempts: 0, updatedAt: sql`now()` },
          setWhere: sql`${schema.jobs.payload}->>'schedule' is distinct from ${spec}`,
        });
    }
    scheduled = true;
  }

  async function claim(now: Date, limit: number): Promise<JobRow[]> {
    const names = [...defs.keys()];
    if (!names.length) return [];
    return ctx.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: schema.jobs.id })
        .from(schema.jobs)
        .where(
          and(
            eq(schema.jobs.status, "pending"),
            lte(schema.jobs.runAt, now),
            or(isNull(schema.jobs.lockedUntil), lte(schema.jobs.lockedUntil, now)),
            inArray(schema.jobs.name, names),
          ),
        )
        .orderBy(asc(schema.jobs.runAt), asc(schema.jobs.id))
        .limit(limit)
        .for("update", { skipLocked: true });
      if (!due.length) return [];
      return tx
        .update(schema.jobs)
        .set({
          lockedBy: instanceId,
          lockedUntil: new Date(now.getTime() + LEASE_MS),
          attempts: sql`${schema.jobs.attempts} + 1`,
          updatedAt: sql`now()`,
        })
        .where(
          inArray(
            schema.jobs.id,
            due.map((d) => d.id),
          ),
        )
        .returning();
    });
  }

  const mine = (id: string) => and(eq(schema.jobs.id, id), eq(schema.jobs.lockedBy, instanceId));

  async function runOne(job: JobRow, now: Date) {
    const def = defs.get(job.name)!;
    const periodic = job.key?.startsWith(PERIODIC_PREFIX) ? schedules.get(job.name) : undefined;
    // Keep the lease while the handler runs (an export may take minutes).
    const heartbeat = setInterval(() => {
      ctx.db
        .update(schema.jobs)
        .set({ lockedUntil: new Date(ctx.clock.now().getTime() + LEASE_MS) })
        .where(mine(job.id))
        .catch((err) => ctx.log.warn({ err, job: job.id }, "job lease extension failed"));
    }, LEASE_MS / 3);
    heartbeat.unref();
    try {
      const payload = periodic ? { scheduledAt: job.runAt.toISOString() } : job.payload;
      await ctx.observability.job(job.name, { "moonport.job.id": job.id, "moonport.job.attempt": job.attempts }, () =>
        def.handler(payload as never, { ctx, job, now }),
      );
      if (periodic) {
        const next = new Date(nextRun(periodic, Math.max(now.getTime(), job.runAt.getTime())));
        await ctx.db
          .update(schema.jobs)
          .set({ runAt: next, attempts: 0, lockedBy: null, lockedUntil: null, lastError: null, updatedAt: sql`now()` })
          .where(mine(job.id));
      } else {
        await ctx.db.delete(schema.jobs).where(mine(job.id));
      }
    } catch (err) {
      const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      const exhausted = job.attempts >= (periodic ? Number.POSITIVE_INFINITY : job.maxAttempts);
      let runAt = new Date(now.getTime() + backoffMs(job.attempts));
      if (periodic) {
        // A periodic job retries, but never past its next regular run.
        const regular = nextRun(periodic, Math.max(now.getTime(), job.runAt.getTime()));
        if (runAt.getTime() >= regular) runAt = new Date(regular);
      }
      ctx.log.error(
        { err, job: job.id, name: job.name, attempts: job.attempts, retryAt: exhausted ? null : runAt },
        exhausted ? "job failed for the last time" : "job failed; will retry",
      );
      await ctx.db
        .update(schema.jobs)
        .set({
          status: exhausted ? "failed" : "pending",
          runAt,
          lockedBy: null,
          lockedUntil: null,
          lastError: message.slice(0, 2000),
          updatedAt: sql`now()`,
        })
        .where(mine(job.id));
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function runDue(opts: { batch?: number; max?: number } = {}): Promise<number> {
    if (!scheduled) await ensurePeriodicRows();
    const batch = opts.batch ?? 10;
    const max = opts.max ?? Number.POSITIVE_INFINITY;
    let ran = 0;
    while (ran < max && !stopped) {
      const now = ctx.clock.now();
      const claimed = await claim(now, Math.min(batch, max - ran));
      if (!claimed.length) break;
      for (const job of claimed) await runOne(job, now);
      ran += claimed.length;
    }
    return ran;
  }

  const runner: JobRunner<C> = {
    instanceId,
    define(def) {
      if (defs.has(def.name)) throw new Error(`job ${def.name} is defined twice`);
      defs.set(def.name, def as JobDefinition<C, never>);
    },
    periodic(def) {
      runner.define({ name: def.name, handler: def.handler });
      nextRun(def.schedule, 0); // validates the schedule now, not at the first run
      schedules.set(def.name, def.schedule);
      scheduled = false;
      ctx.log.debug({ name: def.name, schedule: describeSchedule(def.schedule) }, "periodic job");
    },
    enqueue: (job, opts = {}) => enqueueJob(ctx, job, opts),
    runDue(opts) {
      const p = runDue(opts);
      running = p.finally(() => {
        if (running === p) running = null;
      });
      return p;
    },
    start(opts = {}) {
      const pollMs = opts.pollMs ?? 1000;
      stopped = false;
      const tick = async () => {
        if (stopped) return;
        try {
          await runner.runDue();
        } catch (err) {
          ctx.log.error({ err }, "job runner poll failed");
        }
        if (!stopped) timer = setTimeout(tick, pollMs);
      };
      timer = setTimeout(tick, 0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      // The jobs already claimed finish (a claimed job left unrun would wait out its lease); runDue claims no
      // further batch once stopped.
      await running?.catch(() => {});
    },
  };
  return runner;
}
