import { EDITION_TIME_ZONE, formatMoney, type Locale } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { localDate } from "../../lib/edition-time.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { enqueueMail } from "../../mail/enqueue-mail.ts";
import { renderMail } from "../../mail/templates.ts";
import { getOrganizationBalance } from "../billing/index.ts";
import { dayGroups, pad2 } from "../bills/index.ts";

const NANO = 1_000_000_000n;

function consoleUrl(ctx: AppContext, edition: "cn" | "global", path: string) {
  return `${(ctx.config.sites[edition] ?? "").replace(/\/$/, "")}${path}`;
}

/**
 * The `alerts.evaluate` job (every minute, never on the gateway's path):
 *  - balance alert: one e-mail when the available balance is below the threshold, then disarmed until the
 *    balance is back at or above it (the conditional update makes two instances send one e-mail);
 *  - project consumption alerts (projects.daily_alert / monthly_alert, whole units): one e-mail per project, kind
 *    and local day or month, recorded in project_alert_sends (its primary key makes it once).
 * E-mails go to the organization's alert recipients, enqueued in the transaction that records the sending.
 */
export async function evaluateAlerts(opts: { ctx: AppContext; now: Date }): Promise<number> {
  const { ctx, now } = opts;
  let sent = 0;
  const settings = await ctx.db
    .select({ s: schema.alertSettings, org: schema.organizations })
    .from(schema.alertSettings)
    .innerJoin(schema.organizations, eq(schema.organizations.id, schema.alertSettings.orgId))
    .where(sql`jsonb_array_length(${schema.alertSettings.recipients}) > 0`);

  for (const { s, org } of settings) {
    const locale = s.locale as Locale;
    const render = (template: "balance_low" | "project_consumption", params: Record<string, string>) =>
      renderMail({ template, locale, brand: ctx.config.brandName, to: s.recipients, params });

    if (s.balanceEnabled) {
      const balance = await getOrganizationBalance({ db: ctx.db, orgId: org.id, now });
      const threshold = BigInt(s.balanceThreshold) * NANO;
      if (balance && balance.available < threshold && s.armed) {
        await withTransaction({ db: ctx.db, log: ctx.log }, async (tx) => {
          const took = await tx
            .update(schema.alertSettings)
            .set({ armed: false, lastSentAt: now })
            .where(and(eq(schema.alertSettings.orgId, org.id), eq(schema.alertSettings.armed, true)))
            .returning({ orgId: schema.alertSettings.orgId });
          if (!took.length) return;
          await enqueueMail(
            ctx,
            render("balance_low", {
              org: org.name,
              available: formatMoney(balance.available, org.currency),
              threshold: formatMoney(threshold, org.currency, 2),
              consoleUrl: consoleUrl(ctx, org.edition, "/console/alerts"),
            }),
            { tx },
          );
          sent++;
        });
      } else if (balance && balance.available >= threshold && !s.armed) {
        await ctx.db.update(schema.alertSettings).set({ armed: true }).where(eq(schema.alertSettings.orgId, org.id));
      }
    }

    const projects = await ctx.db
      .select()
      .from(schema.projects)
      .where(
        and(
          eq(schema.projects.orgId, org.id),
          eq(schema.projects.status, "active"),
          or(isNotNull(schema.projects.dailyAlert), isNotNull(schema.projects.monthlyAlert)),
        ),
      );
    if (!projects.length) continue;
    const tz = EDITION_TIME_ZONE[org.edition];
    const today = localDate(now, tz);
    const day = `${today.year}-${pad2(today.month)}-${pad2(today.day)}`;
    const month = day.slice(0, 7);
    const done = await ctx.db
      .select()
      .from(schema.projectAlertSends)
      .where(
        and(
          inArray(
            schema.projectAlertSends.projectId,
            projects.map((p) => p.id),
          ),
          inArray(schema.projectAlertSends.period, [day, month]),
        ),
      );
    const isDone = (projectId: string, kind: string) => done.some((d) => d.projectId === projectId && d.kind === kind);
    const wanted = projects.flatMap((p) => [
      ...(p.dailyAlert !== null && !isDone(p.id, "daily") ? [{ p, kind: "daily" as const, amount: p.dailyAlert }] : []),
      ...(p.monthlyAlert !== null && !isDone(p.id, "monthly")
        ? [{ p, kind: "monthly" as const, amount: p.monthlyAlert }]
        : []),
    ]);
    if (!wanted.length) continue;
    const { groups } = await dayGroups(ctx.db, org.id, `${month}-01`, day, tz);
    for (const w of wanted) {
      const spent = groups
        .filter((g) => g.projectId === w.p.id && (w.kind === "monthly" || g.day === day))
        .reduce((t, g) => t + g.consumption, 0n);
      const amount = BigInt(w.amount) * NANO;
      if (spent < amount) continue;
      const period = w.kind === "daily" ? day : month;
      await withTransaction({ db: ctx.db, log: ctx.log }, async (tx) => {
        const took = await tx
          .insert(schema.projectAlertSends)
          .values({ projectId: w.p.id, kind: w.kind, period, sentAt: now })
          .onConflictDoNothing()
          .returning({ projectId: schema.projectAlertSends.projectId });
        if (!took.length) return;
        const kindWord = {
          "en-US": { daily: "daily", monthly: "monthly" },
          "zh-CN": { daily: "日", monthly: "月" },
        }[locale][w.kind];
        await enqueueMail(
          ctx,
          render("project_consumption", {
            org: org.name,
            project: w.p.name,
            periodKind: kindWord,
            period,
            spent: formatMoney(spent, org.currency),
            amount: formatMoney(amount, org.currency, 2),
            consoleUrl: consoleUrl(ctx, org.edition, `/console/projects/${w.p.id}`),
          }),
          { tx },
        );
        sent++;
      });
    }
  }
  return sent;
}
