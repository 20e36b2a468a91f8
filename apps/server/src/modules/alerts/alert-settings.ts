import type { AlertSettings, Locale, UpdateAlertSettingsRequest } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { getOrganizationBalance } from "../billing/index.ts";

/** The organization's alert settings; defaults (off, no recipients) until an admin saves them. */
export async function getAlertSettings(opts: { ctx: AppContext; access: OrgAccess }): Promise<AlertSettings> {
  const { db } = opts.ctx;
  const { org } = opts.access;
  const [row] = await db.select().from(schema.alertSettings).where(eq(schema.alertSettings.orgId, org.id));
  const balance = await getOrganizationBalance({ db, orgId: org.id, now: opts.ctx.clock.now() });
  return {
    currency: org.currency,
    balanceEnabled: row?.balanceEnabled ?? false,
    balanceThreshold: row?.balanceThreshold ?? 0,
    recipients: row?.recipients ?? [],
    armed: row?.armed ?? true,
    lastSentAt: row?.lastSentAt?.toISOString() ?? null,
    available: (balance?.available ?? 0n).toString(),
  };
}

/**
 * Saves the alert settings (validated by UpdateAlertSettingsRequest: threshold 0–1,000,000 whole units, 1–5
 * distinct e-mails). Saving re-arms the balance alert, so a new threshold that is already undercut sends one
 * e-mail at the next evaluation. The e-mails go out in the saving admin's language.
 */
export async function updateAlertSettings(opts: {
  ctx: AppContext;
  access: OrgAccess;
  locale: Locale;
  body: UpdateAlertSettingsRequest;
}): Promise<AlertSettings> {
  const { body } = opts;
  const recipients = body.recipients.map((r) => r.trim());
  const values = {
    balanceEnabled: body.balanceEnabled,
    balanceThreshold: body.balanceThreshold,
    recipients,
    locale: opts.locale,
    armed: true,
    updatedAt: sql`now()`,
  };
  await opts.ctx.db
    .insert(schema.alertSettings)
    .values({ orgId: opts.access.org.id, ...values })
    .onConflictDoUpdate({ target: schema.alertSettings.orgId, set: values });
  return getAlertSettings(opts);
}
