import { maskPhone } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { asc, count, eq } from "drizzle-orm";
import type { CliCommand } from "./command.ts";

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd(),
  );
}

export const listUsersCommand: CliCommand = {
  name: "list-users",
  summary: "List user accounts (id, username, masked phone, role, created)",
  async run({ db, print }) {
    const rows = await db.select().from(schema.users).orderBy(asc(schema.users.createdAt));
    for (const line of table([
      ["ID", "USERNAME", "PHONE", "ROLE", "CREATED"],
      ...rows.map((u) => [
        u.id,
        u.username ?? "-",
        u.phone ? maskPhone(u.phone) : "-",
        u.role,
        u.createdAt.toISOString(),
      ]),
    ]))
      print(line);
    print(`${rows.length} user(s)`);
    return 0;
  },
};

export const listOrgsCommand: CliCommand = {
  name: "list-orgs",
  summary: "List organizations (id, name, edition, members, created)",
  async run({ db, print }) {
    const rows = await db
      .select({
        id: schema.organizations.id,
        name: schema.organizations.name,
        edition: schema.organizations.edition,
        currency: schema.organizations.currency,
        createdAt: schema.organizations.createdAt,
        members: count(schema.orgMembers.userId),
      })
      .from(schema.organizations)
      .leftJoin(schema.orgMembers, eq(schema.orgMembers.orgId, schema.organizations.id))
      .groupBy(schema.organizations.id)
      .orderBy(asc(schema.organizations.createdAt));
    for (const line of table([
      ["ID", "NAME", "EDITION", "CURRENCY", "MEMBERS", "CREATED"],
      ...rows.map((o) => [o.id, o.name, o.edition, o.currency, String(o.members), o.createdAt.toISOString()]),
    ]))
      print(line);
    print(`${rows.length} organization(s)`);
    return 0;
  },
};
