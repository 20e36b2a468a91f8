import {
  checkRiddlePrompt,
  FREE_RIDDLE_SUBMISSIONS_PER_DAY,
  type Locale,
  type RiddleAttempt,
} from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { and, eq, sql } from "drizzle-orm";
import { GatewayError } from "../../chat/errors.ts";
import type { ChatAdmission, ChatMeter } from "../../chat/meter.ts";
import { type ChatRun, startChat } from "../../chat/run-chat.ts";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { assertProjectActive } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import type { KeyIdentity } from "../../metering/pipeline.ts";
import { playgroundError, playgroundKeyId } from "../playground/index.ts";
import { judgeAnswer } from "./judge.ts";
import {
  activeRiddles,
  attemptView,
  ensureRiddleCatalog,
  freeAttemptsToday,
  type RiddleRow,
  riddleContent,
  riddleRules,
  riddleStates,
} from "./riddle-rows.ts";

/**
 * A free submission is not metered: nothing is admitted against the organization's limits or balance and nothing
 * is billed (its cost is the platform's, bounded by the daily quota and the riddle's max_tokens).
 */
const FREE_METER: ChatMeter<KeyIdentity> = {
  admit: async () => ({ headers: {}, release: () => {} }) satisfies ChatAdmission,
  settle: async () => {},
};

interface StartedAttempt {
  run: ChatRun;
  attemptId: string;
  riddle: RiddleRow;
  billed: boolean;
}

/**
 * Starts a submission: the riddle must be active and unlocked for the player and the prompt must keep the riddle's
 * prompt rules (refused before anything runs or counts). The quota slot is taken under the player's row lock, so
 * concurrent submissions cannot exceed the free quota; beyond it the run goes through the gateway pipeline and is
 * billed to the project like a playground run (bill rows under `playground:<userId>`). The riddle fixes the
 * model, max_tokens, response format and system message; the player supplies only the user message.
 */
export async function startRiddleAttempt(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  riddleId: string;
  prompt: string;
  locale: Locale;
  requestId: string;
  signal: AbortSignal;
  onSettleError: (e: unknown) => void;
}): Promise<StartedAttempt> {
  const { ctx, access, project, locale } = opts;
  assertProjectActive(project.project);
  await ensureRiddleCatalog(ctx.db);
  const rows = await activeRiddles(ctx.db);
  const riddle = rows.find((r) => r.id === opts.riddleId);
  if (!riddle) throw new AppError("not_found");
  // Locked first (solves only ever unlock, so reading outside the quota transaction is safe), then the prompt.
  const solved = await ctx.db
    .select({ riddleId: schema.riddleSolves.riddleId })
    .from(schema.riddleSolves)
    .where(eq(schema.riddleSolves.userId, access.userId));
  if (riddleStates(rows, new Set(solved.map((s) => s.riddleId))).get(riddle.id) === "locked") {
    throw new AppError("riddle_locked");
  }
  const problems = checkRiddlePrompt(riddleRules(riddle).prompt, opts.prompt, locale);
  if (problems.length) {
    throw new AppError("riddle_prompt_rejected", {
      params: { reason: problems.map((p) => p.message).join(" ") },
      details: problems.map((p) => ({ path: "prompt", message: p.message })),
    });
  }

  const attemptId = newId("rat");
  const billed = await withTransaction(ctx, async (tx) => {
    await tx.execute(sql`select id from users where id = ${access.userId} for update`);
    const used = await freeAttemptsToday(tx, access.userId, ctx.clock.now(), access.org.edition);
    const billed = used >= FREE_RIDDLE_SUBMISSIONS_PER_DAY;
    await tx.insert(schema.riddleAttempts).values({
      id: attemptId,
      userId: access.userId,
      riddleId: riddle.id,
      orgId: access.org.id,
      projectId: project.project.id,
      requestId: opts.requestId,
      prompt: opts.prompt,
      status: "running",
      billed,
      createdAt: ctx.clock.now(),
    });
    return billed;
  });

  const system = riddleContent(riddle)[locale].system;
  const body = {
    model: riddle.model,
    messages: [...(system ? [{ role: "system", content: system }] : []), { role: "user", content: opts.prompt }],
    max_tokens: riddle.maxTokens,
    stream: true,
    ...(riddle.responseFormat === "json_object" ? { response_format: { type: "json_object" } } : {}),
  };
  const identity: KeyIdentity = {
    keyId: playgroundKeyId(access.userId),
    orgId: access.org.id,
    projectId: project.project.id,
    currency: access.org.currency,
  };
  try {
    const run = await startChat({
      meter: billed ? ctx.meter : FREE_METER,
      engines: ctx.engines,
      key: identity,
      cacheScope: identity.orgId,
      body,
      requestId: opts.requestId,
      signal: opts.signal,
      onSettleError: opts.onSettleError,
    });
    return { run, attemptId, riddle, billed };
  } catch (e) {
    await failRiddleAttempt(ctx, attemptId);
    throw e instanceof GatewayError ? playgroundError(e) : e;
  }
}

/** A run that produced no judged answer gives its quota slot back and leaves no history. */
export async function failRiddleAttempt(ctx: AppContext, attemptId: string): Promise<void> {
  await ctx.db
    .update(schema.riddleAttempts)
    .set({ status: "failed" })
    .where(and(eq(schema.riddleAttempts.id, attemptId), eq(schema.riddleAttempts.status, "running")));
}

/**
 * Judges the finished answer and records the verdict; a first pass records the solve (unlocking the next riddle of
 * the track and making the reward claimable). `solvedNow` is true only for the player's first solve.
 */
export async function judgeRiddleAttempt(opts: {
  ctx: AppContext;
  userId: string;
  started: StartedAttempt;
  answer: string;
  locale: Locale;
}): Promise<{ attempt: RiddleAttempt; solvedNow: boolean }> {
  const { ctx, started } = opts;
  const verdict = judgeAnswer(riddleRules(started.riddle).answer, opts.answer, opts.locale);
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx
      .update(schema.riddleAttempts)
      .set({ status: "judged", answer: opts.answer, passed: verdict.passed, checks: verdict.checks })
      .where(eq(schema.riddleAttempts.id, started.attemptId))
      .returning();
    let solvedNow = false;
    if (verdict.passed) {
      const inserted = await tx
        .insert(schema.riddleSolves)
        .values({
          userId: opts.userId,
          riddleId: started.riddle.id,
          attemptId: started.attemptId,
          solvedAt: row!.createdAt,
        })
        .onConflictDoNothing()
        .returning({ riddleId: schema.riddleSolves.riddleId });
      solvedNow = inserted.length > 0;
    }
    return { attempt: attemptView(row!), solvedNow };
  });
}
