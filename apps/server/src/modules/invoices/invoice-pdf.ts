/**
 * The invoice documents, laid out by the shared PDF kit (lib/pdf), amounts always from the stored rows (net, tax
 * and gross were computed once at application): the cn VAT invoice and its red-letter invoice (Chinese labels with
 * English beside them), and the global edition's GST documents — a paid card order's invoice, a tax invoice
 * applied for, and the credit note that voids one.
 */
import { formatMoney, formatRate, type Locale } from "@moonport/contracts";
import type { Config } from "../../env.ts";
import { renderPdf } from "../../lib/pdf/pdf-kit.ts";
import { editionDate } from "./apply-invoice.ts";
import type { InvoiceRow } from "./invoice-view.ts";

const both = (zh: string, en: string) => `${zh} ${en}`;

/** An issued invoice's PDF, in its edition's form. */
export function renderInvoicePdf(config: Config, inv: InvoiceRow): Promise<Buffer> {
  return inv.currency === "CNY"
    ? renderVatInvoicePdf(config, inv)
    : renderGstPdf(config, "en-US", gstDocument(inv, "invoice"));
}

/**
 * The document that voids an issued invoice: a red-letter invoice (cn: the same lines, negative, naming the blue
 * invoice) or a credit note (global). `inv` carries the void document's number in `redInvoiceNo`.
 */
export function renderVoidPdf(config: Config, inv: InvoiceRow, at: Date): Promise<Buffer> {
  return inv.currency === "CNY"
    ? renderVatInvoicePdf(config, inv, at)
    : renderGstPdf(config, "en-US", gstDocument(inv, "credit_note", at));
}

function gstDocument(inv: InvoiceRow, kind: "invoice" | "credit_note", at?: Date): GstDocument {
  const sign = kind === "credit_note" ? -1n : 1n;
  return {
    kind,
    number: (kind === "credit_note" ? inv.redInvoiceNo : inv.invoiceNo) ?? "-",
    date: at ?? inv.issuedAt ?? inv.createdAt,
    references:
      kind === "credit_note"
        ? [["Credits invoice", inv.invoiceNo ?? "-"]]
        : [["Applied", editionDate("global", inv.createdAt)]],
    currency: inv.currency,
    amount: sign * inv.amount,
    net: sign * inv.net,
    tax: sign * inv.tax,
    taxRateBp: inv.taxRateBp,
    billTo: inv.billTo ?? { name: inv.title, email: inv.email, tax_id: inv.uscc },
    remarks: kind === "credit_note" ? [GST_WORDS["en-US"].voidsInFull(inv.invoiceNo ?? "-")] : [],
  };
}

function renderVatInvoicePdf(config: Config, inv: InvoiceRow, voidedAt?: Date): Promise<Buffer> {
  // A red-letter invoice repeats the blue one's lines with negative amounts and names it.
  const sign = voidedAt ? -1n : 1n;
  const money = (n: bigint) => formatMoney(sign * n, inv.currency, 2);
  const rate = `${formatRate(inv.taxRateBp)}%`;
  const kind =
    inv.invoiceType === "special"
      ? inv.method === "electronic"
        ? "增值税电子专用发票"
        : "增值税专用发票"
      : inv.method === "electronic"
        ? "增值税电子普通发票"
        : "增值税普通发票";
  const kindEn = inv.invoiceType === "special" ? "Special VAT invoice" : "General VAT invoice";
  const meta: [string, string][] = voidedAt
    ? [
        [both("发票号码", "Invoice No."), inv.redInvoiceNo ?? "-"],
        [both("开票日期", "Issued"), editionDate("cn", voidedAt)],
        [both("原发票号码", "Voids No."), inv.invoiceNo ?? "-"],
        [both("发票类型", "Type"), `${kindEn} (red-letter)`],
      ]
    : [
        [both("发票号码", "Invoice No."), inv.invoiceNo ?? "-"],
        [both("开票日期", "Issued"), inv.issuedAt ? editionDate("cn", inv.issuedAt) : "-"],
        [both("申请日期", "Applied"), editionDate("cn", inv.createdAt)],
        [both("发票类型", "Type"), kindEn],
      ];
  return renderPdf({
    brand: config.brandName,
    title: voidedAt ? `${kind}（红字）` : kind,
    author: config.invoices.sellerName,
    language: "zh-CN",
    meta,
    parties: [
      {
        heading: both("购买方", "Buyer"),
        lines: [
          [both("名称", "Name"), inv.title],
          [both("统一社会信用代码/纳税人识别号", "Taxpayer ID"), inv.uscc],
          [both("地址、电话", "Address, phone"), joinNonEmpty([inv.companyAddress, inv.companyPhone])],
          [both("开户行及账号", "Bank, account"), joinNonEmpty([inv.bankName, inv.bankAccount])],
          [both("电子邮箱", "E-mail"), inv.email],
        ],
      },
      {
        heading: both("销售方", "Seller"),
        lines: [
          [both("名称", "Name"), config.invoices.sellerName],
          [both("统一社会信用代码/纳税人识别号", "Taxpayer ID"), config.invoices.sellerTaxId],
          [both("地址", "Address"), config.invoices.sellerAddress],
        ],
      },
    ],
    table: {
      columns: [
        { label: both("项目名称", "Item"), width: 5 },
        { label: both("金额", "Net"), width: 2, align: "right" },
        { label: both("税率", "Rate"), width: 1.2, align: "right" },
        { label: both("税额", "Tax"), width: 2, align: "right" },
      ],
      rows: [["*信息技术服务*大模型 API 服务费 (LLM API service)", money(inv.net), rate, money(inv.tax)]],
    },
    totals: [
      [both("合计金额", "Net total"), money(inv.net)],
      [both("合计税额", "Tax total"), money(inv.tax)],
      [both("价税合计", "Total incl. tax"), money(inv.amount)],
    ],
    notes: [
      ...(voidedAt
        ? [
            `本红字发票冲销蓝字发票 ${inv.invoiceNo ?? "-"}。`,
            `This red-letter invoice voids invoice ${inv.invoiceNo ?? "-"}.`,
          ]
        : []),
      `税额计算：不含税金额 = 价税合计 ÷ (1 + ${rate})，四舍五入到分；税额 = 价税合计 − 不含税金额。`,
      `Tax rule: net = total ÷ (1 + ${rate}) rounded half up to the cent; tax = total − net.`,
      `${config.invoices.sellerName} · ${config.brandName}`,
    ],
  });
}

