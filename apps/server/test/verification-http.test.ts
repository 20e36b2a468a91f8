/**
 * The `http` verification provider against a loopback identity service: the bearer token and the application
 * reach it; approved / rejected / review are applied; an error answer records nothing.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signUp } from "./console-helpers.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

const PORT = 3311;
let answer: { status: number; body: unknown } = { status: 200, body: { decision: "approved" } };
const seen: { auth?: string; body: Record<string, unknown> }[] = [];
let server: Server;
let t: TestApp;

async function read(req: IncomingMessage): Promise<string> {
  let s = "";
  for await (const c of req) s += c;
  return s;
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    seen.push({ auth: req.headers.authorization, body: JSON.parse(await read(req)) });
    res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
  });
  await new Promise<void>((r) => server.listen(PORT, "127.0.0.1", r));
  t = await createTestApp({
    VERIFICATION_PROVIDER: "http",
    VERIFICATION_HTTP_URL: `http://127.0.0.1:${PORT}/verify`,
    VERIFICATION_HTTP_TOKEN: "idsvc-secret",
  });
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => server.close(r));
});

const ID = "11010519491231002X";

it("applies the identity service's decisions", async () => {
  const u = await signUp(t, { edition: "cn" });
  const V = `/api/orgs/${u.orgId}/verification`;
  answer = { status: 500, body: {} };
  const down = await u.client.post(`${V}/personal`, { realName: "张三", idNumber: ID });
  expect(down.status).toBe(503);
  expect(down.body.error.code).toBe("verification_unavailable");
  expect((await u.client.get(V)).body.applications).toHaveLength(0);

  answer = { status: 200, body: { decision: "rejected", reason: "name does not match the ID" } };
  const no = await u.client.post(`${V}/personal`, { realName: "张三", idNumber: ID });
  expect(no.status).toBe(422);
  expect(no.body.error.message).toContain("name does not match the ID");
  expect((await u.client.get(V)).body.state).toBe("unverified");

  answer = { status: 200, body: { decision: "approved", reference: "idsvc-1" } };
  expect((await u.client.post(`${V}/personal`, { realName: "张三", idNumber: ID })).body.state).toBe("personal");
  expect(seen.at(-1)!.auth).toBe("Bearer idsvc-secret");
  expect(seen.at(-1)!.body).toMatchObject({ kind: "personal", orgId: u.orgId, details: { idNumber: ID } });

  answer = { status: 200, body: { decision: "review" } };
  const c = await u.client.post(`${V}/company`, {
    companyName: "Acme",
    creditCode: "91350100M000100Y43",
    bankAccountName: "Acme",
    bankName: "Bank",
    bankAccountNumber: "62220202",
  });
  expect(c.body.state).toBe("company_changing");
  expect(c.body.applications[0].status).toBe("pending");
});
