import { type Database, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commands } from "../src/cli/commands.ts";
import { buildConfig } from "../src/env.ts";
import { createKeyEvents } from "../src/metering/key-events.ts";
import { verifyPassword } from "../src/modules/auth/password.ts";
import { openMemoryDatabase } from "./helpers.ts";

let database: Database;
beforeEach(async () => {
  database = await openMemoryDatabase();
});
afterEach(() => database.close());

async function run(name: string, args: string[], input = "") {
  const command = commands.find((c) => c.name === name)!;
  const lines: string[] = [];
  const config = buildConfig({ NODE_ENV: "test", DEFAULT_EDITION: "global" });
  const log = pino({ level: "silent" });
  const keyEvents = createKeyEvents({ config, database, db: database.db, log });
  const code = await command.run({
    config,
    db: database.db,
    services: { db: database.db, keyEvents, log },
    args,
    print: (l) => lines.push(l),
    readInput: async () => input,
  });
  return { code, out: lines.join("\n") };
}

describe("operator command line", () => {
  it("creates the operator from a password on stdin, with a personal organization in the default edition", async () => {
    const r = await run("create-operator", ["--username", "root_op", "--password-stdin"], "Operator#2024\n");
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("Created operator root_op");
    const [user] = await database.db.select().from(schema.users).where(eq(schema.users.username, "root_op"));
    expect(user!.role).toBe("operator");
    expect(await verifyPassword(user!.passwordHash, "Operator#2024")).toBe(true);
    const [org] = await database.db
      .select()
      .from(schema.organizations)
      .where(eq(schema.organizations.createdBy, user!.id));
    expect(org).toMatchObject({ currency: "USD", personal: true, name: "root_op's organization" });

    const users = await run("list-users", []);
    expect(users.out).toMatch(/root_op\s+-\s+operator/);
    expect(users.out).toContain("1 user(s)");
    const orgs = await run("list-orgs", []);
    expect(orgs.out).toContain("root_op's organization");
    // The audit log records it, like every operator command.
    const [line] = await database.db
      .select()
      .from(schema.operatorActions)
      .where(eq(schema.operatorActions.action, "operator.create"));
    expect(line).toMatchObject({ actor: "cli:create-operator", target: user!.id, after: { username: "root_op" } });

    const limits = await run("set-org-limits", [org!.id, "--rpm", "500"]);
    expect(limits.code, limits.out).toBe(0);
    const [set] = await database.db
      .select()
      .from(schema.operatorActions)
      .where(eq(schema.operatorActions.action, "org.set_limits"));
    expect(set).toMatchObject({
      actor: "cli:set-org-limits",
      target: org!.id,
      before: { rateLimitOverride: null },
      after: { rateLimitOverride: { rpm: 500 } },
    });
  });

  it("refuses a second operator with a clear message and changes nothing", async () => {
    expect((await run("create-operator", ["--username", "first_op"], "Operator#2024")).code).toBe(0);
    const r = await run("create-operator", ["--username", "second_op"], "Operator#2024");
    expect(r.code).toBe(1);
    expect(r.out).toContain("An operator account already exists (first_op)");
    expect(await database.db.select().from(schema.users)).toHaveLength(1);
  });

  it("rejects a missing or invalid username and a weak password", async () => {
    expect((await run("create-operator", [], "Operator#2024")).code).toBe(2);
    const phone = await run("create-operator", ["--username", "13812345678"], "Operator#2024");
    expect(phone.out).toContain("must not be a phone number");
    const weak = await run("create-operator", ["--username", "op_user"], "weakpass");
    expect(weak.code).toBe(2);
    expect(weak.out).toContain("uppercase letter");
    expect(await database.db.select().from(schema.users)).toHaveLength(0);
  });
});
