/**
 * Bulk loads in COPY's binary format: the gateway's bill rows
 * (docs/decisions/0002-copy-encoded-bill-rows.md). PGlite takes the bytes as a blob
 * (`COPY … FROM '/dev/blob'`), PostgreSQL over the COPY sub-protocol (`COPY … FROM STDIN`, pg-copy-streams).
 *
 * Binary rather than text: PGlite's PostgreSQL runs as WebAssembly on the caller's thread, so every microsecond it
 * spends is gateway CPU, and in text format it parses every field back through the type's input function (the
 * timestamp's above all). Measured with the bill table's indexes on this VM: 29.4 µs of database work per row in
 * text, 26.7 in binary; encoding costs about the same in JavaScript either way.
 *
 * The format (PostgreSQL docs, "COPY", binary format): a signature, flags and header-extension length, then per
 * row a 16-bit field count and per field a 32-bit length (-1 for NULL) and the value in the type's send format,
 * all big-endian, and a -1 field count to end.
 */
import { finished } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

/** The column types the encoder knows; a value of another type is refused, not guessed. */
export type CopyType = "text" | "int4" | "int8" | "timestamptz";

export interface CopyColumn {
  name: string;
  type: CopyType;
}

/** text: string · int4: integer number · int8: bigint · timestamptz: epoch milliseconds · any: null for NULL */
export type CopyValue = string | number | bigint | null;

const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00]; // "PGCOPY\n\377\r\n\0"
/** The signature, the flags and the header extension's length. */
const HEADER_BYTES = SIGNATURE.length + 8;
/** 2000-01-01T00:00:00Z, PostgreSQL's timestamp epoch, in Unix milliseconds. */
const PG_EPOCH_MS = 946_684_800_000;
const TWO_32 = 4_294_967_296;

class Writer {
  buf: Buffer;
  at = 0;
  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }
  ensure(n: number) {
    if (this.at + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }
}

function fail(column: CopyColumn, value: unknown): never {
  throw new TypeError(`COPY column ${column.name} (${column.type}) cannot take ${typeof value} ${String(value)}`);
}

/**
 * `v` as UTF-8 at `at`; returns the bytes written. Bill rows are mostly short ASCII (ids, model names, statuses),
 * which a loop copies for a fraction of what a `Buffer.write` call into C++ costs per field; anything else (or
 * anything long) goes to `write`.
 */
function writeText(buf: Buffer, v: string, at: number): number {
  const n = v.length;
  if (n <= 64) {
    let i = 0;
    for (; i < n; i++) {
      const c = v.charCodeAt(i);
      if (c > 0x7f) break;
      buf[at + i] = c;
    }
    if (i === n) return n;
  }
  return buf.write(v, at, "utf8");
}

function writeField(w: Writer, column: CopyColumn, v: CopyValue) {
  if (v === null) {
    w.ensure(4);
    w.at = w.buf.writeInt32BE(-1, w.at);
    return;
  }
  switch (column.type) {
    case "text": {
      if (typeof v !== "string") fail(column, v);
      // UTF-8 takes at most three bytes per UTF-16 unit; `write` would silently truncate past the end.
      w.ensure(4 + v.length * 3);
      const n = writeText(w.buf, v, w.at + 4);
      w.buf.writeInt32BE(n, w.at);
      w.at += 4 + n;
      return;
    }
    case "int4":
      // writeInt32BE refuses what int4 cannot hold.
      if (typeof v !== "number" || !Number.isInteger(v)) fail(column, v);
      w.ensure(8);
      w.buf.writeInt32BE(4, w.at);
      w.at = w.buf.writeInt32BE(v, w.at + 4);
      return;
    case "int8":
      if (typeof v !== "bigint") fail(column, v);
      w.ensure(12);
      w.buf.writeInt32BE(8, w.at);
      w.at = w.buf.writeBigInt64BE(v, w.at + 4);
      return;
    case "timestamptz": {
      if (typeof v !== "number" || !Number.isSafeInteger(v)) fail(column, v);
      // Microseconds since 2000 as int64, split into two 32-bit words (exact: |µs| stays far below 2^53 for any
      // millisecond Date can hold).
      const us = (v - PG_EPOCH_MS) * 1000;
      const hi = Math.floor(us / TWO_32);
      w.ensure(12);
      w.buf.writeInt32BE(8, w.at);
      w.buf.writeInt32BE(hi, w.at + 4);
      w.at = w.buf.writeUInt32BE(us - hi * TWO_32, w.at + 8);
      return;
    }
  }
}

