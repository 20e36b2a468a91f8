import "./zod-setup.ts";
import { z } from "zod";
import { fillTemplate } from "./errors.ts";
import type { Locale, Localized } from "./locale.ts";

/**
 * Field-level validation messages. Shared zod schemas carry these keys as their issue messages, so the server
 * and the browser form translate the very same key into the user's language.
 */
export const VALIDATION_MESSAGES = {
  required: { "en-US": "This field is required.", "zh-CN": "此项为必填项。" },
  invalid_type: { "en-US": "Invalid value.", "zh-CN": "值无效。" },
  too_long: { "en-US": "At most {max} characters.", "zh-CN": "最多 {max} 个字符。" },
  too_short: { "en-US": "At least {min} characters.", "zh-CN": "至少 {min} 个字符。" },
  username_whitespace: { "en-US": "The username must not contain spaces.", "zh-CN": "用户名不能包含空格。" },
  username_charset: {
    "en-US": "Use only letters, digits and underscores.",
    "zh-CN": "用户名只能包含字母、数字和下划线。",
  },
  username_phone: { "en-US": "The username must not be a phone number.", "zh-CN": "用户名不能是手机号。" },
  username_length: { "en-US": "The username must be 3–32 characters.", "zh-CN": "用户名长度须为 3–32 个字符。" },
  password_length: { "en-US": "The password must be 8–32 characters.", "zh-CN": "密码长度须为 8–32 个字符。" },
  password_strength: {
    "en-US": "The password needs an uppercase letter, a lowercase letter, a digit and a special character.",
    "zh-CN": "密码须同时包含大写字母、小写字母、数字和特殊字符。",
  },
  password_mismatch: { "en-US": "The two passwords do not match.", "zh-CN": "两次输入的密码不一致。" },
  password_same: {
    "en-US": "The new password must differ from the current one.",
    "zh-CN": "新密码不能与当前密码相同。",
  },
  phone_format: { "en-US": "Enter a valid phone number.", "zh-CN": "请输入有效的手机号。" },
  sms_code_format: { "en-US": "Enter the 6-digit SMS code.", "zh-CN": "请输入 6 位短信验证码。" },
  phone_same: { "en-US": "This is already your phone number.", "zh-CN": "新手机号与当前手机号相同。" },
  integer: { "en-US": "Enter a whole number.", "zh-CN": "请输入整数。" },
  amount_range: {
    "en-US": "Enter a whole number from 0 to {max}.",
    "zh-CN": "请输入 0 到 {max} 之间的整数。",
  },
  daily_over_monthly: {
    "en-US": "The daily budget cannot exceed the monthly budget ({max}).",
    "zh-CN": "日预算不能超过月预算（{max}）。",
  },
  alert_over_budget: {
    "en-US": "The alert amount cannot exceed the budget ({max}).",
    "zh-CN": "提醒金额不能超过对应的预算（{max}）。",
  },
  range: { "en-US": "Enter a value from {min} to {max}.", "zh-CN": "请输入 {min} 到 {max} 之间的值。" },
  nickname_charset: {
    "en-US": "Use only English letters, digits and underscores.",
    "zh-CN": "昵称只能包含英文字母、数字和下划线。",
  },
  no_whitespace: { "en-US": "Must not contain spaces.", "zh-CN": "不能包含空格。" },
  not_org_member: {
    "en-US": "This user is not a member of the organization. An organization admin must invite them first.",
    "zh-CN": "该用户不是组织成员，需先由组织管理员邀请加入组织。",
  },
  already_member: { "en-US": "Already a member.", "zh-CN": "已是成员。" },
  invitation_pending: {
    "en-US": "An invitation to this phone number is already pending.",
    "zh-CN": "已向该手机号发出邀请，正在等待接受。",
  },
  tpm_above_tier: {
    "en-US": "At most {max}, the organization's TPM limit.",
    "zh-CN": "不能超过组织的 TPM 上限 {max}。",
  },
  confirm_mismatch: {
    "en-US": "Type the project name exactly to confirm.",
    "zh-CN": "请准确输入项目名称以确认。",
  },
  period_format: {
    "en-US": "Invalid period: use YYYY or YYYY-MM with a year from 1970 to 9998.",
    "zh-CN": "统计周期无效：请使用 YYYY 或 YYYY-MM，年份在 1970 到 9998 之间。",
  },
  nul_character: {
    "en-US": "Must not contain the NUL character (\\u0000).",
    "zh-CN": "不能包含 NUL 字符（\\u0000）。",
  },
  email: { "en-US": "Enter a valid e-mail address.", "zh-CN": "请输入有效的邮箱地址。" },
  contact_phone: {
    "en-US": "Enter a valid phone number (6–15 digits, an optional leading +).",
    "zh-CN": "请输入有效的电话号码（6–15 位数字，可带 + 前缀）。",
  },
  tpm_format: { "en-US": "Enter a whole number of tokens per minute.", "zh-CN": "请输入每分钟 token 数（整数）。" },
  unknown_model: { "en-US": "Choose a model from the list.", "zh-CN": "请从列表中选择模型。" },
  image_type: {
    "en-US": "Attach PNG, JPEG, WebP or GIF images only.",
    "zh-CN": "只能上传 PNG、JPEG、WebP 或 GIF 图片。",
  },
  image_too_large: { "en-US": "Each image can be at most {max}.", "zh-CN": "每张图片不能超过 {max}。" },
  images_count: { "en-US": "Attach at most {max} images.", "zh-CN": "最多上传 {max} 张图片。" },
  url: { "en-US": "Enter a valid URL.", "zh-CN": "请输入有效的 URL。" },
  date_format: { "en-US": "Enter a date as YYYY-MM-DD.", "zh-CN": "请按 YYYY-MM-DD 格式输入日期。" },
  date_order: { "en-US": "The end date cannot be before the start date.", "zh-CN": "结束日期不能早于开始日期。" },
  date_range_max: {
    "en-US": "The date range can be at most {max} days.",
    "zh-CN": "日期范围最多 {max} 天。",
  },
  recipients_count: {
    "en-US": "Enter 1 to {max} e-mail addresses.",
    "zh-CN": "请填写 1 到 {max} 个邮箱地址。",
  },
  recipients_duplicate: { "en-US": "This address is listed twice.", "zh-CN": "该邮箱地址重复。" },
  money_format: {
    "en-US": "Enter an amount with at most 2 decimals.",
    "zh-CN": "请输入金额，最多保留 2 位小数。",
  },
  recharge_range: {
    "en-US": "Recharge at least {min} and at most {max}.",
    "zh-CN": "单次充值金额须在 {min} 到 {max} 之间。",
  },
  agreement_required: {
    "en-US": "Read and accept the payment agreement first.",
    "zh-CN": "请先阅读并同意支付协议。",
  },
  country_code: {
    "en-US": "Enter a two-letter country code (e.g. US).",
    "zh-CN": "请输入两位国家代码（如 CN）。",
  },
  digits_only: { "en-US": "Use digits only.", "zh-CN": "只能填写数字。" },
  id_number: {
    "en-US": "Enter a valid 18-character resident ID number (the check character does not match).",
    "zh-CN": "请输入有效的 18 位居民身份证号码（校验位不符）。",
  },
  passport_number: {
    "en-US": "Enter the document number: 6–20 letters and digits.",
    "zh-CN": "请输入证件号码：6–20 位字母或数字。",
  },
  adult_required: { "en-US": "The applicant must be at least 18.", "zh-CN": "申请人须年满 18 周岁。" },
  document_expired: { "en-US": "The document has expired.", "zh-CN": "证件已过期。" },
  uscc: {
    "en-US": "Enter a valid 18-character unified social credit code (the check character does not match).",
    "zh-CN": "请输入有效的 18 位统一社会信用代码（校验位不符）。",
  },
  positive_amount: { "en-US": "Enter an amount above 0.", "zh-CN": "请输入大于 0 的金额。" },
  too_many: { "en-US": "At most {max} items.", "zh-CN": "最多 {max} 项。" },
  refund_pick_payment: { "en-US": "Pick at least one recharge to refund.", "zh-CN": "请至少选择一笔充值进行退款。" },
  refund_duplicate: { "en-US": "A recharge is listed twice.", "zh-CN": "同一笔充值重复出现。" },
  registration_number: {
    "en-US": "Enter the company registration or tax number: 4–30 letters, digits, spaces or hyphens.",
    "zh-CN": "请输入公司注册号或税号：4–30 位字母、数字、空格或连字符。",
  },
  stop_empty: { "en-US": "A stop sequence cannot be empty.", "zh-CN": "停止序列不能为空。" },
  stop_too_many: {
    "en-US": "At most {max} stop sequences, separated by commas.",
    "zh-CN": "最多 {max} 个停止序列，用逗号分隔。",
  },
  stop_too_long: {
    "en-US": "Each stop sequence can be at most {max} bytes.",
    "zh-CN": "每个停止序列最多 {max} 个字节。",
  },
  n_single_choice: {
    "en-US": "This model answers with one choice: n must be 1.",
    "zh-CN": "该模型只返回一个结果：n 必须为 1。",
  },
  n_zero_temperature: {
    "en-US": "n must be 1 when the temperature is 0.",
    "zh-CN": "temperature 为 0 时 n 必须为 1。",
  },
  tool_name_charset: {
    "en-US": "Start with a letter or underscore; use only letters, digits, underscores and hyphens.",
    "zh-CN": "须以字母或下划线开头，只能包含字母、数字、下划线和连字符。",
  },
  json_invalid: { "en-US": "Not valid JSON: {reason}", "zh-CN": "不是有效的 JSON：{reason}" },
  json_schema_invalid: {
    "en-US": "Not a valid JSON Schema: {reason}",
    "zh-CN": "不是有效的 JSON Schema：{reason}",
  },
  json_object_required: { "en-US": "Must be a JSON object.", "zh-CN": "必须是一个 JSON 对象。" },
  example_schema_mismatch: {
    "en-US": "Does not match the parameters schema: {reason}",
    "zh-CN": "与参数 Schema 不符：{reason}",
  },
  tool_name_taken: {
    "en-US": "A tool with this name already exists in the project.",
    "zh-CN": "项目中已有同名工具。",
  },
  company_phone: {
    "en-US": "Enter a phone number: digits, spaces and + - ( ).",
    "zh-CN": "请输入电话号码：数字、空格及 + - ( )。",
  },
  postal_code: {
    "en-US": "Enter a postal code: letters, digits, spaces or hyphens.",
    "zh-CN": "请输入邮政编码：字母、数字、空格或连字符。",
  },
  invoice_pick_payment: { "en-US": "Pick at least one paid recharge.", "zh-CN": "请至少选择一笔已支付的充值。" },
  invoice_amount_exceeds: {
    "en-US": "At most the available amount of {available}.",
    "zh-CN": "不能超过可开票金额 {available}。",
  },
  invoice_amount_positive: { "en-US": "Enter an amount above zero.", "zh-CN": "请输入大于零的金额。" },
  invoice_payment_unavailable: {
    "en-US": "This recharge cannot be invoiced (not paid, or not this organization's).",
    "zh-CN": "该充值记录不可开票（未支付或不属于本组织）。",
  },
  invoice_order_has_invoice: {
    "en-US": "This card order already has its own invoice (see the order invoices below).",
    "zh-CN": "该银行卡订单已有对应发票（见下方订单发票）。",
  },
  invoice_duplicate_payment: { "en-US": "This recharge is listed twice.", "zh-CN": "该充值记录重复。" },
  invoice_title_invalid: {
    "en-US": "This invoice title is marked invalid; pick a normal one.",
    "zh-CN": "该发票抬头已失效，请选择状态正常的抬头。",
  },
  special_needs_company: {
    "en-US": "A special VAT invoice needs a company title.",
    "zh-CN": "增值税专用发票需使用企业抬头。",
  },
  special_needs_field: {
    "en-US": "A special VAT invoice needs this on its title: edit the title first.",
    "zh-CN": "开具增值税专用发票需填写此项，请先完善发票抬头。",
  },
  invoice_number: {
    "en-US": "Enter the invoice number: 8–32 letters, digits or hyphens.",
    "zh-CN": "请输入发票号码：8–32 位字母、数字或连字符。",
  },
  header_name: {
    "en-US": "Use only letters, digits and - _ . (an HTTP header name).",
    "zh-CN": "只能使用字母、数字和 - _ .（HTTP 请求头名称）。",
  },
  invoice_issued_future: {
    "en-US": "The issue date cannot be in the future.",
    "zh-CN": "开票日期不能晚于今天。",
  },
} as const satisfies Record<string, Localized>;

