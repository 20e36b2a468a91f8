/** Account helpers for server tests: sign a fresh user up, read SMS codes from the development outbox. */
import { DevSmsMessage, MeWithOrgs } from "@moonport/contracts";
import { randomString } from "@moonport/db";
import { z } from "zod";
import type { App } from "../src/http/route.ts";
import { TestClient } from "./helpers.ts";

export const PASSWORD = "Secret#123";

export function uniqueUsername(prefix = "user"): string {
  return `${prefix}_${randomString(8, "abcdefghijklmnopqrstuvwxyz")}`;
}

/** A fresh mainland mobile number (E.164 as stored) and its local form. */
export function uniquePhone(): { local: string; e164: string } {
  const local = `139${randomString(8, "0123456789")}`;
  return { local, e164: `+86${local}` };
}

/** Signs a new user up with username + password; the client is signed in afterwards. */
export async function signUpUser(
  app: App,
  opts: { username?: string; password?: string; client?: TestClient } = {},
): Promise<{ client: TestClient; me: MeWithOrgs; username: string; password: string }> {
  const client = opts.client ?? new TestClient(app);
  const username = opts.username ?? uniqueUsername();
  const password = opts.password ?? PASSWORD;
  const res = await client.post("/api/auth/signup/password", { username, password, confirmPassword: password });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { client, me: MeWithOrgs.parse(res.body), username, password };
}

/** What the development SMS provider sent to `phone`, newest first, read like a developer on the server's machine. */
export async function devOutbox(app: App, phone: string): Promise<DevSmsMessage[]> {
  const res = await app.inject({
    method: "GET",
    url: `/api/dev/sms-outbox?phone=${encodeURIComponent(phone)}`,
    remoteAddress: "127.0.0.1",
  });
  if (res.statusCode !== 200) throw new Error(`dev outbox: ${res.statusCode} ${res.body}`);
  return z.array(DevSmsMessage).parse(res.json());
}

/** The newest code the development SMS provider sent to `phone`. */
export async function latestSmsCode(client: TestClient, phone: string): Promise<string> {
  const messages = await devOutbox(client.app, phone);
  const code = messages[0]?.code;
  if (!code) throw new Error(`no SMS sent to ${phone}`);
  return code;
}
