/**
 * The invoice documents, laid out by the shared PDF kit (lib/pdf): the cn VAT invoice (Chinese labels with
 * English under them, amounts from the invoice row: net, tax and gross were computed once at application) and the
 * global edition's order invoice with GST.
 */
import { formatMoney, formatRate } from "@moonport/contracts";
import type { Config } from "../../env.ts";
import { renderPdf } from "../../lib/pdf/pdf-kit.ts";
import { editionDate } from "./apply-invoice.ts";
import type { InvoiceRow } from "./invoice-view.ts";

const both = (zh: string, en: string) => `${zh} ${en}`;

export function renderVatInvoicePdf(config: Config, inv: InvoiceRow): Promise<Buffer> {
  const money = (n: bigint) => formatMoney(n, inv.currency, 2);
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
  return renderPdf({
    brand: config.brandName,
    title: kind,
    author: config.invoices.sellerName,
    language: "zh-CN",
    meta: [
      [both("发票号码", "Invoice No."), inv.invoiceNo ?? "-"],
      [both("开票日期", "Issued"), inv.issuedAt ? editionDate("cn", inv.issuedAt) : "-"],
      [both("申请日期", "Applied"), editionDate("cn", inv.createdAt)],
      [both("发票类型", "Type"), kindEn],
    ],
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

export function renderOrderInvoicePdf(
  config: Config,
  order: {
    invoiceNo: string;
    paidAt: Date;
    paymentId: string;
    currency: "CNY" | "USD";
    amount: bigint;
    net: bigint;
    tax: bigint;
    taxRateBp: number;
    billTo: Record<string, string | null>;
  },
): Promise<Buffer> {
  const money = (n: bigint) => formatMoney(n, order.currency, 2);
  const rate = `${formatRate(order.taxRateBp)}%`;
  const b = order.billTo;
  return renderPdf({
    brand: config.brandName,
    title: "Tax invoice",
    author: config.invoices.sellerName,
    language: "en-US",
    meta: [
      ["Invoice No.", order.invoiceNo],
      ["Date", editionDate("global", order.paidAt)],
      ["Order", order.paymentId],
      ["Status", "Paid"],
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
              .join("\n"),
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
      rows: [[`${config.brandName} API credit (prepaid recharge)`, money(order.net), rate, money(order.tax)]],
    },
    totals: [
      ["Net total", money(order.net)],
      [`GST ${rate}`, money(order.tax)],
      ["Total paid", money(order.amount)],
    ],
    notes: [
      `Amounts include GST at ${rate}: net = total ÷ (1 + ${rate}) rounded half up to the cent; GST = total − net.`,
      `${config.invoices.sellerName} · ${config.brandName}`,
    ],
  });
}
