import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CopyColumn, CopyEncoder, type CopyValue, copyBinary, copyRows } from "./copy.ts";

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

describe("CopyEncoder", () => {
  it("gives the bytes copyBinary gives for the same rows, added one at a time", () => {
    const rows: CopyValue[][] = [
      ["a", 1, 2n, 3],
      [null, -1, -2n, Date.UTC(2026, 10, 28)],
      ["月之暗面", 0, 0n, 0],
    ];
    // Sized for one row, so adding more grows the buffer.
    const encoder = new CopyEncoder(COLUMNS, 1);
    expect(encoder.empty).toBe(true);
    for (const row of rows) encoder.add(row);
    expect(encoder.empty).toBe(false);
    expect(Buffer.from(encoder.bytes())).toEqual(Buffer.from(copyBinary(COLUMNS, rows)));
    // Taken once: the end marker is written once, and nothing can follow it.
    expect(Buffer.from(encoder.bytes())).toEqual(Buffer.from(copyBinary(COLUMNS, rows)));
    expect(() => encoder.add(["b", 1, 1n, 0])).toThrow(/after their bytes were taken/);
  });

  it("refuses a row of the wrong length or type as copyBinary does", () => {
    const encoder = new CopyEncoder(COLUMNS);
    expect(() => encoder.add(["x", 1])).toThrow(/2 values for 4 columns/);
    expect(() => encoder.add(["x", 1, 1, 0])).toThrow(/b \(int8\)/);
    // Nothing of the refused rows is left: the next row is encoded as if they had never been offered.
    encoder.add(["y", 2, 2n, 2]);
    expect(Buffer.from(encoder.bytes())).toEqual(Buffer.from(copyBinary(COLUMNS, [["y", 2, 2n, 2]])));
  });
});

// What copyRows stores, on both drivers: apps/server/test/bill-rows-copy.test.ts.
describe("copyRows", () => {
  let client: PGlite;
  beforeAll(async () => {
    client = new PGlite();
  });
  afterAll(async () => {
    await client.close();
  });

  it("wants a transaction of either driver", async () => {
    await expect(copyRows(client, "c", CopyEncoder.of(COLUMNS, [["x", 1, 1n, 0]]))).rejects.toThrow(
      /needs a transaction/,
    );
  });
});
