/**
 * Routes that take no body accept `Content-Type: application/json` with nothing after the headers, as HTTP
 * libraries send it on every request (a DELETE of the Files API or of a context cache, a console DELETE); routes
 * that need a body still refuse an empty one with their own message.
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "./console-helpers.ts";
import { seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
let base: string;
let account: Awaited<ReturnType<typeof seedAccount>>;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
  account = await seedAccount(t.ctx, { cash: "10", tierOverride: 5 });
});
afterAll(async () => {
  await t.close();
});

/** A request with the JSON content type and an empty body, the way many clients send a DELETE. */
async function emptyJson(method: string, path: string) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${account.key}`, "content-type": "application/json" },
    body: "",
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("an empty JSON body on /v1", () => {
  it("deletes a file", async () => {
    const form = new FormData();
    form.append("purpose", "file-extract");
    form.append("file", new Blob(["hello"], { type: "text/plain" }), "hello.txt");
    const up = await fetch(`${base}/files`, {
      method: "POST",
      headers: { authorization: `Bearer ${account.key}` },
      body: form,
    });
    const file = (await up.json()) as { id: string };
    expect(up.status, JSON.stringify(file)).toBe(200);
    const del = await emptyJson("DELETE", `/files/${file.id}`);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body).toMatchObject({ id: file.id, deleted: true });
  });

  it("deletes a context cache and a tag", async () => {
    const res = await fetch(`${base}/caching`, {
      method: "POST",
      headers: { authorization: `Bearer ${account.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "moonshot-v1", messages: [{ role: "system", content: "You are terse." }] }),
    });
    const cache = (await res.json()) as { id: string };
    expect(res.status, JSON.stringify(cache)).toBe(200);
    const del = await emptyJson("DELETE", `/caching/${cache.id}`);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body).toEqual({ deleted: true, id: cache.id, object: "context_cache_object.deleted" });
    const tag = await emptyJson("DELETE", "/caching/refs/tags/nothing-here");
    expect(tag.status, JSON.stringify(tag.body)).toBe(200);
  });

  it("still refuses an empty chat request with its own message", async () => {
    const res = await emptyJson("POST", "/chat/completions");
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain("the request body is empty");
  });
});

describe("an empty JSON body on /api", () => {
  it("deletes an API key, and a route with a body schema still validates", async () => {
    const user = await signUp(t);
    const created = await user.client.post(`/api/orgs/${user.orgId}/api-keys`, {
      name: "to delete",
      projectId: user.defaultProjectId,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const del = await user.client.request(
      "DELETE",
      `/api/orgs/${user.orgId}/api-keys/${created.body.key.id}`,
      undefined,
      {
        "content-type": "application/json",
      },
    );
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body).toEqual({ ok: true });

    const empty = await user.client.request("POST", `/api/orgs/${user.orgId}/api-keys`, undefined, {
      "content-type": "application/json",
    });
    expect(empty.status).toBe(400);
  });
});
