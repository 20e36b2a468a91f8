/**
 * Every e-mail the app sends, in both locales, with a plain-text and an HTML part. The brand is the deployment's
 * (`BRAND_NAME`); values are escaped in the HTML part. Amounts arrive formatted (formatMoney), dates as text.
 */
import type { Locale } from "@moonport/contracts";
import type { MailMessage } from "./mailer.ts";

type Params = Record<string, string>;

interface Template {
  subject: Record<Locale, string>;
  /** paragraphs; `{name}` placeholders */
  body: Record<Locale, string[]>;
}

const MAIL_TEMPLATES = {
  balance_low: {
    subject: {
      "en-US": "{brand}: available balance below {threshold}",
      "zh-CN": "{brand}：可用余额低于 {threshold}",
    },
    body: {
      "en-US": [
        "The available balance of organization {org} is {available}, below your alert threshold of {threshold}.",
        "Recharge in the console to keep your API calls running: {consoleUrl}",
        "You get this e-mail once each time the balance falls below the threshold; change the alert in Billing → Alerts.",
      ],
      "zh-CN": [
        "组织 {org} 的可用余额为 {available}，已低于您设置的提醒阈值 {threshold}。",
        "请前往控制台充值，以免 API 调用中断：{consoleUrl}",
        "余额每次低于阈值时发送一封提醒邮件；可在“费用 → 提醒设置”中修改。",
      ],
    },
  },
  project_consumption: {
    subject: {
      "en-US": "{brand}: project {project} {periodKind} consumption reached {amount}",
      "zh-CN": "{brand}：项目 {project} {periodKind}消费已达 {amount}",
    },
    body: {
      "en-US": [
        "Project {project} of organization {org} has consumed {spent} in {period}, reaching its {periodKind} consumption alert of {amount}.",
        "Review its usage in the console: {consoleUrl}",
        "You get this e-mail at most once per {periodKind} period; change the alert in the project's settings.",
      ],
      "zh-CN": [
        "组织 {org} 的项目 {project} 在 {period} 已消费 {spent}，达到{periodKind}消费提醒金额 {amount}。",
        "请前往控制台查看用量：{consoleUrl}",
        "每个{periodKind}周期最多发送一封提醒邮件；可在项目设置中修改。",
      ],
    },
  },
  sales_lead: {
    subject: {
      "en-US": "{brand}: sales inquiry from {company} ({topic})",
      "zh-CN": "{brand}：来自 {company} 的销售咨询（{topic}）",
    },
    body: {
      "en-US": [
        "{name} of {company} ({industry}) asked about: {topic}. Evaluation stage: {stage}.",
        "E-mail: {email} · Phone: {phone} · Enterprise certified: {certified} · Organization: {organization} · Tier5: {tier5} · Expected input TPM: {tpm}",
        "Background: {background}",
        "Problem: {problem}",
        "Additional information: {additionalInfo}",
        "Lead {id}, received {receivedAt}. Reply to the visitor directly; mark the lead in the back-office.",
      ],
      "zh-CN": [
        "{company}（{industry}）的 {name} 咨询：{topic}。评估阶段：{stage}。",
        "邮箱：{email} · 电话：{phone} · 企业认证：{certified} · 组织：{organization} · Tier5：{tier5} · 预计每分钟输入 tokens：{tpm}",
        "业务背景：{background}",
        "问题描述：{problem}",
        "补充信息：{additionalInfo}",
        "线索 {id}，收到于 {receivedAt}。请直接回复访客，并在后台标记处理状态。",
      ],
    },
  },
  sales_lead_received: {
    subject: {
      "en-US": "{brand}: we received your request",
      "zh-CN": "{brand}：我们已收到您的咨询",
    },
    body: {
      "en-US": [
        "Hello {name},",
        "Thank you for contacting {brand} sales about {topic}. Our team will get back to you within one working day at this address or at {phone}.",
        "Your reference: {id}.",
      ],
      "zh-CN": [
        "{name}，您好：",
        "感谢您就「{topic}」联系 {brand} 销售团队。我们会在一个工作日内通过此邮箱或电话 {phone} 与您联系。",
        "您的咨询编号：{id}。",
      ],
    },
  },
  feedback_received: {
    subject: {
      "en-US": "{brand}: feedback from {org} ({type})",
      "zh-CN": "{brand}：来自 {org} 的反馈（{type}）",
    },
    body: {
      "en-US": [
        "{user} of organization {org} sent feedback of type {type} (model: {model}).",
        "{description}",
        "Contact: {contact} · Images: {images} · Feedback {id}, received {receivedAt}.",
      ],
      "zh-CN": [
        "组织 {org} 的 {user} 提交了「{type}」类反馈（模型：{model}）。",
        "{description}",
        "联系方式：{contact} · 图片：{images} 张 · 反馈 {id}，收到于 {receivedAt}。",
      ],
    },
  },
  support_reply: {
    subject: {
      "en-US": "{brand}: a reply to your {kind}",
      "zh-CN": "{brand}：关于您的{kind}的回复",
    },
    body: {
      "en-US": ["{message}", "You wrote on {sentAt}:", "{original}", "Reference: {id}."],
      "zh-CN": ["{message}", "您于 {sentAt} 写道：", "{original}", "编号：{id}。"],
    },
  },
  invoice_issued: {
    subject: {
      "en-US": "{brand}: invoice {invoiceNo} issued",
      "zh-CN": "{brand}：发票 {invoiceNo} 已开具",
    },
    body: {
      "en-US": [
        "The {invoiceType} for {amount} (tax included) to {title} has been issued. Invoice number: {invoiceNo}.",
        "The PDF is attached. You can also download it in the console under Billing → Invoices: {consoleUrl}",
      ],
      "zh-CN": [
        "抬头为 {title}、价税合计 {amount} 的{invoiceType}已开具，发票号码：{invoiceNo}。",
        "发票 PDF 见附件，也可在控制台“费用 → 发票管理”中下载：{consoleUrl}",
      ],
    },
  },
  invoice_voided: {
    subject: {
      "en-US": "{brand}: invoice {invoiceNo} voided by {document} {voidNo}",
      "zh-CN": "{brand}：发票 {invoiceNo} 已由{document} {voidNo} 冲销",
    },
    body: {
      "en-US": [
        "Invoice {invoiceNo} to {title} for {amount} (tax included) has been voided in full by {document} {voidNo}. Its PDF is attached.",
        "The voided amount can be invoiced again or refunded in the console under Billing: {consoleUrl}",
      ],
      "zh-CN": [
        "抬头为 {title}、价税合计 {amount} 的发票 {invoiceNo} 已由{document} {voidNo} 全额冲销，PDF 见附件。",
        "冲销的金额可在控制台“费用”中重新申请开票或退款：{consoleUrl}",
      ],
    },
  },
  refund_requested: {
    subject: {
      "en-US": "{brand}: refund of {amount} requested",
      "zh-CN": "{brand}：已提交 {amount} 的退款申请",
    },
    body: {
      "en-US": [
        "We received a request to refund {amount} of unused cash to organization {org}'s payment account(s): {lines}.",
        "An operator reviews it, usually within one working day; the money then goes back the way it was paid. Vouchers are never refunded.",
        "Follow it in the console: {consoleUrl}",
      ],
      "zh-CN": [
        "我们已收到组织 {org} 的退款申请，共 {amount} 未使用现金，原路退回：{lines}。",
        "运营人员通常在一个工作日内审核，通过后款项按原支付方式退回。代金券不可退款。",
        "可在控制台查看进度：{consoleUrl}",
      ],
    },
  },
  refund_completed: {
    subject: {
      "en-US": "{brand}: {amount} refunded",
      "zh-CN": "{brand}：{amount} 已退款",
    },
    body: {
      "en-US": [
        "{amount} was refunded to organization {org}'s payment account: {lines}.",
        "Reference: {reference}. Depending on your bank it can take a few working days to show on your statement.",
        "Refund records: {consoleUrl}",
      ],
      "zh-CN": [
        "组织 {org} 的 {amount} 已原路退回：{lines}。",
        "退款参考号：{reference}。到账时间视银行处理而定，通常需要数个工作日。",
        "退款记录：{consoleUrl}",
      ],
    },
  },
  refund_rejected: {
    subject: {
      "en-US": "{brand}: refund of {amount} not approved",
      "zh-CN": "{brand}：{amount} 的退款申请未通过",
    },
    body: {
      "en-US": [
        "The request to refund {amount} to organization {org}'s payment account(s) was not approved: {lines}.",
        "The operator's reason: {reason}",
        "Nothing left your balance; the amount can be refunded again or invoiced. Refund records: {consoleUrl}",
      ],
      "zh-CN": [
        "组织 {org} 共 {amount} 的退款申请未通过审核：{lines}。",
        "运营人员给出的原因：{reason}",
        "余额未发生变化，该金额可重新申请退款或开票。退款记录：{consoleUrl}",
      ],
    },
  },
} as const satisfies Record<string, Template>;

type MailTemplate = keyof typeof MAIL_TEMPLATES;

const fill = (s: string, p: Params) => s.replace(/\{(\w+)\}/g, (m, k: string) => p[k] ?? m);
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function renderMail(opts: {
  template: MailTemplate;
  locale: Locale;
  brand: string;
  to: string[];
  params: Params;
}): MailMessage {
  const t = MAIL_TEMPLATES[opts.template];
  const params = { ...opts.params, brand: opts.brand };
  const paragraphs = t.body[opts.locale].map((p) => fill(p, params));
  const escaped = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, escapeHtml(v)]));
  const htmlParagraphs = t.body[opts.locale].map(
    (p) => `<p style="margin:0 0 12px">${fill(escapeHtml(p), escaped)}</p>`,
  );
  const subject = fill(t.subject[opts.locale], params);
  const html = `<!doctype html><html lang="${opts.locale}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#1a1b1e;background:#f8f9fa;margin:0;padding:24px">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">
<h1 style="font-size:18px;margin:0 0 16px">${escapeHtml(opts.brand)}</h1>
${htmlParagraphs.join("\n")}
</div></body></html>`;
  return { to: opts.to, subject, text: `${paragraphs.join("\n\n")}\n\n— ${opts.brand}\n`, html };
}