function joinNonEmpty(parts: (string | null)[]): string | null {
  const kept = parts.filter((p): p is string => !!p);
  return kept.length ? kept.join("  ") : null;
}

type GstDocument = {
  kind: "order" | "invoice" | "credit_note";
  number: string;
  date: Date;
  /** Lines under the number: the order, the invoice a credit note voids, … */
  references: [string, string][];
  currency: "CNY" | "USD";
  /** Signed: a credit note's amounts are negative. */
  amount: bigint;
  net: bigint;
  tax: bigint;
  taxRateBp: number;
  billTo: Record<string, string | null>;
  /** A voided document: stamped, and its total named as such. */
  voided?: boolean;
  /** Small print above the tax rule. */
  remarks?: string[];
};

/** The GST documents' words in each locale (the cn VAT forms carry both languages side by side instead). */
const GST_WORDS = {
  "en-US": {
    title: { order: "Tax invoice", invoice: "Tax invoice", credit_note: "Credit note" },
    invoiceNo: "Invoice No.",
    creditNo: "Credit note No.",
    date: "Date",
    order: "Order",
    status: "Status",
    paid: "Paid",
    voidedStatus: (date: string) => `Voided on ${date}: the order was refunded in full`,
    credited: "Credit note",
    creditsInvoice: "Credits invoice",
    refund: "Refund",
    applied: "Applied",
    billTo: "Bill to",
    from: "From",
    name: "Name",
    email: "E-mail",
    taxId: "Tax ID",
    address: "Address",
    description: "Description",
    net: "Net",
    gst: "GST",
    tax: "Tax",
    orderLine: (brand: string) => `${brand} API credit (prepaid recharge)`,
    serviceLine: (brand: string) => `${brand} API service (prepaid recharges)`,
    netTotal: "Net total",
    totalCredited: "Total credited",
    totalPaid: "Total paid",
    totalVoided: "Total (voided)",
    total: "Total",
    stamp: "VOID",
    voidsInFull: (no: string) => `This credit note voids invoice ${no} in full.`,
    creditsPart: (no: string, amount: string) => `This credit note credits ${amount} of invoice ${no}, refunded.`,
    voidedNote: (date: string) => `This invoice was voided on ${date}: the order was refunded in full.`,
    rule: (rate: string) =>
      `Amounts include GST at ${rate}: net = total ÷ (1 + ${rate}) rounded half up to the cent; GST = total − net.`,
  },
  "zh-CN": {
    title: { order: "税务发票", invoice: "税务发票", credit_note: "贷记单" },
    invoiceNo: "发票号码",
    creditNo: "贷记单号码",
    date: "日期",
    order: "订单",
    status: "状态",
    paid: "已支付",
    voidedStatus: (date: string) => `已于 ${date} 作废：订单已全额退款`,
    credited: "贷记单",
    creditsInvoice: "冲减发票",
    refund: "退款",
    applied: "申请日期",
    billTo: "开票对象",
    from: "开票方",
    name: "名称",
    email: "电子邮箱",
    taxId: "税号",
    address: "地址",
    description: "项目",
    net: "不含税金额",
    gst: "GST 税率",
    tax: "税额",
    orderLine: (brand: string) => `${brand} API 额度（预付充值）`,
    serviceLine: (brand: string) => `${brand} API 服务（预付充值）`,
    netTotal: "不含税合计",
    totalCredited: "冲减合计",
    totalPaid: "实付合计",
    totalVoided: "合计（已作废）",
    total: "合计",
    stamp: "已作废",
    voidsInFull: (no: string) => `本贷记单全额冲销发票 ${no}。`,
    creditsPart: (no: string, amount: string) => `本贷记单冲减发票 ${no} 中已退款的 ${amount}。`,
    voidedNote: (date: string) => `本发票已于 ${date} 作废：订单已全额退款。`,
    rule: (rate: string) =>
      `金额含 ${rate} GST：不含税金额 = 合计 ÷ (1 + ${rate})，四舍五入到分；GST = 合计 − 不含税金额。`,
  },
} as const;

