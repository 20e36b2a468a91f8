import { parseMoney } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoKeyCommand } from "../src/cli/demo-key.ts";
import { listLedgerEntries } from "../src/modules/billing/index.ts";
import { orgMoney } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function run(args: string[]) {
  const lines: string[] = [];
  const code = await demoKeyCommand.run({
    config: t.config,
    db: t.ctx.db,
    services: t.ctx,
    args,
    print: (l) => lines.push(l),
    readInput: async () => "",
  });
  return { code, lines, last: lines[lines.length - 1]! };
}

describe("moonport demo-key", () => {
  it("creates a demo organization with a recorded grant and prints a working key as the last line", async () => {
    const { code, last } = await run(["--balance", "12.5", "--edition", "global"]);
    expect(code).toBe(0);
    expect(last).toMatch(/^sk-[0-9A-Za-z]{40,}$/);
    const identity = await t.ctx.meter.authenticate(`Bearer ${last}`);
    expect(identity.currency).toBe("USD");
    const money = await orgMoney(t.ctx.db, identity.orgId);
    expect(money.cash).toBe(parseMoney("12.5"));
    const ledger = await listLedgerEntries({ db: t.ctx.db, orgId: identity.orgId });
    expect(ledger).toMatchObject([{ kind: "grant", cashDelta: parseMoney("12.5") }]);
    expect(ledger[0]!.note).toContain("demo-key");
    const admission = await t.ctx.meter.admit({
      key: identity,
      requestId: newId("req"),
      model: "moonshot-v1-8k",
      admissionTokens: 10,
    });
    admission.release();
  });

  it("reuses the demo organization on a second run, adding only what --balance asks", async () => {
    const first = await run(["--edition", "cn"]);
    const second = await run(["--edition", "cn", "--balance=1"]);
    const a = await t.ctx.meter.authenticate(`Bearer ${first.last}`);
    const b = await t.ctx.meter.authenticate(`Bearer ${second.last}`);
    expect(first.last).not.toBe(second.last);
    expect(b.orgId).toBe(a.orgId);
    expect(b.projectId).toBe(a.projectId);
    expect((await orgMoney(t.ctx.db, a.orgId)).cash).toBe(parseMoney("101"));
    const third = await run(["--edition", "cn"]);
    expect((await orgMoney(t.ctx.db, a.orgId)).cash).toBe(parseMoney("101"));
    expect(third.last).toMatch(/^sk-/);
  });

  it("rejects bad options without changing anything", async () => {
    const before = await t.ctx.db.select().from(schema.organizations);
    for (const args of [["--balance", "abc"], ["--balance", "-1"], ["--edition", "mars"], ["--nope"]]) {
      const { code, lines } = await run(args);
      expect(code).toBe(2);
      expect(lines.join("\n")).toContain("Usage: npm run moonport -- demo-key");
    }
    expect(await t.ctx.db.select().from(schema.organizations)).toHaveLength(before.length);
  });
});
