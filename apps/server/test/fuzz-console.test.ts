/**
 * Fuzz of the console API (fast-check, fixed seed): generated bodies, path parameters and queries across the
 * console's writes and queries. Every answer is below 500; every 4xx is the console envelope
 * {error:{code,message,details?,requestId}}; a refused request changes nothing (row counts and balances).
 */
import { ApiErrorBody } from "@moonport/contracts";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signUp, type TestUser } from "./console-helpers.ts";
import { createTestApp, type TestApp, TestClient } from "./helpers.ts";

const RUNS = 4000;
let t: TestApp;
let admin: TestUser;
let keyId: string;

beforeAll(async () => {
  // Many sign-ups come from generated addresses; the per-address allowance is tested in rate-limits.test.ts.
  t = await createTestApp({ SIGNUPS_PER_IP_PER_HOUR: "1000000", SIGNUPS_PER_IP_PER_DAY: "1000000" });
  admin = await signUp(t);
  const key = await admin.client.post(`/api/orgs/${admin.orgId}/api-keys`, {
    name: "fuzz",
    projectId: admin.defaultProjectId,
  });
  keyId = key.body.key.id;
});
afterAll(() => t.close());

/** Everything a console write may change, in one query. */
async function snapshot(): Promise<string> {
  const r = await t.ctx.db.execute(sql`select
    (select count(*) from users) as users,
    (select count(*) from organizations) as orgs,
    (select coalesce(sum(cash_balance), 0) from org_balances) as cash,
    (select count(*) from projects) as projects,
    (select count(*) from api_keys) as keys,
    (select count(*) from invitations) as invitations,
    (select count(*) from org_members) as members,
    (select count(*) from ledger_entries) as ledger`);
  const rows = (r as unknown as { rows?: unknown[] }).rows ?? (r as unknown as unknown[]);
  return JSON.stringify(rows[0]);
}

const NUL = "\u0000";
/** Strings a hostile client sends: empty, huge, NUL, control and odd Unicode, numbers in disguise. */
const oddString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ maxLength: 20 }).map((s) => `${s}${NUL}${s}`),
  fc.constantFrom("", " ", "0", "-1", "1e309", "NaN", "null", "../..", "%00", "\\", "0000", "0000-00", "9999-99"),
  fc.integer({ min: 1, max: 5000 }).map((n) => "x".repeat(n)),
);
const oddValue = fc.oneof(
  oddString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(oddString, { maxLength: 3 }),
  fc.dictionary(oddString, oddString, { maxKeys: 3 }),
);
/** A body with the route's field names, each holding an odd value (or a plausible one), plus stray fields. */
const bodyWith = (fields: string[]) =>
  fc.oneof(
    fc.record(Object.fromEntries(fields.map((f) => [f, oddValue])), { requiredKeys: [] }),
    fc.record(Object.fromEntries(fields.map((f) => [f, oddString])), { requiredKeys: [] }),
    fc.anything({ maxDepth: 3 }),
  );
const period = fc.oneof(
  fc.constantFrom("0000", "0000-01", "1969-12", "9999", "9999-12", "2026-00", "2026-13", "2026-1", "-001", "２０２６"),
  fc.integer({ min: -99999, max: 99999 }).map(String),
  oddString,
);

function enc(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return "%00";
  }
}

