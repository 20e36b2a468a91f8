/**
 * The invoice documents, laid out by the shared PDF kit (lib/pdf), amounts always from the stored rows (net, tax
 * and gross were computed once at application): the cn VAT invoice and its red-letter invoice (Chinese labels with
 * English beside them), and the global edition's GST documents — a paid card order's invoice, a tax invoice
 * applied for, and the credit note that voids one.
 */
import { formatMoney, formatRate } from "@moonport/contracts";
import type { Config } from "../../env.ts";
import { renderPdf } from "../../lib/pdf/pdf-kit.ts";
import { editionDate } from "./apply-invoice.ts";
import type { InvoiceRow } from "./invoice-view.ts";

const both = (zh: string, en: string) => `${zh} ${en}`;

/** An issued invoice's PDF, in its edition's form. */
export function renderInvoicePdf(config: Config, inv: InvoiceRow): Promise<Buffer> {
  return inv.currency === "CNY" ? renderVatInvoicePdf(config, inv) : renderGstPdf(config, gstDocument(inv, "invoice"));
}

/**
 * The document that voids an issued invoice: a red-letter invoice (cn: the same lines, negative, naming the blue
 * invoice) or a credit note (global). `inv` carries the void document's number in `redInvoiceNo`.
 */
export function renderVoidPdf(config: Config, inv: InvoiceRow, at: Date): Promise<Buffer> {
  return inv.currency === "CNY"
    ? renderVatInvoicePdf(config, inv, at)
    : renderGstPdf(config, gstDocument(inv, "credit_note", at));
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
};

/** A paid card order's invoice (global): made when the order is paid, from the order's snapshot. */
export function renderOrderInvoicePdf(
  config: Config,
  order: Omit<GstDocument, "kind" | "number" | "date" | "references"> & {
    invoiceNo: string;
    paidAt: Date;
    paymentId: string;
  },
): Promise<Buffer> {
  return renderGstPdf(config, {
    ...order,
    kind: "order",
    number: order.invoiceNo,
    date: order.paidAt,
    references: [
      ["Order", order.paymentId],
      ["Status", "Paid"],
    ],
  });
}

const GST_TITLE: Record<GstDocument["kind"], string> = {
  order: "Tax invoice",
  invoice: "Tax invoice",
  credit_note: "Credit note",
};

function renderGstPdf(config: Config, doc: GstDocument): Promise<Buffer> {
  const money = (n: bigint) => formatMoney(n, doc.currency, 2);
  const rate = `${formatRate(doc.taxRateBp)}%`;
  const b = doc.billTo;
  const credit = doc.kind === "credit_note";
  return renderPdf({
    brand: config.brandName,
    title: GST_TITLE[doc.kind],
    author: config.invoices.sellerName,
    language: "en-US",
    meta: [
      [credit ? "Credit note No." : "Invoice No.", doc.number],
      ["Date", editionDate("global", doc.date)],
      ...doc.references,
    ],
    parties: [
      {
        heading: "Bill to",
        lines: [
          ["Name", b.name ?? null],
          ["E-mail", b.email ?? null],
          ["Tax ID", b.tax_id ?? null],
          [
            "Address",
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
        heading: "From",
        lines: [
          ["Name", config.invoices.sellerName],
          ["Tax ID", config.invoices.sellerTaxId],
          ["Address", config.invoices.sellerAddress],
        ],
      },
    ],
    table: {
      columns: [
        { label: "Description", width: 5 },
        { label: "Net", width: 2, align: "right" },
        { label: "GST", width: 1.2, align: "right" },
        { label: "Tax", width: 2, align: "right" },
      ],
      rows: [
        [
          doc.kind === "order"
            ? `${config.brandName} API credit (prepaid recharge)`
            : `${config.brandName} API service (prepaid recharges)`,
          money(doc.net),
          rate,
          money(doc.tax),
        ],
      ],
    },
    totals: [
      ["Net total", money(doc.net)],
      [`GST ${rate}`, money(doc.tax)],
      [credit ? "Total credited" : doc.kind === "order" ? "Total paid" : "Total", money(doc.amount)],
    ],
    notes: [
      ...(credit ? [`This credit note voids invoice ${doc.references[0]?.[1] ?? "-"} in full.`] : []),
      `Amounts include GST at ${rate}: net = total ÷ (1 + ${rate}) rounded half up to the cent; GST = total − net.`,
      `${config.invoices.sellerName} · ${config.brandName}`,
    ],
  });
}