export type ValidationKey = keyof typeof VALIDATION_MESSAGES;

/**
 * Message keys may carry params as `key|{"max":32}`; this keeps zod messages plain strings while letting the
 * renderer fill bounds in.
 */
export function vmsg(key: ValidationKey, params?: Record<string, string | number>): string {
  return params ? `${key}|${JSON.stringify(params)}` : key;
}

/** A required, trimmed text field of at most `max` characters (the forms' usual field). */
export const requiredText = (max: number) =>
  z
    .string({ error: vmsg("required") })
    .trim()
    .min(1, vmsg("required"))
    .max(max, vmsg("too_long", { max }));

export function translateValidation(message: string, locale: Locale): string {
  const bar = message.indexOf("|");
  const key = (bar === -1 ? message : message.slice(0, bar)) as ValidationKey;
  const entry = VALIDATION_MESSAGES[key];
  if (!entry) return message;
  let params: Record<string, string | number> = {};
  if (bar !== -1) {
    try {
      params = JSON.parse(message.slice(bar + 1));
    } catch {
      params = {};
    }
  }
  return fillTemplate(entry[locale], params, locale);
}

/**
 * Calendar periods of consumption and billing queries: "YYYY" or "YYYY-MM". Years are bounded so that period
 * arithmetic (the next month, the zone's midnight) stays inside what dates and SQL timestamps represent; year 0000
 * does not exist.
 */
export const PERIOD_YEARS = { min: 1970, max: 9998 } as const;

export function isPeriod(granularity: "year" | "month", value: string): boolean {
  const m = (granularity === "year" ? /^(\d{4})$/ : /^(\d{4})-(0[1-9]|1[0-2])$/).exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  return year >= PERIOD_YEARS.min && year <= PERIOD_YEARS.max;
}

/** A month period ("YYYY-MM") with the shared bounds. */
export const MonthPeriod = z.string().refine((v) => isPeriod("month", v), vmsg("period_format"));

/** Where a string in a request holds NUL (PostgreSQL text cannot); `undefined` when none does. Iterative: any depth. */
export function findNulCharacter(value: unknown, root = ""): string | undefined {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === "string") {
      if (v.includes("\u0000")) return path;
    } else if (v && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) {
        const childPath = path ? `${path}.${k}` : k;
        if (k.includes("\u0000")) return childPath;
        stack.push([child, childPath]);
      }
    }
  }
  return undefined;
}
