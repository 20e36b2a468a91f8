/**
 * Contact sales (public form) and feedback (console form): shared by the server's validation and the browser's
 * forms, so both say the same thing in the user's language.
 */
import { z } from "zod";
import { findModel } from "../catalog.ts";
import type { Localized } from "../locale.ts";
import { requiredText, vmsg } from "../validation.ts";
import { paged } from "./common.ts";

/** §9 sectors, in the order the industry picker shows them. */
export const SECTORS = [
  "finance",
  "law",
  "internet",
  "education",
  "medical",
  "government",
  "university",
  "industry",
  "other",
] as const;
export type Sector = (typeof SECTORS)[number];

/** What the visitor wants help with (the form's first question). */
export const SALES_TOPICS = [
  "pricing",
  "rate_limits",
  "enterprise",
  "private_deployment",
  "partnership",
  "other",
] as const;

/** How far the visitor's evaluation has come. */
export const EVALUATION_STAGES = ["exploring", "testing", "ready", "production"] as const;

/** §9 feedback types. */
export const FEEDBACK_TYPES = [
  "model_output",
  "api_error",
  "file_upload",
  "context_caching",
  "tool_use",
  "platform_feature",
  "account_issue",
  "other",
] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];

/** Shared by sales leads and feedback in the back-office queues. */
export const TICKET_STATUSES = ["new", "in_progress", "resolved"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const SUPPORT_LIMITS = {
  /** Contact-sales submissions one IP address may make per hour (a form bots love). */
  salesLeadsPerIpPerHour: 5,
  feedbackPerUserPerHour: 20,
  feedbackImages: 3,
  feedbackImageBytes: 5 * 1024 * 1024,
  feedbackImageTypes: ["image/png", "image/jpeg", "image/webp", "image/gif"],
  maxTpm: 1_000_000_000,
} as const;

const text = requiredText;
const optionalText = (max: number) =>
  z
    .string({ error: vmsg("invalid_type") })
    .trim()
    .max(max, vmsg("too_long", { max }))
    .optional()
    .transform((v) => (v ? v : undefined));
const choice = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: vmsg("required") });

/** Landlines and mobiles of any country: separators dropped, then 6–15 digits with an optional "+". */
export const ContactPhone = z
  .string({ error: vmsg("required") })
  .trim()
  .min(1, vmsg("required"))
  .transform((s) => s.replace(/[\s\-().]/g, ""))
  .refine((s) => /^\+?\d{6,15}$/.test(s), vmsg("contact_phone"));

export const ContactEmail = z
  .string({ error: vmsg("required") })
  .trim()
  .min(1, vmsg("required"))
  .max(254, vmsg("too_long", { max: 254 }))
  .pipe(z.email({ error: vmsg("email") }));

export const ContactSalesRequest = z.object({
  topic: choice(SALES_TOPICS),
  name: text(50),
  phone: ContactPhone,
  email: ContactEmail,
  company: text(100),
  industry: choice(SECTORS),
  stage: choice(EVALUATION_STAGES),
  enterpriseCertified: z.boolean({ error: vmsg("required") }),
  organizationId: optionalText(64),
  tier5: z.boolean({ error: vmsg("invalid_type") }).default(false),
  /** Expected input tokens per minute; empty when unknown. */
  expectedTpm: z
    .union([z.number(), z.string()], { error: vmsg("tpm_format") })
    .optional()
    .transform((v, c) => {
      if (v === undefined || v === "") return undefined;
      const n = typeof v === "number" ? v : Number(v.replace(/[\s,]/g, ""));
      if (!Number.isInteger(n) || n < 0 || n > SUPPORT_LIMITS.maxTpm) {
        c.addIssue({ code: "custom", message: vmsg("tpm_format") });
        return z.NEVER;
      }
      return n;
    }),
  background: text(2000),
  problem: text(2000),
  additionalInfo: optionalText(2000),
});
export type ContactSalesRequest = z.input<typeof ContactSalesRequest>;

export const ContactSalesReceipt = z.object({ id: z.string(), createdAt: z.string() });
export type ContactSalesReceipt = z.infer<typeof ContactSalesReceipt>;