type OrderDoc = Omit<GstDocument, "kind" | "number" | "date" | "references" | "voided" | "remarks"> & {
  invoiceNo: string;
  paidAt: Date;
  paymentId: string;
};

/**
 * A paid card order's invoice (global): made when the order is paid, from the order's snapshot. A refund of the
 * whole order voids it (stamped, status and total say so); partial refunds are listed by their credit notes.
 */
export function renderOrderInvoicePdf(
  config: Config,
  locale: Locale,
  order: OrderDoc & { voidedAt: Date | null; creditNotes: { creditNo: string; amount: bigint }[] },
): Promise<Buffer> {
  const w = GST_WORDS[locale];
  const voided = order.voidedAt ? editionDate("global", order.voidedAt) : null;
  return renderGstPdf(config, locale, {
    ...order,
    kind: "order",
    number: order.invoiceNo,
    date: order.paidAt,
    references: [
      [w.order, order.paymentId],
      [w.status, voided ? w.voidedStatus(voided) : w.paid],
      ...order.creditNotes.map((c): [string, string] => [
        w.credited,
        `${c.creditNo} (${formatMoney(-c.amount, order.currency, 2)})`,
      ]),
    ],
    voided: voided !== null,
    remarks: voided ? [w.voidedNote(voided)] : [],
  });
}

/** The credit note of a partial refund of a card order: the refunded amount, negative, naming the invoice. */
export function renderOrderCreditNotePdf(
  config: Config,
  locale: Locale,
  note: Omit<GstDocument, "kind" | "number" | "references" | "voided" | "remarks"> & {
    creditNo: string;
    invoiceNo: string;
    paymentId: string;
  },
): Promise<Buffer> {
  const w = GST_WORDS[locale];
  return renderGstPdf(config, locale, {
    ...note,
    kind: "credit_note",
    number: note.creditNo,
    references: [
      [w.creditsInvoice, note.invoiceNo],
      [w.order, note.paymentId],
    ],
    amount: -note.amount,
    net: -note.net,
    tax: -note.tax,
    remarks: [w.creditsPart(note.invoiceNo, formatMoney(note.amount, note.currency, 2))],
  });
}

function renderGstPdf(config: Config, locale: Locale, doc: GstDocument): Promise<Buffer> {
  const w = GST_WORDS[locale];
  const money = (n: bigint) => formatMoney(n, doc.currency, 2);
  const rate = `${formatRate(doc.taxRateBp)}%`;
  const b = doc.billTo;
  const credit = doc.kind === "credit_note";
  return renderPdf({
    brand: config.brandName,
    title: w.title[doc.kind],
    author: config.invoices.sellerName,
    language: locale,
    ...(doc.voided ? { stamp: w.stamp } : {}),
    meta: [
      [credit ? w.creditNo : w.invoiceNo, doc.number],
      [w.date, editionDate("global", doc.date)],
      ...doc.references,
    ],
    parties: [
      {
        heading: w.billTo,
        lines: [
          [w.name, b.name ?? null],
          [w.email, b.email ?? null],
          [w.taxId, b.tax_id ?? null],
          [
            w.address,
            [
              b.street,
              b.address_line1,
              b.address_line2,
              [b.city, b.state, b.postal_code].filter(Boolean).join(", "),
              b.country_code,
            ]
              .filter(Boolean)
              .join("\n") || null,
          ],
        ],
      },
      {
        heading: w.from,
        lines: [
          [w.name, config.invoices.sellerName],
          [w.taxId, config.invoices.sellerTaxId],
          [w.address, config.invoices.sellerAddress],
        ],
      },
    ],
    table: {
      columns: [
        { label: w.description, width: 5 },
        { label: w.net, width: 2, align: "right" },
        { label: w.gst, width: 1.2, align: "right" },
        { label: w.tax, width: 2, align: "right" },
      ],
      rows: [
        [
          doc.kind === "order" ? w.orderLine(config.brandName) : w.serviceLine(config.brandName),
          money(doc.net),
          rate,
          money(doc.tax),
        ],
      ],
    },
    totals: [
      [w.netTotal, money(doc.net)],
      [`GST ${rate}`, money(doc.tax)],
      [
        credit ? w.totalCredited : doc.voided ? w.totalVoided : doc.kind === "order" ? w.totalPaid : w.total,
        money(doc.amount),
      ],
    ],
    notes: [...(doc.remarks ?? []), w.rule(rate), `${config.invoices.sellerName} · ${config.brandName}`],
  });
}
