import {
  type ContactSalesReceipt,
  type ContactSalesRequest,
  EDITION_LOCALE,
  type Locale,
  SUPPORT_LABELS,
} from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import type { z } from "zod";
import type { AppContext } from "../../context.ts";
import { type Limiter, limiterFor } from "../../lib/limiter.ts";
import { enqueueMail } from "../../mail/enqueue-mail.ts";
import { renderMail } from "../../mail/templates.ts";
import { rateLimited } from "../auth/index.ts";

type Lead = z.output<typeof ContactSalesRequest>;

function leadsPerIp(ctx: AppContext): Limiter {
  return limiterFor(ctx, "support:salesLeadsPerIp", ctx.config.support.contactSalesPerIpPerHour, 3600);
}

/**
 * Stores a contact-sales submission and, in the same transaction, queues two e-mails: the lead to the sales
 * address (when one is configured) and a receipt to the visitor in their language. Counted per IP address before
 * anything is written, so a refused submission changes nothing.
 */
export async function submitSalesLead(opts: {
  ctx: AppContext;
  body: Lead;
  locale: Locale;
  ip: string;
  userId?: string;
}): Promise<ContactSalesReceipt> {
  const { ctx, body } = opts;
  const limit = await leadsPerIp(ctx).hit(opts.ip);
  if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds);
  const id = newId("lead");
  const createdAt = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await tx.insert(schema.salesLeads).values({
      id,
      topic: body.topic,
      name: body.name,
      phone: body.phone,
      email: body.email,
      company: body.company,
      industry: body.industry,
      stage: body.stage,
      enterpriseCertified: body.enterpriseCertified,
      organizationId: body.organizationId ?? null,
      tier5: body.tier5,
      expectedTpm: body.expectedTpm ?? null,
      background: body.background,
      problem: body.problem,
      additionalInfo: body.additionalInfo ?? null,
      locale: opts.locale,
      userId: opts.userId ?? null,
      createdAt,
    });
    const brand = ctx.config.brandName;
    const sales = ctx.config.support.salesEmail;
    if (sales) {
      // Sales reads the deployment's default edition's language.
      const l = EDITION_LOCALE[ctx.config.defaultEdition];
      const yes = { "en-US": "yes", "zh-CN": "是" }[l];
      const no = { "en-US": "no", "zh-CN": "否" }[l];
      const none = "—";
      await enqueueMail(
        ctx,
        renderMail({
          template: "sales_lead",
          locale: l,
          brand,
          to: [sales],
          params: {
            id,
            name: body.name,
            company: body.company,
            email: body.email,
            phone: body.phone,
            topic: SUPPORT_LABELS.topic[body.topic][l],
            industry: SUPPORT_LABELS.industry[body.industry][l],
            stage: SUPPORT_LABELS.stage[body.stage][l],
            certified: body.enterpriseCertified ? yes : no,
            organization: body.organizationId ?? none,
            tier5: body.tier5 ? yes : no,
            tpm: body.expectedTpm === undefined ? none : body.expectedTpm.toLocaleString(l),
            background: body.background,
            problem: body.problem,
            additionalInfo: body.additionalInfo ?? none,
            receivedAt: createdAt.toISOString(),
          },
        }),
        { tx, key: `sales_lead:${id}` },
      );
    }
    await enqueueMail(
      ctx,
      renderMail({
        template: "sales_lead_received",
        locale: opts.locale,
        brand,
        to: [body.email],
        params: { id, name: body.name, phone: body.phone, topic: SUPPORT_LABELS.topic[body.topic][opts.locale] },
      }),
      { tx, key: `sales_lead_received:${id}` },
    );
  });
  return { id, createdAt: createdAt.toISOString() };
}
