import { newId, schema } from "@moonport/db";
import { Client } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "../src/chat/errors.ts";
import { createApiKey } from "../src/modules/keys/create-api-key.ts";
import { deleteApiKey } from "../src/modules/keys/delete-api-key.ts";
import { disableApiKey } from "../src/modules/keys/disable-api-key.ts";
import { enableApiKey } from "../src/modules/keys/enable-api-key.ts";
import { renameApiKey } from "../src/modules/keys/rename-api-key.ts";
import { archiveProjectRecord } from "../src/modules/projects/archive-project.ts";
import { seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function authMessage(key: string): Promise<string> {
  try {
    await t.ctx.meter.authenticate(`Bearer ${key}`);
    return "ok";
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError);
    expect((e as GatewayError).status).toBe(401);
    return (e as GatewayError).message;
  }
}

describe("gateway key lifecycle", () => {
  it("a disabled key is refused at once, and works again when re-enabled", async () => {
    const a = await seedAccount(t.ctx, { cash: "1" });
    expect(await authMessage(a.key)).toBe("ok");
    await disableApiKey({ db: t.ctx.db, keyEvents: t.ctx.keyEvents, orgId: a.orgId, keyId: a.keyId });
    expect(await authMessage(a.key)).toBe("Incorrect API key provided");
    await enableApiKey({ db: t.ctx.db, keyEvents: t.ctx.keyEvents, orgId: a.orgId, keyId: a.keyId });
    expect(await authMessage(a.key)).toBe("ok");
  });

  it("a deleted key is refused at once and cannot be re-enabled", async () => {
    const a = await seedAccount(t.ctx, { cash: "1" });
    expect(await authMessage(a.key)).toBe("ok");
    await deleteApiKey({ db: t.ctx.db, keyEvents: t.ctx.keyEvents, orgId: a.orgId, keyId: a.keyId });
    expect(await authMessage(a.key)).toBe("Incorrect API key provided");
    await expect(
      enableApiKey({ db: t.ctx.db, keyEvents: t.ctx.keyEvents, orgId: a.orgId, keyId: a.keyId }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await authMessage(a.key)).toBe("Incorrect API key provided");
  });

  it("another organization cannot disable a key", async () => {
    const a = await seedAccount(t.ctx, { cash: "1" });
    const b = await seedAccount(t.ctx, { cash: "1" });
    await expect(
      disableApiKey({ db: t.ctx.db, keyEvents: t.ctx.keyEvents, orgId: b.orgId, keyId: a.keyId }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await authMessage(a.key)).toBe("ok");
  });

  it("archiving a project refuses all its keys at once; renaming a key keeps it working", async () => {
    const a = await seedAccount(t.ctx, { cash: "1" });
    const projectId = newId("proj");
    await t.ctx.db.insert(schema.projects).values({ id: projectId, orgId: a.orgId, name: "side" });
    const side = await createApiKey({ db: t.ctx.db, orgId: a.orgId, projectId, name: "s", createdBy: a.userId });
    expect(await authMessage(side.key)).toBe("ok");
    await renameApiKey({ db: t.ctx.db, keyEvents: t.ctx.keyEvents, orgId: a.orgId, keyId: side.id, name: "renamed" });
    expect(await authMessage(side.key)).toBe("ok");
    await archiveProjectRecord({ db: t.ctx.db, keyEvents: t.ctx.keyEvents, orgId: a.orgId, projectId });
    expect(await authMessage(side.key)).toBe("Incorrect API key provided");
    expect(await authMessage(a.key)).toBe("ok");
    await expect(
      archiveProjectRecord({ db: t.ctx.db, keyEvents: t.ctx.keyEvents, orgId: a.orgId, projectId: a.projectId }),
    ).rejects.toMatchObject({ code: "default_project_archive" });
  });

  it("serves a warm key from memory without touching the database", async () => {
    const a = await seedAccount(t.ctx, { cash: "1" });
    await t.ctx.meter.authenticate(`Bearer ${a.key}`);
    const db = t.ctx.db as unknown as { select: unknown };
    const original = db.select;
    db.select = () => {
      throw new Error("database touched on the hot path");
    };
    try {
      for (let i = 0; i < 100; i++) await t.ctx.meter.authenticate(`Bearer ${a.key}`);
    } finally {
      db.select = original;
    }
  });
});

describe("keys on one keep-alive connection", () => {
  it("each request is judged by the key it presents: another key, a revoked one and a malformed one", async () => {
    const a = await seedAccount(t.ctx, { cash: "1" });
    const b = await seedAccount(t.ctx, { cash: "2" });
    const server = await t.app.listen({ port: 0, host: "127.0.0.1" });
    let connections = 0;
    t.app.server.on("connection", () => connections++);
    const client = new Client(server, { pipelining: 1 });
    const balance = async (authorization: string | undefined) => {
      const res = await client.request({
        path: "/v1/users/me/balance",
        method: "GET",
        headers: authorization === undefined ? {} : { authorization },
      });
      const body = (await res.body.json()) as { data?: { cash_balance: number }; error?: { message: string } };
      return { status: res.statusCode, cash: body.data?.cash_balance, message: body.error?.message };
    };
    try {
      expect(await balance(`Bearer ${a.key}`)).toMatchObject({ status: 200, cash: 1 });
      expect(await balance(`Bearer ${b.key}`)).toMatchObject({ status: 200, cash: 2 });
      expect(await balance(`Bearer ${a.key}`)).toMatchObject({ status: 200, cash: 1 });
      await disableApiKey({ db: t.ctx.db, keyEvents: t.ctx.keyEvents, orgId: a.orgId, keyId: a.keyId });
      expect(await balance(`Bearer ${a.key}`)).toMatchObject({ status: 401, message: "Incorrect API key provided" });
      // So far one connection, on which A was accepted three times. A refusal closes it (routes.ts sendError),
      // so what follows may open others.
      expect(connections).toBe(1);
      expect(await balance(`Bearer ${b.key}`)).toMatchObject({ status: 200, cash: 2 });
      expect(await balance(`Bearer ${b.key}`)).toMatchObject({ status: 200, cash: 2 });
      expect((await balance("Bearer sk-short")).status).toBe(401);
      expect((await balance(undefined)).status).toBe(401);
      expect((await balance("")).status).toBe(401);
      expect(await balance(`Bearer ${b.key}`)).toMatchObject({ status: 200, cash: 2 });
      await enableApiKey({ db: t.ctx.db, keyEvents: t.ctx.keyEvents, orgId: a.orgId, keyId: a.keyId });
      expect(await balance(`Bearer ${a.key}`)).toMatchObject({ status: 200, cash: 1 });
    } finally {
      await client.close();
    }
  });
});