/**
 * Rows in COPY's binary format, encoded as they are added: a caller that builds each row just to encode it keeps
 * only these bytes, not its rows, until the COPY runs. The bill writer's 2,000 rows of a batch used to stay alive as
 * objects through the batch's write statement (an await, during which requests run and allocate); a
 * young-generation collection in that window promoted them all to the old generation (~230 bytes per
 * request from the bill writer in such a run of `npm run bench:profile -- --survivors`).
 */
export class CopyEncoder {
  private readonly w: Writer;
  private done = false;

  constructor(
    readonly columns: readonly CopyColumn[],
    expectedRows = 0,
  ) {
    // The header, the rows at a guess of 16 bytes a field, and the 2-byte end marker.
    const w = new Writer(HEADER_BYTES + expectedRows * (2 + columns.length * 16) + 2);
    w.buf.set(SIGNATURE, 0);
    w.at = w.buf.writeInt32BE(0, SIGNATURE.length); // flags: no OIDs
    w.at = w.buf.writeInt32BE(0, w.at); // no header extension
    this.w = w;
  }

  /** One row, its values in `columns` order. */
  add(row: readonly CopyValue[]): void {
    const { w, columns } = this;
    if (this.done) throw new Error("COPY rows added after their bytes were taken");
    if (row.length !== columns.length) {
      throw new TypeError(`COPY row has ${row.length} values for ${columns.length} columns`);
    }
    const start = w.at;
    try {
      w.ensure(2);
      w.at = w.buf.writeInt16BE(columns.length, w.at);
      for (let i = 0; i < columns.length; i++) writeField(w, columns[i]!, row[i]!);
    } catch (e) {
      // A refused row leaves nothing behind: the rows before it still make a valid COPY.
      w.at = start;
      throw e;
    }
  }

  /** The rows added so far, as one COPY's bytes; nothing can be added afterwards. */
  bytes(): Uint8Array {
    const w = this.w;
    if (!this.done) {
      this.done = true;
      w.ensure(2);
      w.at = w.buf.writeInt16BE(-1, w.at);
    }
    return w.buf.subarray(0, w.at);
  }

  /** Whether no row has been added. */
  get empty(): boolean {
    return this.w.at === HEADER_BYTES;
  }

  /** `rows` encoded, each row's values in `columns` order. */
  static of(columns: readonly CopyColumn[], rows: readonly (readonly CopyValue[])[]): CopyEncoder {
    const encoder = new CopyEncoder(columns, rows.length);
    for (const row of rows) encoder.add(row);
    return encoder;
  }
}

/** The rows in COPY's binary format, each row's values in `columns` order. */
export function copyBinary(columns: readonly CopyColumn[], rows: readonly CopyValue[][]): Uint8Array {
  return CopyEncoder.of(columns, rows).bytes();
}

/**
 * Bulk-loads the encoded `rows` into `table` (their columns) within the transaction `tx` of either driver.
 * Identifiers are the caller's constants, never user input.
 */
export async function copyRows(tx: unknown, table: string, rows: CopyEncoder) {
  // drizzle's transactions keep the driver's own handle as session.client: node-postgres's pooled client, or
  // PGlite's Transaction.
  const client = (tx as { session?: { client?: { query?: unknown; rollback?: unknown } } }).session?.client;
  const postgres = client instanceof pg.Client;
  const pglite = !postgres && typeof client?.query === "function" && typeof client.rollback === "function";
  if (!postgres && !pglite) throw new Error("copyRows needs a transaction of @moonport/db");
  if (rows.empty) return;
  const bytes = rows.bytes();
  const names = rows.columns.map((c) => c.name).join(", ");
  if (postgres) {
    // One write of the whole batch; `finished` waits for the server's CommandComplete, and an error (a violated
    // key) arrives as the stream's error, failing the transaction as a failed statement would.
    const stream = client.query(copyFrom(`copy ${table} (${names}) from stdin with (format binary)`));
    stream.end(bytes);
    await finished(stream);
    return;
  }
  const query = (client as { query: (q: string, p: unknown[], o: { blob: Blob }) => Promise<unknown> }).query;
  await query.call(client, `copy ${table} (${names}) from '/dev/blob' with (format binary)`, [], {
    blob: new Blob([bytes]),
  });
}