/** The text fields of a feedback submission (multipart: these plus up to three `image` files). */
export const FeedbackFields = z.object({
  type: choice(FEEDBACK_TYPES),
  model: optionalText(64).refine((m) => m === undefined || findModel(m) !== undefined, vmsg("unknown_model")),
  description: text(2000),
  contact: optionalText(100),
});
export type FeedbackFields = z.input<typeof FeedbackFields>;

export const FeedbackItem = z.object({
  id: z.string(),
  type: z.enum(FEEDBACK_TYPES),
  model: z.string().nullable(),
  description: z.string(),
  contact: z.string().nullable(),
  images: z.number().int(),
  status: z.enum(TICKET_STATUSES),
  createdAt: z.string(),
  /** When an operator answered (by e-mail, to the contact or the submitter). */
  repliedAt: z.string().nullable(),
  submittedBy: z.string(),
});
export type FeedbackItem = z.infer<typeof FeedbackItem>;

export const FeedbackPage = paged(FeedbackItem);
export type FeedbackPage = z.infer<typeof FeedbackPage>;

/**
 * Labels of the choices, in both locales: the forms show them and the e-mails to sales and support print them, so
 * they live here once rather than in the web app's and the server's dictionaries.
 */
export const SUPPORT_LABELS: {
  topic: Record<(typeof SALES_TOPICS)[number], Localized>;
  industry: Record<Sector, Localized>;
  stage: Record<(typeof EVALUATION_STAGES)[number], Localized>;
  feedbackType: Record<FeedbackType, Localized>;
  status: Record<TicketStatus, Localized>;
} = {
  topic: {
    pricing: { "en-US": "Pricing and quotes", "zh-CN": "价格与报价" },
    rate_limits: { "en-US": "Higher rate limits", "zh-CN": "提升速率限制" },
    enterprise: { "en-US": "Enterprise plan and contract", "zh-CN": "企业方案与合同" },
    private_deployment: { "en-US": "Private deployment", "zh-CN": "私有化部署" },
    partnership: { "en-US": "Partnership", "zh-CN": "商务合作" },
    other: { "en-US": "Something else", "zh-CN": "其他" },
  },
  industry: {
    finance: { "en-US": "Finance", "zh-CN": "金融" },
    law: { "en-US": "Law", "zh-CN": "法律" },
    internet: { "en-US": "Internet", "zh-CN": "互联网" },
    education: { "en-US": "Education", "zh-CN": "教育" },
    medical: { "en-US": "Healthcare", "zh-CN": "医疗" },
    government: { "en-US": "Government", "zh-CN": "政务" },
    university: { "en-US": "University and research", "zh-CN": "高校与科研" },
    industry: { "en-US": "Manufacturing and industry", "zh-CN": "工业制造" },
    other: { "en-US": "Other", "zh-CN": "其他" },
  },
  stage: {
    exploring: { "en-US": "Exploring options", "zh-CN": "初步了解" },
    testing: { "en-US": "Testing the API", "zh-CN": "正在测试 API" },
    ready: { "en-US": "Ready to buy", "zh-CN": "准备采购" },
    production: { "en-US": "Already in production", "zh-CN": "已在生产环境使用" },
  },
  feedbackType: {
    model_output: { "en-US": "Model output", "zh-CN": "模型输出" },
    api_error: { "en-US": "API error", "zh-CN": "API 报错" },
    file_upload: { "en-US": "File upload", "zh-CN": "文件上传" },
    context_caching: { "en-US": "Context caching", "zh-CN": "上下文缓存" },
    tool_use: { "en-US": "Tool use", "zh-CN": "工具调用" },
    platform_feature: { "en-US": "Platform feature", "zh-CN": "平台功能" },
    account_issue: { "en-US": "Account", "zh-CN": "账号问题" },
    other: { "en-US": "Other", "zh-CN": "其他" },
  },
  status: {
    new: { "en-US": "Received", "zh-CN": "已收到" },
    in_progress: { "en-US": "In progress", "zh-CN": "处理中" },
    resolved: { "en-US": "Resolved", "zh-CN": "已解决" },
  },
};
