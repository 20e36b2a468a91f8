/**
 * The sandbox PSP's own surface (outside /api: it is "another company"): hosted checkout/QR pages, the card
 * tokenization endpoint the browser calls directly. No session, no CSRF: the sandbox pages act on signed checkout
 * links only. Our notification endpoint for every provider is webhook-routes.ts.
 */
import { fillTemplate, formatMoney, type Locale, PAY_TYPE_NAMES, PayType } from "@moonport/contracts";
import type { FastifyInstance } from "fastify";
import QRCode from "qrcode";
import type { AppContext } from "../../context.ts";
import { queueSandboxNotification, readCheckout, SANDBOX_PREFIX, TEST_CARDS, tokenizeCard } from "./sandbox-psp.ts";
import { BEHAVIOUR_TEXT, SANDBOX_TEXT } from "./sandbox-text.ts";

/** The hosted pages' own policy: their inline style and same-origin form posts, nothing else. */
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** One of the page's words in the visitor's language, escaped, with `{name}` filled. */
function say(locale: Locale, key: keyof typeof SANDBOX_TEXT, params: Record<string, string> = {}): string {
  return esc(fillTemplate(SANDBOX_TEXT[key][locale], params));
}

function page(locale: Locale, body: string): string {
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${say(locale, "title")}</title>
<style>:root{color-scheme:light dark}body{font-family:system-ui,sans-serif;max-width:420px;margin:40px auto;padding:0 16px;color:#1a1a2e;background:#fff}
.badge{display:inline-block;background:#fde68a;color:#713f12;border-radius:4px;padding:2px 8px;font-size:12px}
button{font-size:16px;padding:10px 18px;margin:6px 6px 0 0;border-radius:6px;border:1px solid #888;cursor:pointer}
.pay{background:#16a34a;color:#fff;border-color:#16a34a}.amount{font-size:32px;font-weight:700;margin:12px 0}
.qr svg{background:#fff;padding:6px;border-radius:4px}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{text-align:left;padding:6px 4px;border-bottom:1px solid #8884;vertical-align:top}
td.n{font-family:ui-monospace,monospace;white-space:nowrap}.hint{font-size:14px;opacity:.8}
@media (prefers-color-scheme:dark){body{color:#e6e6ef;background:#1a1b1e}button{background:#2c2e33;color:#e6e6ef}}</style></head>
<body><span class="badge" data-testid="sandbox-test-badge">${say(locale, "badge")}</span>${body}</body></html>`;
}

/** The test cards and what each does, so a tester finds them where they pay. */
function testCards(locale: Locale): string {
  const rows = Object.entries(TEST_CARDS)
    .map(
      ([number, card]) =>
        `<tr><td class="n">${number.replace(/(\d{4})(?=\d)/g, "$1 ")}</td><td>${esc(BEHAVIOUR_TEXT[card.behaviour][locale])}</td></tr>`,
    )
    .join("");
  return `<section data-testid="sandbox-test-cards"><h2>${say(locale, "cardsTitle")}</h2><p class="hint">${say(locale, "cardsIntro")}</p>
<table><thead><tr><th>${say(locale, "number")}</th><th>${say(locale, "outcome")}</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function methodName(payType: string, locale: Locale): string {
  const known = PayType.safeParse(payType);
  return known.success ? PAY_TYPE_NAMES[known.data][locale] : payType;
}

export default async function sandboxRoutes(app: FastifyInstance, ctx: AppContext) {
  const secret = ctx.config.payments.sandboxSecret;
  if (!secret) throw new Error("the sandbox secret is not loaded");
  // The hosted page's buttons are plain forms; what they post is in the signed link, not the form body.
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, _body, done) =>
    done(null, {}),
  );

  app.get<{ Querystring: { c?: string } }>(`${SANDBOX_PREFIX}/checkout`, async (req, reply) => {
    const token = String(req.query.c ?? "");
    const c = readCheckout(secret, token);
    reply.type("text/html; charset=utf-8").header("content-security-policy", PAGE_CSP);
    const locale = req.locale;
    if (!c) return reply.status(404).send(page(locale, `<h1>${say(locale, "unknown")}</h1>`));
    const amount = formatMoney(BigInt(c.amount), c.currency as "CNY" | "USD");
    const qr = await QRCode.toString(`${req.protocol}://${req.host}${req.url}`, { type: "svg", margin: 1, width: 180 });
    return page(
      locale,
      `<h1>${say(locale, "heading", { method: methodName(c.payType, locale) })}</h1><div class="amount" data-testid="sandbox-amount">${esc(amount)}</div>
<p>${say(locale, "order", { id: c.paymentId })}</p><div class="qr" role="img" aria-label="${say(locale, "qr")}">${qr}</div>
<form method="post" action="${SANDBOX_PREFIX}/checkout/pay?c=${esc(token)}"><button class="pay" type="submit" data-testid="sandbox-pay">${say(locale, "pay", { amount })}</button></form>
<form method="post" action="${SANDBOX_PREFIX}/checkout/decline?c=${esc(token)}"><button type="submit" data-testid="sandbox-decline">${say(locale, "decline")}</button></form>
${testCards(locale)}`,
    );
  });

  for (const verdict of ["pay", "decline"] as const) {
    app.post<{ Querystring: { c?: string } }>(`${SANDBOX_PREFIX}/checkout/${verdict}`, async (req, reply) => {
      const c = readCheckout(secret, String(req.query.c ?? ""));
      reply.type("text/html; charset=utf-8").header("content-security-policy", PAGE_CSP);
      const locale = req.locale;
      if (!c) return reply.status(404).send(page(locale, `<h1>${say(locale, "unknown")}</h1>`));
      await queueSandboxNotification(ctx, {
        id: `evt_${verdict}_${c.paymentId}`,
        type: verdict === "pay" ? "payment.succeeded" : "payment.failed",
        data: { paymentId: c.paymentId, amount: c.amount, ...(verdict === "decline" ? { reason: "declined" } : {}) },
      });
      return page(
        locale,
        `<h1 data-testid="sandbox-result" data-outcome="${verdict === "pay" ? "paid" : "declined"}">${say(locale, verdict === "pay" ? "paid" : "declined")}</h1><p>${say(locale, "back")}</p>`,
      );
    });
  }

  // Tokenization: the browser posts the card here (never to /api); the answer is a token and display data.
  app.post<{ Body: { number?: unknown; cvc?: unknown; expMonth?: unknown; expYear?: unknown } }>(
    `${SANDBOX_PREFIX}/v1/tokens`,
    async (req, reply) => {
      const b = req.body ?? {};
      const result = tokenizeCard(
        secret,
        {
          number: String(b.number ?? ""),
          cvc: String(b.cvc ?? ""),
          expMonth: Number(b.expMonth),
          expYear: Number(b.expYear),
        },
        ctx.clock.now(),
      );
      if (!result.ok) return reply.status(402).send({ error: { type: "card_error", code: result.error } });
      return result;
    },
  );
}
