import { ApiErrorBody, MeWithOrgs, SendSmsResponse, SessionInfo } from "@moonport/contracts";
import { schema, sha256Hex } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { devOutbox, latestSmsCode, PASSWORD, signUpUser, uniquePhone, uniqueUsername } from "./auth-helpers.ts";
import { createTestApp, type TestApp, TestClient, testClock } from "./helpers.ts";

const clock = testClock();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { clock });
});
afterAll(() => t.close());

function err(res: { body: unknown }) {
  return ApiErrorBody.parse(res.body).error;
}

/** Sends a code to `phone` for `purpose` and returns it from the development outbox. */
async function sendCode(c: TestClient, phone: string, purpose: string): Promise<string> {
  const res = await c.post("/api/auth/sms", { phone, purpose });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return latestSmsCode(c, phone);
}

/** Signs up by phone: the client ends signed in. */
async function signUpByPhone(c: TestClient) {
  const phone = uniquePhone();
  const code = await sendCode(c, phone.local, "signup");
  const username = uniqueUsername();
  const res = await c.post("/api/auth/signup/phone", {
    phone: phone.local,
    code,
    username,
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { phone, username, me: MeWithOrgs.parse(res.body) };
}

describe("sign-up with username and password", () => {
  it("creates the account with a personal organization in the edition's currency and signs the user in", async () => {
    const c = new TestClient(t.app);
    const username = uniqueUsername("Alice");
    const res = await c.post("/api/auth/signup/password", { username, password: PASSWORD, confirmPassword: PASSWORD });
    expect(res.status).toBe(200);
    const me = MeWithOrgs.parse(res.body);
    expect(me.username).toBe(username);
    expect(me.role).toBe("user");
    expect(me.hasPassword).toBe(true);
    expect(me.organizations).toHaveLength(1);
    const org = me.organizations[0]!;
    expect(org).toMatchObject({ name: `${username}'s organization`, role: "admin", personal: true, currency: "USD" });
    expect(me.currentOrganizationId).toBe(org.id);

    const cookie = res.raw.cookies.find((k) => k.name === "mp_session")!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe("Lax");
    const [session] = await t.ctx.db.select().from(schema.sessions).where(eq(schema.sessions.userId, me.id));
    expect(session!.tokenHash).toBe(sha256Hex(cookie.value));
    expect(session!.tokenHash).not.toBe(cookie.value);
    const [user] = await t.ctx.db.select().from(schema.users).where(eq(schema.users.id, me.id));
    expect(user!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user!.currentOrgId).toBe(org.id);
    const projects = await t.ctx.db.select().from(schema.projects).where(eq(schema.projects.orgId, org.id));
    expect(projects.map((p) => p.isDefault)).toEqual([true]);

    const again = await c.get("/api/me");
    expect(MeWithOrgs.parse(again.body).id).toBe(me.id);
  });

  it("names the organization in Chinese and bills in CNY for a zh-CN sign-up", async () => {
    const c = new TestClient(t.app);
    c.locale = "zh-CN";
    const { me, username } = await signUpUser(t.app, { client: c });
    expect(me.organizations[0]).toMatchObject({ name: `${username} 的组织`, currency: "CNY" });
  });

  it("rejects a weak password, a mismatched confirmation, a phone-shaped or spaced username and creates nothing", async () => {
    const c = new TestClient(t.app);
    const before = (await t.ctx.db.select().from(schema.users)).length;
    const cases: [Record<string, string>, string, string][] = [
      [{ username: uniqueUsername(), password: "password1", confirmPassword: "password1" }, "password", "uppercase"],
      [{ username: uniqueUsername(), password: "Sh0rt!", confirmPassword: "Sh0rt!" }, "password", "8–32"],
      [{ username: uniqueUsername(), password: PASSWORD, confirmPassword: `${PASSWORD}x` }, "confirmPassword", "match"],
      [{ username: "13812345678", password: PASSWORD, confirmPassword: PASSWORD }, "username", "phone number"],
      [{ username: "bad name", password: PASSWORD, confirmPassword: PASSWORD }, "username", "spaces"],
      [{ username: "名字abc", password: PASSWORD, confirmPassword: PASSWORD }, "username", "letters, digits"],
      [{ username: "", password: PASSWORD, confirmPassword: PASSWORD }, "username", "required"],
    ];
    for (const [body, path, text] of cases) {
      const res = await c.post("/api/auth/signup/password", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const e = err(res);
      expect(e.code).toBe("validation_failed");
      const detail = e.details!.find((d) => d.path === path);
      expect(detail?.message, JSON.stringify(e)).toContain(text);
    }
    expect((await t.ctx.db.select().from(schema.users)).length).toBe(before);
    expect((await c.get("/api/me")).status).toBe(401);
  });

  it("refuses a username already taken in any letter case", async () => {
    const { username } = await signUpUser(t.app);
    const c = new TestClient(t.app);
    const res = await c.post("/api/auth/signup/password", {
      username: username.toUpperCase(),
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(res.status).toBe(409);
    const e = err(res);
    expect(e.code).toBe("username_taken");
    expect(e.message).toBe("This username is already taken.");
    expect(e.details).toEqual([{ path: "username", message: "This username is already taken." }]);
  });

  it("lets exactly one of two simultaneous sign-ups with the same name win", async () => {
    const username = uniqueUsername("race");
    const body = { username, password: PASSWORD, confirmPassword: PASSWORD };
    const [a, b] = await Promise.all([
      new TestClient(t.app).post("/api/auth/signup/password", body),
      new TestClient(t.app).post("/api/auth/signup/password", { ...body, username: username.toUpperCase() }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(err(a.status === 409 ? a : b).code).toBe("username_taken");
    const orgs = await t.ctx.db.select().from(schema.organizations);
    expect(orgs.filter((o) => o.name.toLowerCase() === `${username}'s organization`.toLowerCase())).toHaveLength(1);
  });

  it("answers in the request's language", async () => {
    const { username } = await signUpUser(t.app);
    const c = new TestClient(t.app);
    c.locale = "zh-CN";
    const taken = await c.post("/api/auth/signup/password", {
      username,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(err(taken).message).toBe("该用户名已被占用。");
    const weak = await c.post("/api/auth/signup/password", {
      username: uniqueUsername(),
      password: "weakpassword",
      confirmPassword: "weakpassword",
    });
    expect(err(weak).details!.find((d) => d.path === "password")!.message).toBe(
      "密码须同时包含大写字母、小写字母、数字和特殊字符。",
    );
    c.locale = "en-US";
    c.cookies.set("locale", "zh-CN");
    const viaCookie = await c.post("/api/auth/signin", { username, password: "Wrong#123" });
    expect(err(viaCookie).message).toBe("用户名或密码错误。");
  });
});

describe("sign-in, sign-out and sessions", () => {
  it("signs in with the right password, in any letter case of the username, and rotates the session token", async () => {
    const { username, me } = await signUpUser(t.app);
    const c = new TestClient(t.app);
    c.cookies.set("mp_session", "planted-token-from-an-attacker");
    const res = await c.post("/api/auth/signin", { username: username.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
    expect(MeWithOrgs.parse(res.body).id).toBe(me.id);
    expect(c.cookies.get("mp_session")).not.toBe("planted-token-from-an-attacker");
    expect((await c.get("/api/me")).status).toBe(200);
  });

  it("answers a wrong password and an unknown user alike", async () => {
    const { username } = await signUpUser(t.app);
    const c = new TestClient(t.app);
    const wrong = await c.post("/api/auth/signin", { username, password: "Wrong#123" });
    const unknown = await c.post("/api/auth/signin", { username: uniqueUsername("ghost"), password: PASSWORD });
    expect(wrong.status).toBe(401);
    expect(err(wrong).code).toBe("invalid_credentials");
    expect(err(unknown).code).toBe("invalid_credentials");
    expect(err(wrong).message).toBe(err(unknown).message);
    expect(c.cookies.has("mp_session")).toBe(false);
    const empty = await c.post("/api/auth/signin", { username: "", password: "" });
    expect(err(empty).code).toBe("validation_failed");
  });

  it("signs out: the session is revoked and the old cookie counts as expired", async () => {
    const { client: c } = await signUpUser(t.app);
    const oldToken = c.cookies.get("mp_session")!;
    expect((await c.get("/api/auth/session")).body).toEqual({ signedIn: true });
    const out = await c.post("/api/auth/signout");
    expect(out.status).toBe(204);
    // Public pages ask this without a session and get 200, not an error.
    const state = await c.get("/api/auth/session");
    expect([state.status, state.body]).toEqual([200, { signedIn: false }]);
    expect(c.cookies.has("mp_session")).toBe(false);
    expect(err(await c.get("/api/me")).code).toBe("unauthenticated");
    c.cookies.set("mp_session", oldToken);
    const replay = await c.get("/api/me");
    expect(replay.status).toBe(401);
    expect(err(replay).code).toBe("session_expired");
  });

  it("expires a session after SESSION_TTL_HOURS", async () => {
    const { client: c } = await signUpUser(t.app);
    expect((await c.get("/api/me")).status).toBe(200);
    clock.advance(t.config.sessionTtlMs + 1000);
    try {
      const res = await c.get("/api/me");
      expect(res.status).toBe(401);
      expect(err(res).code).toBe("session_expired");
      expect(err(res).message).toBe("Your session has expired. Please sign in again.");
    } finally {
      clock.advance(-(t.config.sessionTtlMs + 1000));
    }
  });

  it("lists the user's sessions with the current one flagged and revokes another one", async () => {
    const { client: a, username } = await signUpUser(t.app);
    const b = new TestClient(t.app);
    expect(
      (await b.post("/api/auth/signin", { username, password: PASSWORD }, { "user-agent": "phone-b" })).status,
    ).toBe(200);
    const list = z.array(SessionInfo).parse((await a.get("/api/me/sessions")).body);
    expect(list).toHaveLength(2);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    const other = list.find((s) => !s.current)!;
    expect(other.userAgent).toBe("phone-b");
    expect(other.ip).toBe(b.ip);

    const del = await a.delete(`/api/me/sessions/${other.id}`);
    expect(del.status).toBe(204);
    expect(err(await b.get("/api/me")).code).toBe("session_expired");
    expect(z.array(SessionInfo).parse((await a.get("/api/me/sessions")).body)).toHaveLength(1);
  });

  it("does not let a user revoke someone else's session", async () => {
    const { client: a } = await signUpUser(t.app);
    const { client: b } = await signUpUser(t.app);
    const bSessions = z.array(SessionInfo).parse((await b.get("/api/me/sessions")).body);
    const res = await a.delete(`/api/me/sessions/${bSessions[0]!.id}`);
    expect(res.status).toBe(404);
    expect((await b.get("/api/me")).status).toBe(200);
  });

  it("signs the caller out when they revoke their own current session", async () => {
    const { client: a } = await signUpUser(t.app);
    const [mine] = z.array(SessionInfo).parse((await a.get("/api/me/sessions")).body);
    expect((await a.delete(`/api/me/sessions/${mine!.id}`)).status).toBe(204);
    expect((await a.get("/api/me")).status).toBe(401);
  });
});

describe("CSRF protection", () => {
  it("rejects a state-changing request without the token, with a wrong token or from a foreign origin", async () => {
    const { client: c, username } = await signUpUser(t.app);
    const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const base = { host: "localhost:3000", cookie, "content-type": "application/json" };
    const payload = JSON.stringify({ username: uniqueUsername() });

    const noToken = await t.app.inject({ method: "PUT", url: "/api/me/username", headers: base, payload });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json().error.code).toBe("csrf_failed");

    const wrongToken = await t.app.inject({
      method: "PUT",
      url: "/api/me/username",
      headers: { ...base, "x-csrf-token": "guess" },
      payload,
    });
    expect(wrongToken.statusCode).toBe(403);

    // A token that matches its cookie but belongs to another (anonymous) browser is not bound to this session.
    const foreignCookie = cookie.replace(/mp_csrf=[^;]*/, "mp_csrf=anon-token");
    const unbound = await t.app.inject({
      method: "PUT",
      url: "/api/me/username",
      headers: { ...base, cookie: foreignCookie, "x-csrf-token": "anon-token" },
      payload,
    });
    expect(unbound.statusCode).toBe(403);

    c.origin = "https://evil.example";
    const cross = await c.put("/api/me/username", { username: uniqueUsername() });
    expect(cross.status).toBe(403);
    expect(err(cross).code).toBe("csrf_failed");

    c.origin = "http://localhost:3000";
    const me = MeWithOrgs.parse((await c.get("/api/me")).body);
    expect(me.username).toBe(username);
  });

  it("protects sign-in too: a login form posted from another site fails", async () => {
    const { username } = await signUpUser(t.app);
    const c = new TestClient(t.app);
    c.origin = "https://evil.example";
    const res = await c.post("/api/auth/signin", { username, password: PASSWORD });
    expect(res.status).toBe(403);
  });
});

describe("SMS codes", () => {
  it("signs up by phone with a 6-digit code sent in the user's language with the brand name", async () => {
    const c = new TestClient(t.app);
    c.locale = "zh-CN";
    const phone = uniquePhone();
    const sent = await c.post("/api/auth/sms", { phone: phone.local, purpose: "signup" });
    expect(SendSmsResponse.parse(sent.body)).toEqual({ resendAfterSeconds: 60, expiresInSeconds: 300 });
    const sms = (await devOutbox(t.app, phone.local))[0]!;
    expect(sms.phone).toBe(phone.e164);
    expect(sms.code).toMatch(/^\d{6}$/);
    expect(sms.text).toContain("【Moonport】");
    expect(sms.text).toContain(sms.code);
    const [stored] = await t.ctx.db.select().from(schema.smsCodes).where(eq(schema.smsCodes.phone, phone.e164));
    expect(stored!.codeHash).not.toContain(sms.code);

    const username = uniqueUsername();
    const res = await c.post("/api/auth/signup/phone", {
      phone: phone.local,
      code: sms.code,
      username,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(res.status).toBe(200);
    const me = MeWithOrgs.parse(res.body);
    expect(me.phoneMasked).toBe(`+86 ${phone.local.slice(0, 3)}****${phone.local.slice(-4)}`);
    expect(me.organizations[0]!.currency).toBe("CNY");

    const en = new TestClient(t.app);
    const p2 = uniquePhone();
    await en.post("/api/auth/sms", { phone: p2.local, purpose: "signup" });
    const text = (await devOutbox(t.app, p2.local))[0]!.text;
    expect(text).toMatch(/^\[Moonport\] Your verification code is \d{6}\./);
  });

  it("refuses a code that was already used", async () => {
    const c = new TestClient(t.app);
    const { phone } = await signUpByPhone(c);
    const code = await sendCode(c, phone.local, "signin");
    const first = await c.post("/api/auth/signin/sms", { phone: phone.local, code });
    expect(first.status).toBe(200);
    const again = await new TestClient(t.app).post("/api/auth/signin/sms", { phone: phone.local, code });
    expect(again.status).toBe(400);
    expect(err(again).code).toBe("sms_code_expired");
  });

  it("refuses a code older than five minutes", async () => {
    const c = new TestClient(t.app);
    const phone = uniquePhone();
    const code = await sendCode(c, phone.local, "signup");
    clock.advance(5 * 60_000 + 1000);
    try {
      const res = await c.post("/api/auth/signup/phone", {
        phone: phone.local,
        code,
        username: uniqueUsername(),
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
      expect(res.status).toBe(400);
      expect(err(res).code).toBe("sms_code_expired");
      expect(err(res).details![0]!.path).toBe("code");
    } finally {
      clock.advance(-(5 * 60_000 + 1000));
    }
  });

  it("allows five wrong tries per code, then demands a new code even for the right one", async () => {
    const c = new TestClient(t.app);
    const phone = uniquePhone();
    const code = await sendCode(c, phone.local, "signup");
    const wrong = code === "000000" ? "111111" : "000000";
    const body = (code: string) => ({
      phone: phone.local,
      code,
      username: uniqueUsername(),
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    for (let i = 0; i < 5; i++) {
      const res = await c.post("/api/auth/signup/phone", body(wrong));
      expect(err(res).code).toBe("sms_code_invalid");
    }
    const res = await c.post("/api/auth/signup/phone", body(code));
    expect(res.status).toBe(429);
    expect(err(res).code).toBe("sms_too_many_attempts");
    const [user] = await t.ctx.db.select().from(schema.users).where(eq(schema.users.phone, phone.e164));
    expect(user).toBeUndefined();
  });

  it("makes the user wait 60 seconds before another code to the same phone", async () => {
    const c = new TestClient(t.app);
    const phone = uniquePhone();
    const first = await sendCode(c, phone.local, "signup");
    const again = await c.post("/api/auth/sms", { phone: phone.local, purpose: "signup" });
    expect(again.status).toBe(429);
    expect(err(again).code).toBe("rate_limited");
    expect(Number(again.headers["retry-after"])).toBeGreaterThan(50);
    expect(err(again).message).toMatch(/Try again in \d+ seconds/);
    clock.advance(61_000);
    const second = await sendCode(c, phone.local, "signup");
    // Only the newest code counts.
    if (first !== second) {
      const old = await c.post("/api/auth/signup/phone", {
        phone: phone.local,
        code: first,
        username: uniqueUsername(),
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
      expect(err(old).code).toBe("sms_code_invalid");
    }
  });

  it("refuses a sign-up code for a registered phone and a sign-in code for an unknown one", async () => {
    const c = new TestClient(t.app);
    const { phone } = await signUpByPhone(c);
    const taken = await new TestClient(t.app).post("/api/auth/sms", { phone: phone.local, purpose: "signup" });
    expect(taken.status).toBe(409);
    expect(err(taken).code).toBe("phone_taken");
    const unknown = await new TestClient(t.app).post("/api/auth/sms", {
      phone: uniquePhone().local,
      purpose: "signin",
    });
    expect(unknown.status).toBe(404);
    expect(err(unknown).code).toBe("phone_not_registered");
    const signin = await new TestClient(t.app).post("/api/auth/signin/sms", {
      phone: uniquePhone().local,
      code: "123456",
    });
    expect(err(signin).code).toBe("phone_not_registered");
    const bad = await new TestClient(t.app).post("/api/auth/sms", { phone: "12345", purpose: "signup" });
    expect(err(bad).details).toEqual([{ path: "phone", message: "Enter a valid phone number." }]);
    const noPhone = await new TestClient(t.app).post("/api/auth/sms", { purpose: "signin" });
    expect(err(noPhone).code).toBe("validation_failed");
  });

  it("signs in by SMS code and by password with the bound phone number as the username", async () => {
    const c = new TestClient(t.app);
    const { phone, me } = await signUpByPhone(c);
    const d = new TestClient(t.app);
    const code = await sendCode(d, phone.local, "signin");
    const res = await d.post("/api/auth/signin/sms", { phone: phone.local, code });
    expect(MeWithOrgs.parse(res.body).id).toBe(me.id);
    const e = new TestClient(t.app);
    const byPhone = await e.post("/api/auth/signin", { username: phone.local, password: PASSWORD });
    expect(byPhone.status).toBe(200);
    expect(MeWithOrgs.parse(byPhone.body).id).toBe(me.id);
  });

  it("reports a failing SMS provider and keeps no code for it", async () => {
    const failing = await createTestApp(
      {},
      {
        sms: {
          kind: "http",
          send: async () => {
            const { SmsSendError } = await import("../src/modules/auth/sms/provider.ts");
            throw new SmsSendError("provider answered HTTP 503");
          },
        },
      },
    );
    try {
      const c = new TestClient(failing.app);
      const phone = uniquePhone();
      const res = await c.post("/api/auth/sms", { phone: phone.local, purpose: "signup" });
      expect(res.status).toBe(502);
      expect(err(res).code).toBe("sms_send_failed");
      expect(err(res).message).toContain("HTTP 503");
      expect(await failing.ctx.db.select().from(schema.smsCodes)).toHaveLength(0);
    } finally {
      await failing.close();
    }
  });
});

describe("profile", () => {
  it("changes the username, refusing one taken by someone else", async () => {
    const { client: c, username } = await signUpUser(t.app);
    const { username: other } = await signUpUser(t.app);
    const taken = await c.put("/api/me/username", { username: other.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(err(taken).code).toBe("username_taken");
    const phoneLike = await c.put("/api/me/username", { username: "+8613912345678" });
    expect(err(phoneLike).details!.map((d) => d.message)).toContain("The username must not be a phone number.");
    const recase = await c.put("/api/me/username", { username: username.toUpperCase() });
    expect(MeWithOrgs.parse(recase.body).username).toBe(username.toUpperCase());
    const renamed = uniqueUsername("renamed");
    const ok = await c.put("/api/me/username", { username: renamed });
    expect(MeWithOrgs.parse(ok.body).username).toBe(renamed);
    expect(
      (await new TestClient(t.app).post("/api/auth/signin", { username: renamed, password: PASSWORD })).status,
    ).toBe(200);
  });

  it("changes the password only with the current one and signs out the user's other sessions", async () => {
    const { client: a, username } = await signUpUser(t.app);
    const b = new TestClient(t.app);
    await b.post("/api/auth/signin", { username, password: PASSWORD });
    const next = "Another#456";

    const wrong = await a.put("/api/me/password", {
      currentPassword: "Wrong#123",
      newPassword: next,
      confirmPassword: next,
    });
    expect(wrong.status).toBe(400);
    expect(err(wrong).code).toBe("wrong_password");
    expect(err(wrong).details![0]!.path).toBe("currentPassword");
    const weak = await a.put("/api/me/password", {
      currentPassword: PASSWORD,
      newPassword: "weak",
      confirmPassword: "weak",
    });
    expect(err(weak).code).toBe("validation_failed");
    const mismatch = await a.put("/api/me/password", {
      currentPassword: PASSWORD,
      newPassword: next,
      confirmPassword: "Another#457",
    });
    expect(err(mismatch).details![0]!.path).toBe("confirmPassword");
    expect((await b.get("/api/me")).status).toBe(200);

    const ok = await a.put("/api/me/password", { currentPassword: PASSWORD, newPassword: next, confirmPassword: next });
    expect(ok.status).toBe(204);
    expect((await a.get("/api/me")).status).toBe(200);
    expect(err(await b.get("/api/me")).code).toBe("session_expired");
    const c = new TestClient(t.app);
    expect((await c.post("/api/auth/signin", { username, password: PASSWORD })).status).toBe(401);
    expect((await c.post("/api/auth/signin", { username, password: next })).status).toBe(200);
  });

  it("binds a first phone with a code to the new number", async () => {
    const { client: c } = await signUpUser(t.app);
    const noOld = await c.post("/api/auth/sms", { purpose: "bind_old" });
    expect(err(noOld).code).toBe("phone_not_bound");
    const phone = uniquePhone();
    const newCode = await sendCode(c, phone.local, "bind_new");
    const res = await c.put("/api/me/phone", { newPhone: phone.local, newCode });
    expect(res.status).toBe(200);
    expect(MeWithOrgs.parse(res.body).phoneMasked).toContain(phone.local.slice(-4));
  });

  it("rebinds a phone only with codes sent to both the old and the new number", async () => {
    const c = new TestClient(t.app);
    const { phone: old } = await signUpByPhone(c);
    const next = uniquePhone();
    const newCode = await sendCode(c, next.local, "bind_new");

    const withoutOld = await c.put("/api/me/phone", { newPhone: next.local, newCode });
    expect(withoutOld.status).toBe(400);
    expect(err(withoutOld).code).toBe("old_sms_code_required");

    const sent = await c.post("/api/auth/sms", { purpose: "bind_old" });
    expect(sent.status).toBe(200);
    const oldCode = await latestSmsCode(c, old.local);
    const wrongOld = oldCode === "000000" ? "111111" : "000000";
    const bad = await c.put("/api/me/phone", { oldCode: wrongOld, newPhone: next.local, newCode });
    expect(err(bad).code).toBe("sms_code_invalid");
    expect(err(bad).details![0]!.path).toBe("oldCode");
    const wrongNew = newCode === "000000" ? "111111" : "000000";
    const badNew = await c.put("/api/me/phone", { oldCode, newPhone: next.local, newCode: wrongNew });
    expect(err(badNew).details![0]!.path).toBe("newCode");

    const ok = await c.put("/api/me/phone", { oldCode, newPhone: next.local, newCode });
    expect(ok.status).toBe(200);
    const [user] = await t.ctx.db.select().from(schema.users).where(eq(schema.users.phone, next.e164));
    expect(user).toBeDefined();
    const replay = await c.put("/api/me/phone", { oldCode, newPhone: uniquePhone().local, newCode });
    expect(replay.status).toBe(400);
  });

  it("refuses to bind a phone another account uses", async () => {
    const other = new TestClient(t.app);
    const { phone } = await signUpByPhone(other);
    const { client: c } = await signUpUser(t.app);
    const send = await c.post("/api/auth/sms", { phone: phone.local, purpose: "bind_new" });
    expect(err(send).code).toBe("phone_taken");
    const bind = await c.put("/api/me/phone", { newPhone: phone.local, newCode: "123456" });
    expect(err(bind).code).toBe("phone_taken");
    expect(err(bind).details![0]!.path).toBe("newPhone");
  });

  it("switches the current organization only to one the user belongs to, and remembers it", async () => {
    const { client: a, me } = await signUpUser(t.app);
    const { me: bMe } = await signUpUser(t.app);
    const foreign = await a.put("/api/me/current-org", { orgId: bMe.organizations[0]!.id });
    expect(foreign.status).toBe(403);
    expect(err(foreign).code).toBe("not_a_member");
    // Give A a second organization to switch to.
    const { createOrganization } = await import("../src/modules/orgs/create-organization.ts");
    const { orgId } = await createOrganization({
      db: t.ctx.db,
      name: "Team",
      edition: "cn",
      creatorUserId: me.id,
      creatorNickname: "a",
    });
    const res = await a.put("/api/me/current-org", { orgId });
    expect(MeWithOrgs.parse(res.body).currentOrganizationId).toBe(orgId);
    expect(MeWithOrgs.parse((await a.get("/api/me")).body).currentOrganizationId).toBe(orgId);
    expect(MeWithOrgs.parse((await a.get("/api/me")).body).organizations).toHaveLength(2);
  });

  it("requires a signed-in user for every profile route", async () => {
    const c = new TestClient(t.app);
    for (const [method, url] of [
      ["GET", "/api/me"],
      ["GET", "/api/me/sessions"],
      ["PUT", "/api/me/username"],
      ["PUT", "/api/me/password"],
      ["PUT", "/api/me/phone"],
      ["PUT", "/api/me/current-org"],
    ] as const) {
      const res = await c.request(method, url, method === "GET" ? undefined : {});
      expect([400, 401], url).toContain(res.status);
    }
    const res = await c.put("/api/me/username", { username: uniqueUsername() });
    expect(res.status).toBe(401);
    expect(err(res).code).toBe("unauthenticated");
  });
});