type Req = { method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"; url: string; body?: unknown; anonymous?: boolean };

const requests = (): fc.Arbitrary<Req> => {
  const o = () => admin.orgId;
  const p = () => admin.defaultProjectId;
  return fc.oneof(
    bodyWith(["username", "password", "confirmPassword"]).map((body) => ({
      method: "POST" as const,
      url: "/api/auth/signup/password",
      body,
      anonymous: true,
    })),
    bodyWith(["phone", "code", "username", "password", "confirmPassword"]).map((body) => ({
      method: "POST" as const,
      url: "/api/auth/signup/phone",
      body,
      anonymous: true,
    })),
    bodyWith(["username", "password"]).map((body) => ({
      method: "POST" as const,
      url: "/api/auth/signin",
      body,
      anonymous: true,
    })),
    bodyWith(["phone", "purpose"]).map((body) => ({ method: "POST" as const, url: "/api/auth/sms", body })),
    bodyWith(["name"]).map((body) => ({ method: "POST" as const, url: "/api/orgs", body })),
    bodyWith(["name"]).map((body) => ({ method: "PATCH" as const, url: `/api/orgs/${o()}`, body })),
    bodyWith(["name", "description", "dailyBudget", "monthlyBudget", "tpmLimit"]).map((body) => ({
      method: "POST" as const,
      url: `/api/orgs/${o()}/projects`,
      body,
    })),
    bodyWith(["name", "description", "dailyBudget", "monthlyBudget", "dailyAlert", "monthlyAlert", "tpmLimit"]).map(
      (body) => ({ method: "PATCH" as const, url: `/api/orgs/${o()}/projects/${p()}`, body }),
    ),
    bodyWith(["confirmName"]).map((body) => ({
      method: "POST" as const,
      url: `/api/orgs/${o()}/projects/${p()}/archive`,
      body,
    })),
    bodyWith(["name", "projectId"]).map((body) => ({
      method: "POST" as const,
      url: `/api/orgs/${o()}/api-keys`,
      body,
    })),
    bodyWith(["name", "status"]).map((body) => ({
      method: "PATCH" as const,
      url: `/api/orgs/${o()}/api-keys/${keyId}`,
      body,
    })),
    bodyWith(["phone", "role", "projectIds"]).map((body) => ({
      method: "POST" as const,
      url: `/api/orgs/${o()}/invitations`,
      body,
    })),
    bodyWith(["username", "password"]).map((body) => ({ method: "PUT" as const, url: "/api/me/username", body })),
    bodyWith(["oldPassword", "newPassword", "confirmPassword"]).map((body) => ({
      method: "PUT" as const,
      url: "/api/me/password",
      body,
    })),
    bodyWith(["phone", "code", "oldCode"]).map((body) => ({ method: "PUT" as const, url: "/api/me/phone", body })),
    bodyWith(["orgId"]).map((body) => ({ method: "PUT" as const, url: "/api/me/current-org", body })),
    fc.tuple(fc.constantFrom("year", "month", "day", "", "YEAR"), period).map(([g, per]) => ({
      method: "GET" as const,
      url: `/api/orgs/${o()}/consumption?granularity=${enc(g)}&period=${enc(per)}`,
    })),
    period.map((m) => ({ method: "GET" as const, url: `/api/orgs/${o()}/projects/${p()}/billing?month=${enc(m)}` })),
    fc.tuple(oddString, oddString).map(([page, size]) => ({
      method: "GET" as const,
      url: `/api/orgs/${o()}/api-keys?page=${enc(page)}&pageSize=${enc(size)}`,
    })),
    fc
      .tuple(fc.constantFrom("orgs", "invitations", "orgs/x/projects", "orgs/x/api-keys"), oddString)
      .map(([base, id]) => ({
        method: "GET" as const,
        url: `/api/${base.replace("x", admin.orgId)}/${enc(id)}`,
      })),
    oddString.map((id) => ({ method: "DELETE" as const, url: `/api/orgs/${o()}/invitations/${enc(id)}` })),
    oddString.map((q) => ({ method: "GET" as const, url: `/api/orgs/${o()}/limits?x=${enc(q)}` })),
  );
};

it(`answers ${RUNS} generated console requests without a 5xx, in the envelope, changing nothing when refusing`, async () => {
  const figures = { tried: 0, status2xx: 0, status4xx: 0, status5xx: 0, changedOnRefusal: 0 };
  const codes = new Map<string, number>();
  const anon = new TestClient(t.app);
  await fc.assert(
    fc.asyncProperty(requests(), fc.nat(250), async (req, ipTail) => {
      figures.tried++;
      const client = req.anonymous ? anon : admin.client;
      // Sign-ins from generated addresses, so the per-address failure limits do not turn every later one into 429.
      client.ip = `10.77.${ipTail % 250}.${(figures.tried % 250) + 1}`;
      if (req.anonymous) client.cookies.delete("mp_session");
      const before = await snapshot();
      const res = await client.request(req.method, req.url, req.body);
      if (res.status >= 500) {
        figures.status5xx++;
        throw new Error(
          `${req.method} ${req.url} ${JSON.stringify(req.body)?.slice(0, 300)} → ${res.status} ${res.raw.body.slice(0, 300)}`,
        );
      }
      if (res.status < 400) {
        figures.status2xx++;
        return;
      }
      figures.status4xx++;
      const envelope = ApiErrorBody.safeParse(res.body);
      expect(envelope.success, `${req.method} ${req.url}: ${res.raw.body.slice(0, 200)}`).toBe(true);
      expect(Object.keys(res.body)).toEqual(["error"]);
      expect(typeof res.body.error.requestId).toBe("string");
      expect(res.body.error.message.length).toBeGreaterThan(0);
      codes.set(res.body.error.code, (codes.get(res.body.error.code) ?? 0) + 1);
      const after = await snapshot();
      if (after !== before) figures.changedOnRefusal++;
      expect(after, `${req.method} ${req.url} changed data but answered ${res.status}`).toBe(before);
    }),
    { seed: 20261122, numRuns: RUNS, endOnFailure: true },
  );
  console.log(
    `fuzz-console: ${figures.tried} requests, ${figures.status2xx} 2xx, ${figures.status4xx} 4xx, ` +
      `${figures.status5xx} 5xx, ${figures.changedOnRefusal} refusals that changed data; 4xx codes: ` +
      JSON.stringify(Object.fromEntries(codes)),
  );
  expect(figures.tried).toBeGreaterThanOrEqual(RUNS);
  expect(figures.status5xx).toBe(0);
}, 180_000);
