import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CopyColumn, type CopyValue, copyBinary, copyRows } from "./copy.ts";

const COLUMNS: CopyColumn[] = [
  { name: "t", type: "text" },
  { name: "i", type: "int4" },
  { name: "b", type: "int8" },
  { name: "ts", type: "timestamptz" },
];

describe("copyBinary", () => {
  it("writes PostgreSQL's binary COPY format: signature, big-endian lengths and values, -1 for NULL and the end", () => {
    const bytes = Buffer.from(copyBinary(COLUMNS, [["é", -2, 258n, Date.UTC(2000, 0, 1, 0, 0, 0, 1)]]));
    expect(bytes.toString("hex")).toBe(
      [
        "5047434f50590aff0d0a00", // PGCOPY\n\377\r\n\0
        "00000000", // flags
        "00000000", // header extension
        "0004", // four fields
        "00000002c3a9", // "é" in UTF-8
        "00000004fffffffe", // -2
        "000000080000000000000102", // 258
        "0000000800000000000003e8", // 1 ms after 2000-01-01 = 1000 µs
        "ffff", // end
      ].join(""),
    );
    expect(
      Buffer.from(copyBinary(COLUMNS, [[null, null, null, null]]))
        .subarray(19, 37)
        .toString("hex"),
    ).toBe(`0004${"ffffffff".repeat(4)}`);
  });

  it("refuses a value its column's type cannot hold instead of writing something else", () => {
    const bad: [CopyValue[], RegExp][] = [
      [[1, 1, 1n, 0], /t \(text\)/],
      [["x", 1.5, 1n, 0], /i \(int4\)/],
      [["x", 2 ** 31, 1n, 0], /out of range|int4/],
      [["x", 1, 1, 0], /b \(int8\)/],
      [["x", 1, 2n ** 63n, 0], /out of range/],
      [["x", 1, 1n, 0.5], /ts \(timestamptz\)/],
      [["x", 1], /2 values for 4 columns/],
    ];
    for (const [row, message] of bad) expect(() => copyBinary(COLUMNS, [row])).toThrow(message);
  });
});

describe("copyRows on PGlite (apps/server/test/bill-rows-copy.test.ts runs it on PostgreSQL too)", () => {
  let client: PGlite;
  beforeAll(async () => {
    client = new PGlite();
    await client.exec("create table c (t text, i integer, b bigint, ts timestamptz)");
  });
  afterAll(async () => {
    await client.close();
  });

  it("stores exactly the values given: any text, the ends of each integer range, times before and after 2000", async () => {
    const rows: CopyValue[][] = [
      [
        "tab\tline\nback\\slash \\N cr\r",
        2_147_483_647,
        9_223_372_036_854_775_807n,
        Date.UTC(2026, 10, 27, 8, 30, 1, 999),
      ],
      ["中文 ✓ 😀", -2_147_483_648, -9_223_372_036_854_775_808n, Date.UTC(1999, 11, 31, 23, 59, 59, 1)],
      ["", 0, 0n, 0],
      [null, null, null, null],
      ["x".repeat(100_000), 1, 1n, Date.UTC(1970, 0, 1)],
      // Around the short-ASCII path: non-ASCII after an ASCII start, DEL, exactly 64 and 65 characters.
      ["moonshot-v1-8k é", 2, 2n, 0],
      ["del \x7f end", 3, 3n, 0],
      ["a".repeat(64), 4, 4n, 0],
      [`${"b".repeat(64)}ü`, 5, 5n, 0],
    ];
    const db = drizzle(client);
    await db.transaction(async (tx) => copyRows(tx, "c", COLUMNS, rows));
    const got = await client.query<{ t: string | null; i: number | null; b: string | null; ts: Date | null }>(
      "select t, i, b::text as b, ts from c order by i nulls last",
    );
    const expected = [...rows].sort((x, y) => (x[1] === null ? 1 : y[1] === null ? -1 : Number(x[1]) - Number(y[1])));
    expect(got.rows.map((r) => [r.t, r.i, r.b === null ? null : BigInt(r.b), r.ts?.getTime() ?? null])).toEqual(
      expected,
    );
  });

  it("wants a transaction of either driver", async () => {
    await expect(copyRows(client, "c", COLUMNS, [["x", 1, 1n, 0]])).rejects.toThrow(/needs a transaction/);
  });
});
