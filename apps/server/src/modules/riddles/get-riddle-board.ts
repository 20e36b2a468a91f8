import {
  EDITION_TIME_ZONE,
  FREE_RIDDLE_SUBMISSIONS_PER_DAY,
  type Locale,
  RIDDLE_DIFFICULTIES,
  type RiddleBoard,
} from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { localDate } from "../../lib/edition-time.ts";
import {
  activeRiddles,
  ensureRiddleCatalog,
  freeAttemptsToday,
  riddleContent,
  riddleReward,
  riddleRules,
  riddleStates,
  ruleTexts,
} from "./riddle-rows.ts";

/** Days as comparable integers (days since 1970-01-01 of the local calendar date). */
const dayNumber = (d: { year: number; month: number; day: number }) =>
  Date.UTC(d.year, d.month - 1, d.day) / 86_400_000;

/**
 * Current and best streak from the local days with at least one solve: the current streak is alive while today or
 * yesterday had one (a player who has not solved yet today keeps yesterday's streak until the day ends).
 */
function streakOf(days: readonly number[], today: number): { current: number; best: number; solvedToday: boolean } {
  const set = new Set(days);
  const sorted = [...set].sort((a, b) => a - b);
  let best = 0;
  let run = 0;
  for (let i = 0; i < sorted.length; i++) {
    run = i > 0 && sorted[i] === sorted[i - 1]! + 1 ? run + 1 : 1;
    best = Math.max(best, run);
  }
  let current = 0;
  for (let d = set.has(today) ? today : today - 1; set.has(d); d--) current++;
  return { current, best, solvedToday: set.has(today) };
}

/** The riddle board of the signed-in player: every active riddle with its state, progress, streak and quota. */
export async function getRiddleBoard(opts: {
  ctx: AppContext;
  access: OrgAccess;
  locale: Locale;
}): Promise<RiddleBoard> {
  const { ctx, access, locale } = opts;
  await ensureRiddleCatalog(ctx.db);
  const now = ctx.clock.now();
  const { edition, currency } = access.org;
  const tz = EDITION_TIME_ZONE[edition];
  const [rows, solves, counts, passedDays, used] = await Promise.all([
    activeRiddles(ctx.db),
    ctx.db.select().from(schema.riddleSolves).where(eq(schema.riddleSolves.userId, access.userId)),
    ctx.db
      .select({ riddleId: schema.riddleAttempts.riddleId, n: sql<number>`count(*)::int` })
      .from(schema.riddleAttempts)
      .where(sql`${schema.riddleAttempts.userId} = ${access.userId} and ${schema.riddleAttempts.status} = 'judged'`)
      .groupBy(schema.riddleAttempts.riddleId),
    // Streak days: local dates (edition zone) with at least one passed attempt.
    ctx.db
      .selectDistinct({
        day: sql<string>`to_char(${schema.riddleAttempts.createdAt} at time zone ${tz}, 'YYYY-MM-DD')`,
      })
      .from(schema.riddleAttempts)
      .where(sql`${schema.riddleAttempts.userId} = ${access.userId} and ${schema.riddleAttempts.passed}`),
    freeAttemptsToday(ctx.db, access.userId, now, edition),
  ]);
  const solved = new Map(solves.map((s) => [s.riddleId, s]));
  const states = riddleStates(rows, new Set(solved.keys()));
  const attempts = new Map(counts.map((c) => [c.riddleId, c.n]));
  const riddles = rows.map((r) => {
    const text = riddleContent(r)[locale];
    const rules = riddleRules(r);
    const solve = solved.get(r.id);
    return {
      id: r.id,
      difficulty: r.difficulty,
      position: 0,
      title: text.title,
      story: text.story,
      goal: text.goal,
      model: r.model,
      system: text.system,
      promptRules: rules.prompt,
      ruleTexts: ruleTexts(rules, locale),
      reward: { amount: riddleReward(r, currency).toString(), currency, voucherDays: r.voucherDays },
      state: states.get(r.id)!,
      claimed: solve?.claimedAt != null,
      solvedAt: solve?.solvedAt.toISOString() ?? null,
      attempts: attempts.get(r.id) ?? 0,
    };
  });
  // Positions as players see them: 1…n within each track, whatever gaps operators' moves left.
  for (const d of RIDDLE_DIFFICULTIES) {
    let n = 0;
    for (const r of riddles) if (r.difficulty === d) r.position = ++n;
  }
  const progress = RIDDLE_DIFFICULTIES.map((difficulty) => {
    const track = riddles.filter((r) => r.difficulty === difficulty);
    return { difficulty, completed: track.filter((r) => r.state === "completed").length, total: track.length };
  });
  const days = passedDays.map((d) => {
    const [y, m, day] = d.day.split("-").map(Number) as [number, number, number];
    return dayNumber({ year: y, month: m, day });
  });
  const free = FREE_RIDDLE_SUBMISSIONS_PER_DAY;
  return {
    riddles,
    progress,
    streak: streakOf(days, dayNumber(localDate(now, tz))),
    quota: { free, used: Math.min(used, free), remaining: Math.max(0, free - used) },
  };
}
