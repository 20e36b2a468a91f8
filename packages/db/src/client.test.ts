import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "./client.ts";

describe("openDatabase on PGlite", () => {
  it("keeps only the base types' parsers (PGlite copies the map per query), and values still arrive typed", async () => {
    const database = await openDatabase({ kind: "pglite", dataDir: "memory" });
    try {
      const client = (database.db as unknown as { $client: { parsers: Record<string, unknown> } }).$client;
      await database.db.execute(sql`select 1`);
      expect(Object.keys(client.parsers).length).toBeLessThan(40);
      const { rows } = (await database.db.execute(
        sql`select 7::int4 as i, true as b, '{"x":[1]}'::jsonb as j, 1.5::float8 as f, 'a'::text as t`,
      )) as unknown as { rows: Record<string, unknown>[] };
      expect(rows[0]).toEqual({ i: 7, b: true, j: { x: [1] }, f: 1.5, t: "a" });
    } finally {
      await database.close();
    }
  });
});
