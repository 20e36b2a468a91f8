import {
  type Currency,
  EDITION_TIME_ZONE,
  type Edition,
  type Locale,
  parseMoney,
  RIDDLE_DIFFICULTIES,
  type RiddleAttempt,
  type RiddleCheck,
  type RiddleDifficulty,
  type RiddleRules,
  riddleRuleText,
} from "@moonport/contracts";
import { type Db, schema, type Tx } from "@moonport/db";
import { and, asc, isNull, sql } from "drizzle-orm";
import { localDate, startOfLocalDay } from "../../lib/edition-time.ts";
import { BUILT_IN_RIDDLES, builtInPositions, type RiddleDefinition } from "./catalog.ts";

export type RiddleRow = typeof schema.riddles.$inferSelect;
type LocalText = { title: string; story: string; goal: string; system: string };

export const riddleContent = (r: RiddleRow) => r.content as Record<Locale, LocalText>;
export const riddleRules = (r: RiddleRow) => r.rules as RiddleRules;
export const riddleReward = (r: RiddleRow, currency: Currency): bigint =>
  parseMoney((r.reward as Record<Currency, string>)[currency]);

const seeded = new WeakMap<object, Promise<void>>();

/**
 * Inserts the built-in riddles that are missing (by id), once per database handle. Never overwrites a row, so an
 * operator's edit, move or retirement survives restarts; a new built-in riddle goes to the end of its track.
 */
export function ensureRiddleCatalog(db: Db): Promise<void> {
  let p = seeded.get(db);
  if (!p) {
    p = seedCatalog(db).catch((e) => {
      seeded.delete(db);
      throw e;
    });
    seeded.set(db, p);
  }
  return p;
}

async function seedCatalog(db: Db): Promise<void> {
  const positions = builtInPositions();
  await db
    .insert(schema.riddles)
    .values(BUILT_IN_RIDDLES.map((d) => rowValues(d, positions.get(d.id)!)))
    .onConflictDoNothing({ target: schema.riddles.id });
}

export function rowValues(d: RiddleDefinition, position: number): typeof schema.riddles.$inferInsert {
  return {
    id: d.id,
    difficulty: d.difficulty,
    position,
    model: d.model,
    maxTokens: d.maxTokens,
    responseFormat: d.responseFormat,
    content: d.content,
    rules: d.rules,
    reward: d.reward,
    voucherDays: d.voucherDays,
    solutions: d.solutions ?? null,
  };
}

/** The row as a definition again (CLI `riddles show` prints it, `riddles edit` merges a change into it). */
export function rowDefinition(r: RiddleRow): RiddleDefinition {
  return {
    id: r.id,
    difficulty: r.difficulty,
    model: r.model,
    maxTokens: r.maxTokens,
    responseFormat: r.responseFormat,
    content: r.content as RiddleDefinition["content"],
    rules: riddleRules(r),
    reward: r.reward as RiddleDefinition["reward"],
    voucherDays: r.voucherDays,
    ...(r.solutions ? { solutions: r.solutions as NonNullable<RiddleDefinition["solutions"]> } : {}),
  };
}

/** Active riddles, each track in its order. */
export async function activeRiddles(db: Db | Tx): Promise<RiddleRow[]> {
  const rows = await db
    .select()
    .from(schema.riddles)
    .where(isNull(schema.riddles.retiredAt))
    .orderBy(asc(schema.riddles.position), asc(schema.riddles.createdAt), asc(schema.riddles.id));
  const rank = (d: RiddleDifficulty) => RIDDLE_DIFFICULTIES.indexOf(d);
  return rows.sort((a, b) => rank(a.difficulty) - rank(b.difficulty));
}

/**
 * §4 states: a riddle is completed once the player solved it, available when every earlier active riddle of its
 * track is completed, locked otherwise. Retired riddles neither block nor count.
 */
export function riddleStates(
  rows: readonly RiddleRow[],
  solved: ReadonlySet<string>,
): Map<string, "locked" | "available" | "completed"> {
  const out = new Map<string, "locked" | "available" | "completed">();
  const blocked = new Set<RiddleDifficulty>();
  for (const r of rows) {
    if (solved.has(r.id)) out.set(r.id, "completed");
    else if (blocked.has(r.difficulty)) out.set(r.id, "locked");
    else out.set(r.id, "available");
    if (!solved.has(r.id)) blocked.add(r.difficulty);
  }
  return out;
}

/** Start of the player's current day in the edition's zone (quota and streak days). */
function startOfToday(now: Date, edition: Edition): Date {
  const tz = EDITION_TIME_ZONE[edition];
  return new Date(startOfLocalDay(localDate(now, tz), tz));
}

/** Free submissions the player started today (running or judged; failed runs give their slot back). */
export async function freeAttemptsToday(db: Db | Tx, userId: string, now: Date, edition: Edition): Promise<number> {
  const since = startOfToday(now, edition);
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(schema.riddleAttempts)
    .where(
      and(
        sql`${schema.riddleAttempts.userId} = ${userId}`,
        sql`${schema.riddleAttempts.billed} = false`,
        sql`${schema.riddleAttempts.status} <> 'failed'`,
        sql`${schema.riddleAttempts.createdAt} >= ${since.toISOString()}::timestamptz`,
      ),
    );
  return row?.n ?? 0;
}

export function attemptView(a: typeof schema.riddleAttempts.$inferSelect): RiddleAttempt {
  return {
    id: a.id,
    riddleId: a.riddleId,
    prompt: a.prompt,
    answer: a.answer,
    passed: a.passed,
    checks: a.checks as RiddleCheck[],
    billed: a.billed,
    requestId: a.requestId,
    createdAt: a.createdAt.toISOString(),
  };
}

export function ruleTexts(rules: RiddleRules, locale: Locale) {
  return {
    prompt: rules.prompt.map((r) => riddleRuleText(r, locale)),
    answer: rules.answer.map((r) => riddleRuleText(r, locale)),
  };
}
