/**
 * The sandbox PSP's own surface (outside /api: it is "another company"): hosted checkout/QR pages, the card
 * tokenization endpoint the browser calls directly. No session, no CSRF: the sandbox pages act on signed checkout
 * links only. Our notification endpoint for every provider is webhook-routes.ts.
 */
import { formatMoney } from "@moonport/contracts";
import type { FastifyInstance } from "fastify";
import QRCode from "qrcode";
import type { AppContext } from "../../context.ts";
import { queueSandboxNotification, readCheckout, SANDBOX_PREFIX, tokenizeCard } from "./sandbox-psp.ts";

/** The hosted pages' own policy: their inline style and same-origin form posts, nothing else. */
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:420px;margin:40px auto;padding:0 16px;color:#1a1a2e}
.badge{display:inline-block;background:#fde68a;color:#713f12;border-radius:4px;padding:2px 8px;font-size:12px}
button{font-size:16px;padding:10px 18px;margin:6px 6px 0 0;border-radius:6px;border:1px solid #888;cursor:pointer}
.pay{background:#16a34a;color:#fff;border-color:#16a34a}.amount{font-size:32px;font-weight:700;margin:12px 0}</style></head>
<body><span class="badge" data-testid="sandbox-test-badge">Sandbox PSP · test payment, no real money · 测试支付，非真实付款</span>${body}</body></html>`;
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
    if (!c) return reply.status(404).send(page("Checkout", "<h1>Unknown checkout</h1>"));
    const amount = formatMoney(BigInt(c.amount), c.currency as "CNY" | "USD");
    const qr = await QRCode.toString(`${req.protocol}://${req.host}${req.url}`, { type: "svg", margin: 1, width: 180 });
    return page(
      "Checkout",
      `<h1>${esc(c.payType)} checkout</h1><div class="amount" data-testid="sandbox-amount">${esc(amount)}</div>
<p>Order ${esc(c.paymentId)}</p><div aria-label="QR code">${qr}</div>
<form method="post" action="${SANDBOX_PREFIX}/checkout/pay?c=${esc(token)}"><button class="pay" type="submit">Pay ${esc(amount)}</button></form>
<form method="post" action="${SANDBOX_PREFIX}/checkout/decline?c=${esc(token)}"><button type="submit">Decline</button></form>`,
    );
  });

  for (const verdict of ["pay", "decline"] as const) {
    app.post<{ Querystring: { c?: string } }>(`${SANDBOX_PREFIX}/checkout/${verdict}`, async (req, reply) => {
      const c = readCheckout(secret, String(req.query.c ?? ""));
      reply.type("text/html; charset=utf-8").header("content-security-policy", PAGE_CSP);
      if (!c) return reply.status(404).send(page("Checkout", "<h1>Unknown checkout</h1>"));
      await queueSandboxNotification(ctx, {
        id: `evt_${verdict}_${c.paymentId}`,
        type: verdict === "pay" ? "payment.succeeded" : "payment.failed",
        data: { paymentId: c.paymentId, amount: c.amount, ...(verdict === "decline" ? { reason: "declined" } : {}) },
      });
      return page(
        "Checkout",
        `<h1 data-testid="sandbox-result">${verdict === "pay" ? "Payment sent" : "Payment declined"}</h1><p>You can return to the merchant's page; it updates by itself.</p>`,
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
