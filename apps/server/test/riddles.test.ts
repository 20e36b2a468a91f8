import {
  checkRiddlePrompt,
  FREE_RIDDLE_SUBMISSIONS_PER_DAY,
  LOCALES,
  RIDDLE_DIFFICULTIES,
  RiddleAttemptList,
  RiddleBoard,
  RiddleClaim,
  type RiddleStreamEvent,
  VoucherPage,
} from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantBalance } from "../src/modules/billing/grant-balance.ts";
import { listLedgerEntries, listVouchers } from "../src/modules/billing/index.ts";
import { BUILT_IN_RIDDLES, RiddleDefinition } from "../src/modules/riddles/catalog.ts";
import { judgeAnswer } from "../src/modules/riddles/judge.ts";
import { addOrgMember, signUp, type TestUser } from "./console-helpers.ts";
import { RIDDLE_SOLUTIONS } from "./fixtures/riddle-solutions.ts";
import { createTestApp, type TestApp, testClock } from "./helpers.ts";

const clock = testClock();
let t: TestApp;

function vouchersOf(orgId: string) {
  return listVouchers({ db: t.ctx.db, orgId, now: new Date(), page: 1, pageSize: 100 }).then((p) => p.items);
}
beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_DELAY_MS: "0" }, { clock });
});
afterAll(() => t.close());

