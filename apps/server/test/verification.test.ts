/**
 * Organization verification: the checks (resident ID, USCC), every transition of §4 including the
 * forbidden ones, the operator's CLI decisions, and the corporate-transfer gate.
 */
import { isMainlandIdNumber, isUscc } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliCommand } from "../src/cli/commands.ts";
import {
  approveVerificationCommand,
  rejectVerificationCommand,
  verificationQueueCommand,
} from "../src/cli/verification.ts";
import { addOrgMember, COMPANY_APPLICATION, residentId, runCli, signUp } from "./console-helpers.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ID = residentId("11010519491231002");
const company = COMPANY_APPLICATION;
const USCC = company.creditCode;

const cli = (cmd: CliCommand, args: string[]) => runCli(t, cmd, args);

async function state(orgId: string) {
  const [o] = await t.ctx.db.select().from(schema.organizations).where(eq(schema.organizations.id, orgId));
  return o!.verification;
}

describe("checks", () => {
  it("resident ID: check character, birth date, shape", () => {
    expect(isMainlandIdNumber(ID)).toBe(true);
    const wrong = ID.slice(0, 17) + (ID[17] === "0" ? "1" : "0");
    expect(isMainlandIdNumber(wrong)).toBe(false);
    expect(isMainlandIdNumber(residentId("11010519490231002"))).toBe(false); // 31 Feb
    expect(isMainlandIdNumber("1101051949123100")).toBe(false);
  });
  it("USCC: GB 32100 check character and character set", () => {
    expect(USCC).toBe("91350100M000100Y43");
    expect(isUscc(USCC)).toBe(true);
    expect(isUscc("91350100M000100Y44")).toBe(false);
    expect(isUscc("91350100M000100I43")).toBe(false); // I is not in the set
  });
});

describe("transitions (cn)", () => {
  it("unverified → personal → company_changing → company, through the operator's CLI", async () => {
    const u = await signUp(t, { edition: "cn" });
    const V = `/api/orgs/${u.orgId}/verification`;
    expect((await u.client.get(V)).body.state).toBe("unverified");
    // Company before personal is forbidden.
    const early = await u.client.post(`${V}/company`, company);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("verification_needs_personal");
    // Bad ID: a field error, nothing recorded.
    const bad = await u.client.post(`${V}/personal`, { realName: "张三", idNumber: `${ID.slice(0, 17)}Y` });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("idNumber");
    expect((await u.client.get(V)).body.applications).toHaveLength(0);

    const p = await u.client.post(`${V}/personal`, { realName: "张三", idNumber: ID });
    expect(p.status).toBe(200);
    expect(p.body.state).toBe("personal");
    expect(p.body.applications[0].details.idNumber).toBe(`••••${ID.slice(-4)}`);
    const again = await u.client.post(`${V}/personal`, { realName: "张三", idNumber: ID });
    expect(again.body.error.code).toBe("verification_already_verified");

    // Corporate transfer is refused before company verification.
    const transfer = { amount: "100", payType: "b2btransfer", agreement: true };
    expect((await u.client.post(`/api/orgs/${u.orgId}/payments`, transfer)).body.error.code).toBe(
      "verification_required",
    );

    const badCode = await u.client.post(`${V}/company`, { ...company, creditCode: "91350100M000100Y44" });
    expect(badCode.body.error.details[0].path).toBe("creditCode");
    const badAccount = await u.client.post(`${V}/company`, { ...company, bankAccountNumber: "6222-0202" });
    expect(badAccount.body.error.details[0].path).toBe("bankAccountNumber");
    expect(await state(u.orgId)).toBe("personal");

    const c = await u.client.post(`${V}/company`, company);
    expect(c.body.state).toBe("company_changing");
    expect((await u.client.post(`${V}/company`, company)).body.error.code).toBe("verification_in_review");
    expect((await u.client.post(`/api/orgs/${u.orgId}/payments`, transfer)).status).toBe(403);

    const queue = await cli(verificationQueueCommand, []);
    const appId = c.body.applications[0].id;
    expect(queue.out).toContain(appId);
    expect(queue.out).toContain(USCC);
    expect((await cli(approveVerificationCommand, [appId])).code).toBe(0);
    expect(await state(u.orgId)).toBe("company");
    expect((await cli(approveVerificationCommand, [appId])).code).toBe(1);
    expect((await u.client.post(`${V}/cancel`)).body.error.code).toBe("verification_cancel_failed");
    expect((await u.client.post(`${V}/company`, company)).body.error.code).toBe("verification_already_verified");

    const pay = await u.client.post(`/api/orgs/${u.orgId}/payments`, transfer);
    expect(pay.status).toBe(201);
    expect(pay.body.transfer.reference).toMatch(/^MP/);
  });

  it("cancelling a company change reverts to personal; a rejection too, with its reason shown", async () => {
    const u = await signUp(t, { edition: "cn" });
    const V = `/api/orgs/${u.orgId}/verification`;
    expect((await u.client.post(`${V}/cancel`)).body.error.code).toBe("verification_cancel_failed");
    await u.client.post(`${V}/personal`, { realName: "李四", idNumber: ID });
    await u.client.post(`${V}/company`, company);
    const cancelled = await u.client.post(`${V}/cancel`);
    expect(cancelled.body.state).toBe("personal");
    expect(cancelled.body.applications[0].status).toBe("cancelled");

    const c = await u.client.post(`${V}/company`, company);
    const id = c.body.applications[0].id;
    expect((await cli(rejectVerificationCommand, [id])).code).toBe(2); // a reason is required
    expect((await cli(rejectVerificationCommand, [id, "--reason", "Bank account name differs"])).code).toBe(0);
    const after = await u.client.get(V);
    expect(after.body.state).toBe("personal");
    expect(after.body.applications[0].rejectReason).toBe("Bank account name differs");
    const [action] = await t.ctx.db
      .select()
      .from(schema.operatorActions)
      .where(eq(schema.operatorActions.action, "verification.reject"));
    expect(action?.target).toBe(u.orgId);
  });

  it("organization members cannot read or apply (admins only)", async () => {
    const admin = await signUp(t, { edition: "cn" });
    const member = await signUp(t, { edition: "cn" });
    await addOrgMember(t, admin.orgId, member, "member");
    const V = `/api/orgs/${admin.orgId}/verification`;
    expect((await member.client.get(V)).status).toBe(403);
    expect((await member.client.post(`${V}/personal`, { realName: "王五", idNumber: ID })).status).toBe(403);
    expect(await state(admin.orgId)).toBe("unverified");
  });
});

describe("global edition", () => {
  it("passport-style fields are checked; a registration number replaces the USCC", async () => {
    const u = await signUp(t, { edition: "global" });
    const V = `/api/orgs/${u.orgId}/verification`;
    const bad = await u.client.post(`${V}/personal`, {
      realName: "Jane Doe",
      idNumber: "X1",
      nationality: "U1",
      dateOfBirth: "2020-01-01",
      documentExpiry: "2001-01-01",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      "dateOfBirth",
      "documentExpiry",
      "idNumber",
      "nationality",
    ]);
    const ok = await u.client.post(`${V}/personal`, {
      realName: "Jane Doe",
      idNumber: "P12345678",
      nationality: "us",
      dateOfBirth: "1990-05-17",
      documentExpiry: "2099-01-01",
    });
    expect(ok.body.state).toBe("personal");
    expect(ok.body.applications[0].details.nationality).toBe("US");
    const c = await u.client.post(`${V}/company`, { ...company, creditCode: "DE 123456789" });
    expect(c.body.state).toBe("company_changing");
  });
});
