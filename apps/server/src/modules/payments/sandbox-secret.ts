/**
 * The sandbox provider's HMAC secret must outlive the process: bound test cards are tokens signed with it, and a
 * notification queued before a crash is verified with it after the restart (a new secret would leave a charged
 * order waiting until it closes unpaid). PAYMENT_SANDBOX_SECRET when set; otherwise generated once and kept where
 * every process of this installation finds it: in DATA_DIR like the other generated secrets when the database is
 * PGlite (one process), in the database's settings when it is PostgreSQL (instances share the database, not a
 * DATA_DIR).
 */
import { randomBytes } from "node:crypto";
import { type Database, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { Config } from "../../env.ts";
import { keptSecret } from "../../lib/kept-secret.ts";

const SETTINGS_KEY = "payments.sandbox_secret";
const generate = () => randomBytes(32).toString("hex");

export async function loadSandboxSecret(config: Config, database: Database): Promise<string> {
  if (config.payments.sandboxSecret) return config.payments.sandboxSecret;
  if (database.kind === "pglite") return keptSecret(config.dataDir, "payment-sandbox.secret", generate).trim();
  // The first instance to start stores its value; every other one (and every later start) reads that one.
  await database.db.insert(schema.settings).values({ key: SETTINGS_KEY, value: generate() }).onConflictDoNothing();
  const [row] = await database.db
    .select({ value: schema.settings.value })
    .from(schema.settings)
    .where(eq(schema.settings.key, SETTINGS_KEY));
  return String(row!.value);
}