const WRONG = "Describe a quiet morning.";
const board = async (u: TestUser) => {
  const res = await u.client.get(`/api/orgs/${u.orgId}/riddles`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return RiddleBoard.parse(res.body);
};

/** Submits a prompt; answers the parsed stream (deltas joined, the verdict) or the refusal. */
async function submit(u: TestUser, riddleId: string, prompt: string, projectId = u.defaultProjectId) {
  const res = await u.client.post(`/api/orgs/${u.orgId}/projects/${projectId}/riddles/${riddleId}/attempts`, {
    prompt,
  });
  if (res.status !== 200) return { status: res.status, body: res.body, answer: "", verdict: undefined };
  expect(res.headers["content-type"]).toContain("text/event-stream");
  const events = res.raw.body
    .split("\n\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)) as RiddleStreamEvent);
  const answer = events.map((e) => (e.type === "delta" ? e.content : "")).join("");
  const verdict = events.find((e) => e.type === "verdict");
  return { status: 200, body: undefined, answer, verdict: verdict?.type === "verdict" ? verdict : undefined, events };
}

/** A player whose organization has a balance and the top tier's rate limits (billed runs beyond the quota). */
async function funded(edition: "cn" | "global" = "cn") {
  const u = await signUp(t, { edition });
  await t.ctx.db.update(schema.organizations).set({ tierOverride: 5 }).where(eq(schema.organizations.id, u.orgId));
  await grantBalance({ ctx: t.ctx, orgId: u.orgId, amount: 10_000_000_000n, note: "test", createdBy: u.userId });
  return u;
}

/** A prompt that keeps the riddle's prompt rules but does not solve it. */
const wrongFor = (r: RiddleDefinition) =>
  checkRiddlePrompt(r.rules.prompt, WRONG, "en-US").length ? "Quiet day." : WRONG;

const solutionOf = (r: RiddleDefinition, locale: (typeof LOCALES)[number]) => {
  const s = RIDDLE_SOLUTIONS[r.id];
  if (!s) throw new Error(`apps/server/test/fixtures/riddle-solutions.ts has no solution for ${r.id}`);
  return s[locale === "en-US" ? 0 : 1];
};

describe("catalog", () => {
  it("has 5 riddles per difficulty, valid definitions in both languages, a solution for each that keeps its prompt rules", () => {
    expect(BUILT_IN_RIDDLES.length).toBeGreaterThanOrEqual(25);
    for (const d of RIDDLE_DIFFICULTIES) expect(BUILT_IN_RIDDLES.filter((r) => r.difficulty === d)).toHaveLength(5);
    expect(new Set(BUILT_IN_RIDDLES.map((r) => r.id)).size).toBe(BUILT_IN_RIDDLES.length);
    expect(Object.keys(RIDDLE_SOLUTIONS).sort()).toEqual(BUILT_IN_RIDDLES.map((r) => r.id).sort());
    for (const r of BUILT_IN_RIDDLES) {
      expect(() => RiddleDefinition.parse(r), r.id).not.toThrow();
      // Solutions stay with the tests: nothing a player can read carries them.
      expect(r.solutions, r.id).toBeUndefined();
      for (const locale of LOCALES) {
        const solution = solutionOf(r, locale);
        expect(checkRiddlePrompt(r.rules.prompt, solution, locale), `${r.id} ${locale}`).toEqual([]);
        expect(JSON.stringify(r.content), r.id).not.toContain(solution);
      }
    }
  });

  // Each riddle is solved by its fixture solution against the simulator, in both languages, through the real
  // submission path; a wrong prompt fails first and says why. The earlier riddles of its track count as solved.
  for (const locale of LOCALES) {
    describe(locale, () => {
      for (const r of BUILT_IN_RIDDLES) {
        it(`${r.id} is solved by its solution prompt, and a wrong attempt fails`, async () => {
          const u = await funded(locale === "zh-CN" ? "cn" : "global");
          u.client.locale = locale;
          const earlier = BUILT_IN_RIDDLES.filter(
            (x) => x.difficulty === r.difficulty && BUILT_IN_RIDDLES.indexOf(x) < BUILT_IN_RIDDLES.indexOf(r),
          );
          if (earlier.length) {
            await t.ctx.db
              .insert(schema.riddleSolves)
              .values(
                earlier.map((x) => ({ userId: u.userId, riddleId: x.id, attemptId: "setup", solvedAt: clock.now() })),
              );
          }
          const wrong = await submit(u, r.id, wrongFor(r));
          expect(wrong.status, `${r.id}: ${JSON.stringify(wrong.body)}`).toBe(200);
          expect(wrong.verdict?.attempt.passed, `${r.id} wrong answer: ${wrong.answer}`).toBe(false);
          const failed = wrong.verdict!.attempt.checks.filter((c) => !c.passed);
          expect(failed.length).toBeGreaterThan(0);
          for (const c of failed) expect(c.reason.length, r.id).toBeGreaterThan(0);
          const right = await submit(u, r.id, solutionOf(r, locale));
          expect(right.status, `${r.id}: ${JSON.stringify(right.body)}`).toBe(200);
          expect(
            right.verdict?.attempt.passed,
            `${r.id} (${locale}) answer: ${right.answer} ${JSON.stringify(right.verdict?.attempt.checks)}`,
          ).toBe(true);
          expect(right.verdict?.solvedNow).toBe(true);
          expect(right.verdict?.attempt.answer).toBe(right.answer);
          const card = (await board(u)).riddles.find((x) => x.id === r.id);
          expect(card?.state).toBe("completed");
        });
      }
    });
  }
});

describe("states", () => {
  it("opens each track at its first riddle, locks the rest, and unlocks the next on a solve", async () => {
    const u = await funded();
    const b = await board(u);
    for (const d of RIDDLE_DIFFICULTIES) {
      const track = b.riddles.filter((r) => r.difficulty === d);
      expect(track.map((r) => r.position)).toEqual([1, 2, 3, 4, 5]);
      expect(track.map((r) => r.state)).toEqual(["available", "locked", "locked", "locked", "locked"]);
    }
    // The card never carries the stored solutions.
    expect(JSON.stringify(b)).not.toContain("Please greet me back");

    const locked = await submit(u, "times-table", "What is 7 * 8?");
    expect(locked.status).toBe(409);
    expect(locked.body.error.code).toBe("riddle_locked");
    u.client.locale = "zh-CN";
    const lockedZh = await submit(u, "times-table", "What is 7 * 8?");
    expect(lockedZh.body.error.message).toBe("该谜题尚未解锁，请先完成同一难度中前面的谜题。");
    u.client.locale = "en-US";
    expect(
      await t.ctx.db.select().from(schema.riddleAttempts).where(eq(schema.riddleAttempts.userId, u.userId)),
    ).toEqual([]);

    const solved = await submit(u, "first-word", "Hello! Please greet me back.");
    expect(solved.verdict?.attempt.passed).toBe(true);
    const after = await board(u);
    const beginner = after.riddles.filter((r) => r.difficulty === "beginner");
    expect(beginner.map((r) => r.state)).toEqual(["completed", "available", "locked", "locked", "locked"]);
    expect(beginner[0]!.claimed).toBe(false);
    expect(beginner[0]!.solvedAt).not.toBeNull();
    expect(after.progress.find((p) => p.difficulty === "beginner")).toMatchObject({ completed: 1, total: 5 });

    // Solving it again is another passed attempt, not a second solve.
    const again = await submit(u, "first-word", "Hello! Please greet me back.");
    expect(again.verdict?.attempt.passed).toBe(true);
    expect(again.verdict?.solvedNow).toBe(false);
    const history = RiddleAttemptList.parse(
      (await u.client.get(`/api/orgs/${u.orgId}/riddles/first-word/attempts`)).body,
    );
    expect(history.items.map((a) => a.passed)).toEqual([true, true]);
  });

  it("retired riddles leave the board and unblock their track; unknown riddles are 404", async () => {
    const u = await funded();
    await t.ctx.db.update(schema.riddles).set({ retiredAt: new Date() }).where(eq(schema.riddles.id, "first-word"));
    try {
      const b = await board(u);
      expect(b.riddles.find((r) => r.id === "first-word")).toBeUndefined();
      expect(b.riddles.find((r) => r.id === "times-table")?.state).toBe("available");
      expect((await submit(u, "first-word", "Hello!")).status).toBe(404);
    } finally {
      await t.ctx.db.update(schema.riddles).set({ retiredAt: null }).where(eq(schema.riddles.id, "first-word"));
    }
    const missing = await submit(u, "no-such-riddle", "Hello!");
    expect(missing.status).toBe(404);
    expect((await u.client.get(`/api/orgs/${u.orgId}/riddles/no-such-riddle/attempts`)).status).toBe(404);
    expect((await u.client.post(`/api/orgs/${u.orgId}/riddles/no-such-riddle/claim`)).status).toBe(404);
  });
});

describe("rewards", () => {
  it("pays a solved riddle's voucher once into the organization, then answers that it was claimed", async () => {
    const u = await signUp(t, { edition: "global" });
    const early = await u.client.post(`/api/orgs/${u.orgId}/riddles/first-word/claim`);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("riddle_not_solved");
    // A free submission needs no balance.
    expect((await submit(u, "first-word", "Hello! Please greet me back.")).verdict?.attempt.passed).toBe(true);
    const res = await u.client.post(`/api/orgs/${u.orgId}/riddles/first-word/claim`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const claim = RiddleClaim.parse(res.body);
    expect(claim).toMatchObject({ amount: "200000000", currency: "USD" });
    const vouchers = VoucherPage.parse((await u.client.get(`/api/orgs/${u.orgId}/vouchers`)).body);
    expect(vouchers.items.map((v) => [v.id, v.amount, v.type])).toEqual([[claim.voucherId, "200000000", "activity"]]);
    const second = await u.client.post(`/api/orgs/${u.orgId}/riddles/first-word/claim`);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("riddle_reward_claimed");
    u.client.locale = "zh-CN";
    expect((await u.client.post(`/api/orgs/${u.orgId}/riddles/first-word/claim`)).body.error.message).toBe(
      "该谜题的奖励已经领取过了。",
    );
    expect((await board(u)).riddles.find((r) => r.id === "first-word")?.claimed).toBe(true);
  });

  it("concurrent claims pay once", async () => {
    const u = await signUp(t);
    expect((await submit(u, "first-word", "你好！请向我问好。")).verdict?.attempt.passed).toBe(true);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => u.client.post(`/api/orgs/${u.orgId}/riddles/first-word/claim`)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error.code === "riddle_reward_claimed")).toBe(
      true,
    );
    const vouchers = await vouchersOf(u.orgId);
    expect(vouchers.map((v) => v.amount)).toEqual(["1000000000"]);
    const ledger = await listLedgerEntries({ db: t.ctx.db, orgId: u.orgId });
    expect(ledger.filter((l) => l.reference?.startsWith("riddle:"))).toHaveLength(1);
  });

  it("a member of a second organization claims into it, still once per player", async () => {
    const owner = await signUp(t);
    const player = await signUp(t);
    await addOrgMember(t, owner.orgId, player, "member");
    expect((await submit(player, "first-word", "Hello! Please greet me back.")).verdict?.attempt.passed).toBe(true);
    const res = await player.client.post(`/api/orgs/${owner.orgId}/riddles/first-word/claim`);
    expect(res.status).toBe(200);
    expect((await vouchersOf(owner.orgId)).length).toBe(1);
    expect((await player.client.post(`/api/orgs/${player.orgId}/riddles/first-word/claim`)).status).toBe(409);
  });
});

describe("prompt rules and bad input", () => {
  it("refuses a prompt that breaks the riddle's rules, saying which, in the caller's language; nothing counts", async () => {
    const u = await signUp(t);
    const long = await submit(u, "first-word", "Hello there, this prompt is much longer than forty characters.");
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe("riddle_prompt_rejected");
    expect(long.body.error.message).toContain("at most 40 are allowed");
    const banned = await submit(u, "polite-greeting", "Hi!");
    expect(banned.status).toBe(409); // locked first
    u.client.locale = "zh-CN";
    const zh = await submit(u, "first-word", "你好".repeat(30));
    expect(zh.body.error.message).toBe("提示词不符合谜题规则：提示词有 60 个字符，最多允许 40 个。");
    expect(zh.body.error.details).toEqual([{ path: "prompt", message: "提示词有 60 个字符，最多允许 40 个。" }]);
    u.client.locale = "en-US";
    for (const body of [{}, { prompt: "" }, { prompt: "   " }, { prompt: 42 }, { prompt: "x".repeat(2001) }]) {
      const res = await u.client.post(
        `/api/orgs/${u.orgId}/projects/${u.defaultProjectId}/riddles/first-word/attempts`,
        body,
      );
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
    expect((await board(u)).quota).toEqual({ free: FREE_RIDDLE_SUBMISSIONS_PER_DAY, used: 0, remaining: 20 });
    expect(
      await t.ctx.db.select().from(schema.riddleAttempts).where(eq(schema.riddleAttempts.userId, u.userId)),
    ).toEqual([]);
  });

  it("banned words are whole words for Latin text and substrings otherwise", () => {
    const rules = [{ kind: "bannedWords" as const, words: ["hi", "你好", "*"] }];
    expect(checkRiddlePrompt(rules, "this is fine", "en-US")).toEqual([]);
    expect(checkRiddlePrompt(rules, "Hi there", "en-US")).toHaveLength(1);
    expect(checkRiddlePrompt(rules, "说你好呀", "zh-CN")[0]?.message).toBe("提示词使用了禁用词：你好。");
    expect(checkRiddlePrompt(rules, "7*8", "en-US")[0]?.message).toBe("The prompt uses a banned word: *.");
    expect(checkRiddlePrompt([{ kind: "maxPromptChars", max: 3 }], "😀😀😀", "en-US")).toEqual([]);
  });

  it("judges any answer without throwing: empty, cut off, not JSON, fenced JSON, wrong types, huge", () => {
    const json = [
      {
        kind: "json" as const,
        schema: {
          type: "object" as const,
          required: ["name", "age"],
          properties: { name: { type: "string" as const }, age: { type: "integer" as const, maximum: 150 } },
        },
      },
    ];
    const reason = (answer: string) => judgeAnswer(json, answer, "en-US").checks[0]!.reason;
    expect(reason("")).toBe("The answer is not valid JSON.");
    expect(reason('{"name": "Ada", "age"')).toBe("The answer is not valid JSON.");
    expect(reason('{"name": "Ada"}')).toBe("The JSON does not fit: $.age is missing.");
    expect(reason('{"name": "Ada", "age": 36.5}')).toBe("The JSON does not fit: $.age should be integer.");
    expect(reason('{"name": "Ada", "age": 400}')).toBe("The JSON does not fit: $.age must be at most 150.");
    expect(reason("[1, 2]")).toBe("The JSON does not fit: $ should be object.");
    expect(reason('Sure:\n```json\n{"name": "Ada", "age": 36}\n```')).toBe("");
    expect(judgeAnswer(json, '{"name": "Ada"}', "zh-CN").checks[0]!.reason).toBe("JSON 结构不符：缺少 $.age。");
    const huge = "x".repeat(5_000_000);
    expect(judgeAnswer([{ kind: "contains", anyOf: ["y"] }], huge, "en-US").passed).toBe(false);
    expect(judgeAnswer([{ kind: "equals", anyOf: ["hello"], ignoreCase: true }], " Hello! ", "en-US").passed).toBe(
      true,
    );
    expect(judgeAnswer([{ kind: "equals", anyOf: ["hello"] }], "Hello", "en-US").checks[0]!.reason).toBe(
      "The answer was “Hello”.",
    );
    expect(judgeAnswer([{ kind: "maxAnswerChars", max: 3 }], "four", "en-US").checks[0]!.reason).toBe(
      "The answer has 4 characters.",
    );
    const broken = [{ kind: "matches" as const, pattern: "(", label: { "en-US": "x", "zh-CN": "x" } }];
    expect(judgeAnswer(broken, "(", "en-US").passed).toBe(false);
    expect(judgeAnswer([], "anything", "en-US").passed).toBe(false);
  });
});

describe("free quota", () => {
  it(`gives ${FREE_RIDDLE_SUBMISSIONS_PER_DAY} free submissions a day, then bills the project or refuses without balance`, async () => {
    const u = await signUp(t);
    for (let i = 0; i < FREE_RIDDLE_SUBMISSIONS_PER_DAY; i++) {
      const r = await submit(u, "first-word", WRONG);
      expect(r.verdict?.attempt.billed).toBe(false);
    }
    expect((await board(u)).quota).toEqual({ free: 20, used: 20, remaining: 0 });
    await t.ctx.meter.flush();
    const billsOf = () => t.ctx.db.select().from(schema.requestBills).where(eq(schema.requestBills.orgId, u.orgId));
    expect(await billsOf()).toEqual([]);

    // No balance: refused like a playground run, nothing recorded.
    const refused = await submit(u, "first-word", WRONG);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("playground_insufficient_balance");
    const history = RiddleAttemptList.parse(
      (await u.client.get(`/api/orgs/${u.orgId}/riddles/first-word/attempts`)).body,
    );
    expect(history.items).toHaveLength(20);

    await grantBalance({ ctx: t.ctx, orgId: u.orgId, amount: 10_000_000_000n, note: "test", createdBy: u.userId });
    const paid = await submit(u, "first-word", "Hello! Please greet me back.");
    expect(paid.verdict?.attempt.billed).toBe(true);
    expect(paid.verdict?.attempt.passed).toBe(true);
    await t.ctx.meter.flush();
    const bills = await billsOf();
    expect(bills).toHaveLength(1);
    expect(bills[0]).toMatchObject({
      requestId: paid.verdict!.attempt.requestId,
      apiKeyId: `playground:${u.userId}`,
      projectId: u.defaultProjectId,
    });

    // The next local day (edition zone) gives a fresh quota.
    clock.advance(24 * 3600_000);
    try {
      expect((await board(u)).quota.remaining).toBe(20);
      expect((await submit(u, "first-word", WRONG)).verdict?.attempt.billed).toBe(false);
    } finally {
      clock.advance(-24 * 3600_000);
    }
  });

  it("concurrent submissions never exceed the free quota", async () => {
    const u = await funded();
    const results = await Promise.all(
      Array.from({ length: FREE_RIDDLE_SUBMISSIONS_PER_DAY + 4 }, () => submit(u, "first-word", WRONG)),
    );
    expect(results.filter((r) => r.verdict?.attempt.billed === false)).toHaveLength(FREE_RIDDLE_SUBMISSIONS_PER_DAY);
    expect(
      results.filter((r) => r.verdict?.attempt.billed === true),
      JSON.stringify(results.filter((r) => !r.verdict).map((r) => r.body ?? r.events)),
    ).toHaveLength(4);
  });
});

describe("streak", () => {
  it("counts consecutive local days with a solve across a moved clock", async () => {
    const u = await signUp(t);
    const solve = () => submit(u, "first-word", "Hello! Please greet me back.");
    const start = clock.now().getTime();
    // Noon in Shanghai (the cn edition's zone) on the current local day, so day steps never straddle midnight.
    const shanghaiNoon = (() => {
      const d = new Date(start + 8 * 3600_000);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 12) - 8 * 3600_000;
    })();
    const day = 24 * 3600_000;
    let moved = shanghaiNoon - start;
    const moveTo = (at: number) => {
      clock.advance(at - start - moved);
      moved = at - start;
    };
    clock.advance(moved);
    try {
      expect((await board(u)).streak).toEqual({ current: 0, best: 0, solvedToday: false });
      await solve();
      expect((await board(u)).streak).toEqual({ current: 1, best: 1, solvedToday: true });
      // A failed attempt the next day does not extend it, but yesterday's solve keeps it alive.
      moveTo(shanghaiNoon + day);
      await submit(u, "first-word", WRONG);
      expect((await board(u)).streak).toEqual({ current: 1, best: 1, solvedToday: false });
      await solve();
      expect((await board(u)).streak).toEqual({ current: 2, best: 2, solvedToday: true });
      moveTo(shanghaiNoon + 2 * day);
      await solve();
      expect((await board(u)).streak).toEqual({ current: 3, best: 3, solvedToday: true });
      // 23:30 local time is still the same day; 00:30 is the next.
      moveTo(shanghaiNoon + 2 * day + 11.5 * 3600_000);
      expect((await board(u)).streak.solvedToday).toBe(true);
      moveTo(shanghaiNoon + 3 * day - 11.5 * 3600_000);
      expect((await board(u)).streak).toEqual({ current: 3, best: 3, solvedToday: false });
      // A day without a solve breaks it; the best stays.
      moveTo(shanghaiNoon + 4 * day);
      expect((await board(u)).streak).toEqual({ current: 0, best: 3, solvedToday: false });
      await solve();
      expect((await board(u)).streak).toEqual({ current: 1, best: 3, solvedToday: true });
    } finally {
      clock.advance(-moved);
    }
  });
});
