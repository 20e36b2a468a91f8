/**
 * SMS verification codes: 6 digits, stored only as a hash, valid 5 minutes, single use, 5 wrong tries each.
 * Only the newest code per phone and purpose counts: requesting a new one retires the old.
 */
import { randomInt } from "node:crypto";
import type { SmsPurpose } from "@moonport/contracts";
import { type Db, schema, sha256Hex, type Tx } from "@moonport/db";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { AppError } from "../../lib/app-error.ts";

export const SMS_CODE_TTL_SECONDS = 300;
export const SMS_RESEND_SECONDS = 60;
const SMS_MAX_ATTEMPTS = 5;

export function newSmsCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/** The hash binds the code to its row, so equal codes never share a hash. */
export function smsCodeHash(id: string, code: string): string {
  return sha256Hex(`${id}:${code}`);
}

async function latestCode(db: Db | Tx, phone: string, purpose: SmsPurpose) {
  const [row] = await db
    .select()
    .from(schema.smsCodes)
    .where(and(eq(schema.smsCodes.phone, phone), eq(schema.smsCodes.purpose, purpose)))
    .orderBy(desc(schema.smsCodes.createdAt))
    .limit(1);
  return row;
}

/** Seconds until another code may be sent to `phone` for `purpose` (0 when it may be sent now). */
export async function resendWaitSeconds(opts: { db: Db; phone: string; purpose: SmsPurpose; now: Date }) {
  const row = await latestCode(opts.db, opts.phone, opts.purpose);
  if (!row) return 0;
  const elapsedMs = opts.now.getTime() - row.createdAt.getTime();
  return Math.max(0, Math.ceil((SMS_RESEND_SECONDS * 1000 - elapsedMs) / 1000));
}

/**
 * Checks `code` against the newest code for `phone`/`purpose` without using it up; a wrong code counts an
 * attempt right away (outside any transaction, so a later rollback cannot undo it). Returns the code's id for
 * `consumeSmsCode`. Call it before opening the transaction that acts on the verified phone.
 */
export async function checkSmsCode(opts: {
  db: Db;
  phone: string;
  purpose: SmsPurpose;
  code: string;
  now: Date;
  /** The form field the error belongs to. */
  field?: string;
}): Promise<string> {
  const { db, phone, purpose, code, now } = opts;
  const field = opts.field ?? "code";
  const row = await latestCode(db, phone, purpose);
  if (!row || row.consumedAt || row.expiresAt.getTime() <= now.getTime()) {
    throw new AppError("sms_code_expired", { details: [{ path: field, message: "sms_code_expired" }] });
  }
  if (row.attempts >= SMS_MAX_ATTEMPTS) {
    throw new AppError("sms_too_many_attempts", { details: [{ path: field, message: "sms_too_many_attempts" }] });
  }
  if (smsCodeHash(row.id, code) !== row.codeHash) {
    await db
      .update(schema.smsCodes)
      .set({ attempts: sql`${schema.smsCodes.attempts} + 1` })
      .where(eq(schema.smsCodes.id, row.id));
    throw new AppError("sms_code_invalid", { details: [{ path: field, message: "sms_code_invalid" }] });
  }
  return row.id;
}

/** Uses up a checked code inside the caller's transaction; a code used concurrently fails as expired. */
export async function consumeSmsCode(opts: { tx: Tx; id: string; now: Date; field?: string }): Promise<void> {
  const used = await opts.tx
    .update(schema.smsCodes)
    .set({ consumedAt: opts.now })
    .where(and(eq(schema.smsCodes.id, opts.id), isNull(schema.smsCodes.consumedAt)))
    .returning({ id: schema.smsCodes.id });
  if (used.length === 0) {
    const field = opts.field ?? "code";
    throw new AppError("sms_code_expired", { details: [{ path: field, message: "sms_code_expired" }] });
  }
}
