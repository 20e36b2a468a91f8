import { z } from "zod";
import type { Locale, Localized } from "./locale.ts";

/**
 * Every console-API error code with its message in each locale. The server maps a code to its HTTP status in
 * one place (apps/server/src/http/errors.ts); the web app shows the same message next to the action that failed.
 * `{name}` placeholders are filled from the error's params.
 */
export const ERROR_MESSAGES = {
  validation_failed: { "en-US": "Some fields are invalid.", "zh-CN": "部分字段填写有误。" },
  bad_request: { "en-US": "The request is malformed: {reason}", "zh-CN": "请求格式错误：{reason}" },
  unauthenticated: { "en-US": "Please sign in first.", "zh-CN": "请先登录。" },
  session_expired: { "en-US": "Your session has expired. Please sign in again.", "zh-CN": "登录已过期，请重新登录。" },
  csrf_failed: {
    "en-US": "The request was rejected because it did not come from this site. Reload the page and try again.",
    "zh-CN": "请求来源校验失败，请刷新页面后重试。",
  },
  forbidden: { "en-US": "You do not have permission to do this.", "zh-CN": "您没有执行此操作的权限。" },
  not_found: { "en-US": "Not found.", "zh-CN": "未找到。" },
  route_not_found: { "en-US": "No such API route.", "zh-CN": "接口不存在。" },
  conflict: {
    "en-US": "The request conflicts with the current state: {reason}",
    "zh-CN": "请求与当前状态冲突：{reason}",
  },
  rate_limited: {
    "en-US": "Too many attempts. Try again in {seconds} seconds.",
    "zh-CN": "尝试次数过多，请 {seconds} 秒后再试。",
  },
  invalid_credentials: { "en-US": "Wrong username or password.", "zh-CN": "用户名或密码错误。" },
  account_disabled: {
    "en-US": "This account has been disabled by the platform operator. Contact support.",
    "zh-CN": "该账号已被平台停用，请联系客服。",
  },
  wrong_password: { "en-US": "The current password is wrong.", "zh-CN": "当前密码错误。" },
  username_taken: { "en-US": "This username is already taken.", "zh-CN": "该用户名已被占用。" },
  phone_taken: {
    "en-US": "This phone number is already bound to another account.",
    "zh-CN": "该手机号已绑定其他账号。",
  },
  phone_not_registered: {
    "en-US": "No account uses this phone number. Sign up first.",
    "zh-CN": "该手机号尚未注册，请先注册。",
  },
  phone_not_bound: {
    "en-US": "No phone number is bound to this account yet.",
    "zh-CN": "该账号尚未绑定手机号。",
  },
  old_sms_code_required: {
    "en-US": "Enter the code sent to your current phone number.",
    "zh-CN": "请输入发送到原手机号的验证码。",
  },
  not_a_member: { "en-US": "You are not a member of this organization.", "zh-CN": "您不是该组织的成员。" },
  sms_code_invalid: { "en-US": "The SMS code is wrong.", "zh-CN": "短信验证码错误。" },
  sms_code_expired: {
    "en-US": "The SMS code has expired or was already used. Request a new one.",
    "zh-CN": "短信验证码已过期或已使用，请重新获取。",
  },
  sms_too_many_attempts: {
    "en-US": "Too many wrong codes. Request a new SMS code.",
    "zh-CN": "验证码错误次数过多，请重新获取验证码。",
  },
  sms_send_failed: { "en-US": "Failed to send the SMS: {reason}", "zh-CN": "短信发送失败：{reason}" },
  setup_token_invalid: {
    "en-US": "This setup link is invalid or was already used.",
    "zh-CN": "该初始化链接无效或已被使用。",
  },
  operator_exists: { "en-US": "An operator account already exists.", "zh-CN": "运营者账号已存在。" },
  limit_reached: { "en-US": "Limit reached: {reason}", "zh-CN": "已达上限：{reason}" },
  last_admin: {
    "en-US": "An organization must keep at least one admin. Make another member an admin first.",
    "zh-CN": "组织必须至少保留一名管理员，请先将其他成员设为管理员。",
  },
  invitation_invalid: {
    "en-US": "This invitation link is invalid, has expired or was already used.",
    "zh-CN": "该邀请链接无效、已过期或已被使用。",
  },
  invitation_phone_mismatch: {
    "en-US": "This invitation was sent to {phone}. Sign in with the account bound to that phone number.",
    "zh-CN": "该邀请发送给 {phone}，请使用绑定该手机号的账号登录。",
  },
  already_member: {
    "en-US": "You are already a member of this organization.",
    "zh-CN": "您已是该组织的成员。",
  },
  project_archived: {
    "en-US": "This project is archived and read-only.",
    "zh-CN": "该项目已归档，只读不可修改。",
  },
  project_name_taken: {
    "en-US": "This organization already has a project with this name (in any letter case, archived projects included).",
    "zh-CN": "该组织已有同名项目（不区分大小写，含已归档项目）。",
  },
  default_project_archive: {
    "en-US": "The default project cannot be archived.",
    "zh-CN": "默认项目不能归档。",
  },
  bills_too_old: {
    "en-US": "Request details can be queried for the last {days} days only (from {from}).",
    "zh-CN": "请求明细仅可查询最近 {days} 天（{from} 起）。",
  },
  export_not_ready: {
    "en-US": "The bill of {month} can be exported after 07:00 on {date} ({timeZone}).",
    "zh-CN": "{month} 的账单可在 {date} 07:00（{timeZone}）之后导出。",
  },
  export_too_early: {
    "en-US": "Bills can be exported from {month} onward.",
    "zh-CN": "账单导出自 {month} 起提供。",
  },
  export_unavailable: {
    "en-US": "This export is not ready for download ({status}).",
    "zh-CN": "该导出文件暂不可下载（{status}）。",
  },
  playground_rate_limited: {
    "en-US": "The organization's rate limit was reached ({limit}). Try again in {seconds} seconds.",
    "zh-CN": "已达到组织的速率限制（{limit}），请 {seconds} 秒后再试。",
  },
  tool_test_runs_rate_limited: {
    "en-US": "Too many test runs. Try again in {seconds} seconds.",
    "zh-CN": "试运行过于频繁，请 {seconds} 秒后再试。",
  },
  tool_runs_busy_org: {
    "en-US": "Too many tool runs of this organization are running or waiting. Try again in a few seconds.",
    "zh-CN": "本组织正在运行或等待的工具调用过多，请几秒后再试。",
  },
  tool_runs_busy_user: {
    "en-US": "You have too many tool runs running or waiting. Try again in a few seconds.",
    "zh-CN": "您正在运行或等待的工具调用过多，请几秒后再试。",
  },
  tool_runs_busy_server: {
    "en-US": "The tool sandboxes are busy. Try again in a few seconds.",
    "zh-CN": "工具沙箱繁忙，请几秒后再试。",
  },
  playground_daily_budget_exceeded: {
    "en-US": "The project's daily budget is spent. Raise it in the project settings or try again tomorrow.",
    "zh-CN": "项目的日预算已用完，请在项目设置中调高预算或明天再试。",
  },
  playground_monthly_budget_exceeded: {
    "en-US": "The project's monthly budget is spent. Raise it in the project settings or try again next month.",
    "zh-CN": "项目的月预算已用完，请在项目设置中调高预算或下月再试。",
  },
  playground_insufficient_balance: {
    "en-US": "The organization's balance is used up. Recharge to continue.",
    "zh-CN": "组织余额不足，请充值后继续。",
  },
  playground_request_invalid: {
    "en-US": "The model refused the request: {reason}",
    "zh-CN": "模型拒绝了该请求：{reason}",
  },
  playground_model_failed: {
    "en-US": "The model is unavailable right now. Try again later. ({reason})",
    "zh-CN": "模型暂时不可用，请稍后再试。（{reason}）",
  },
  riddle_locked: {
    "en-US": "This riddle is locked. Solve the earlier riddles of its track first.",
    "zh-CN": "该谜题尚未解锁，请先完成同一难度中前面的谜题。",
  },
  riddle_prompt_rejected: {
    "en-US": "The prompt breaks the riddle's rules: {reason}",
    "zh-CN": "提示词不符合谜题规则：{reason}",
  },
  riddle_not_solved: {
    "en-US": "Solve this riddle before claiming its reward.",
    "zh-CN": "请先解开该谜题，再领取奖励。",
  },
  riddle_reward_claimed: {
    "en-US": "This riddle's reward was already claimed.",
    "zh-CN": "该谜题的奖励已经领取过了。",
  },
  mcp_sync_unauthorized: {
    "en-US": "Sync failed: the MCP server refused the credentials (unauthorized). Check the authentication settings.",
    "zh-CN": "同步失败：MCP 服务器拒绝了凭据（未授权），请检查认证设置。",
  },
  mcp_sync_server_error: {
    "en-US": "Sync failed: the MCP server returned an error. ({reason})",
    "zh-CN": "同步失败：MCP 服务器返回错误。（{reason}）",
  },
  mcp_sync_network_error: {
    "en-US": "Sync failed: the MCP server could not be reached. ({reason})",
    "zh-CN": "同步失败：无法连接 MCP 服务器。（{reason}）",
  },
  file_too_large: {
    "en-US": "The file is larger than {max}. Upload a smaller file.",
    "zh-CN": "文件超过 {max}，请上传更小的文件。",
  },
  file_empty: { "en-US": "The file is empty (0 bytes).", "zh-CN": "文件为空（0 字节）。" },
  file_missing: { "en-US": "Choose a file to upload.", "zh-CN": "请选择要上传的文件。" },
  file_purpose_invalid: {
    "en-US": "Unknown purpose. Use one of: file-extract, image, video, batch.",
    "zh-CN": "用途无效，可选：file-extract、image、video、batch。",
  },
  file_type_mismatch: {
    "en-US": "The file does not match its purpose: {reason}",
    "zh-CN": "文件与用途不符：{reason}",
  },
  file_count_exceeded: {
    "en-US": "The organization already has {max} files. Delete files you no longer need first.",
    "zh-CN": "组织的文件数量已达 {max} 个上限，请先删除不再需要的文件。",
  },
  file_storage_exceeded: {
    "en-US": "The organization's file storage would exceed {max}. Delete files you no longer need first.",
    "zh-CN": "组织的文件存储将超过 {max}，请先删除不再需要的文件。",
  },
  file_processing: {
    "en-US": "The file's text is still being extracted. Try again in a few seconds.",
    "zh-CN": "文件内容仍在解析中，请稍后再试。",
  },
  file_extract_failed: {
    "en-US": "Text could not be extracted from this file: {reason}",
    "zh-CN": "无法解析该文件的内容：{reason}",
  },
  file_no_content: {
    "en-US": "Only files uploaded with purpose file-extract have extracted text.",
    "zh-CN": "只有用途为 file-extract 的文件才有解析内容。",
  },
  web_unavailable: {
    "en-US": "This page is temporarily unavailable. Try again in a few minutes.",
    "zh-CN": "页面暂时无法访问，请稍后再试。",
  },
  // Names the waiting order, so the payer knows which one to finish: it is listed at the top of the recharge page.
  payment_pending: {
    "en-US":
      "Your unpaid order of {amount} by {payType} is still waiting for payment. Continue or cancel it (at the top of the recharge page) before starting a new one.",
    "zh-CN": "您有一笔 {amount} 的{payType}订单尚未支付。请先在充值页顶部继续支付或取消该订单，再发起新的充值。",
  },
  payment_monthly_limit: {
    "en-US": "At most {max} recharge orders per month. Try again next month or contact us.",
    "zh-CN": "每月最多创建 {max} 笔充值订单，请下月再试或联系我们。",
  },
  // Shown after the console's own "Payment failed:" prefix, so it must not carry one itself.
  payment_retry: {
    "en-US": "The card issuer had a temporary problem. The order is still open; try paying again.",
    "zh-CN": "发卡行暂时无法处理，订单仍保留，请重新支付。",
  },
  payment_not_cancellable: {
    "en-US": "Payment cancel failed: the order is no longer waiting for payment.",
    "zh-CN": "取消支付失败：该订单已不在待支付状态。",
  },
  payment_provider_unavailable: {
    "en-US": "The payment service did not answer. Nothing was charged; try again later.",
    "zh-CN": "支付服务暂时无响应，未发生扣款，请稍后再试。",
  },
  pay_type_unavailable: {
    "en-US": "This payment method is not available here.",
    "zh-CN": "当前不支持该支付方式。",
  },
  pay_type_not_configured: {
    "en-US":
      "This payment method is not set up on this server. Choose another method, or ask the operator of this site to set it up.",
    "zh-CN": "本站点尚未开通该支付方式，请选择其他支付方式，或联系站点运营方开通。",
  },
  card_required: { "en-US": "Choose a card to pay with.", "zh-CN": "请选择支付卡。" },
  card_invalid: { "en-US": "The card information is wrong.", "zh-CN": "卡信息有误。" },
  customer_info_required: {
    "en-US": "Enter the customer information before paying.",
    "zh-CN": "请先填写客户信息再支付。",
  },
  card_delete_failed: {
    "en-US": "Card deletion failed: the card is used by an unpaid order.",
    "zh-CN": "删除卡失败：该卡有未完成的订单。",
  },
  voucher_code_invalid: {
    "en-US": "Voucher redemption failed: the code does not exist.",
    "zh-CN": "兑换失败：兑换码不存在。",
  },
  voucher_code_used: {
    "en-US": "Voucher redemption failed: the code has already been used.",
    "zh-CN": "兑换失败：兑换码已被使用。",
  },
  voucher_code_expired: {
    "en-US": "Voucher redemption failed: the code has expired.",
    "zh-CN": "兑换失败：兑换码已过期。",
  },
  voucher_code_wrong_edition: {
    "en-US": "Voucher redemption failed: the code is for the other site.",
    "zh-CN": "兑换失败：该兑换码不适用于本站。",
  },
  refund_not_refundable: {
    "en-US": "Refund failed: only paid recharges of this organization can be refunded.",
    "zh-CN": "退款失败：只能退款本组织已支付成功的充值。",
  },
  refund_exceeds_payment: {
    "en-US": "Refund failed: at most {available} of this recharge can be refunded.",
    "zh-CN": "退款失败：该笔充值最多可退 {available}。",
  },
  refund_invoice_held: {
    "en-US":
      "Refund failed: {held} of this recharge is held by an issued invoice. Void the invoice first, then refund.",
    "zh-CN": "退款失败：该笔充值中有 {held} 已开具发票，请先作废（红冲）发票后再退款。",
  },
  refund_exceeds_balance: {
    "en-US": "Refund failed: refunds can add up to at most {available} of unused cash. Vouchers are never refunded.",
    "zh-CN": "退款失败：可退款的未使用现金余额最多为 {available}，代金券不可退款。",
  },
  refund_not_requested: {
    "en-US": "Refund failed: only a refund waiting for review can be approved, rejected or cancelled.",
    "zh-CN": "退款失败：只有待审核的退款可以批准、驳回或取消。",
  },
  refund_not_failed: {
    "en-US": "Refund failed: only a failed refund can be retried.",
    "zh-CN": "退款失败：只有退款失败的申请可以重试。",
  },
  refund_not_manual: {
    "en-US": "Refund failed: only a refund in progress that is paid back by bank transfer can be marked done.",
    "zh-CN": "退款失败：只有进行中且需通过银行转账退回的退款可以标记为已完成。",
  },
  verification_required: {
    "en-US": "Corporate transfer needs a verified company.",
    "zh-CN": "对公转账需要先完成企业认证。",
  },
  verification_rejected: {
    "en-US": "Authentication failed: {reason}",
    "zh-CN": "认证失败：{reason}",
  },
  verification_unavailable: {
    "en-US": "Authentication failed: the verification service cannot be reached. Try again later.",
    "zh-CN": "认证失败：认证服务暂时无法访问，请稍后重试。",
  },
  verification_already_verified: {
    "en-US": "Authentication failed: the organization is already verified.",
    "zh-CN": "认证失败：该组织已完成认证。",
  },
  verification_needs_personal: {
    "en-US": "Authentication failed: verify personally first; only a personal verification can change to a company.",
    "zh-CN": "认证失败：请先完成个人认证，只有个人认证可以变更为企业认证。",
  },
  verification_in_review: {
    "en-US": "Authentication failed: a company application is already under review.",
    "zh-CN": "认证失败：已有企业认证申请正在审核中。",
  },
  verification_cancel_failed: {
    "en-US": "Cancel failed: there is no company change in progress.",
    "zh-CN": "取消失败：当前没有进行中的企业认证变更。",
  },
  verification_not_pending: {
    "en-US": "This application has already been decided.",
    "zh-CN": "该申请已处理。",
  },
  filing_not_allowed: {
    "en-US":
      "The algorithm-filing authorization needs company verification and a cumulative recharge of at least {min}.",
    "zh-CN": "算法备案授权书需要完成企业认证且累计充值不少于 {min}。",
  },
  invoice_failed: {
    "en-US": "Invoice application failed: {reason}",
    "zh-CN": "发票申请失败：{reason}",
  },
  invoice_needs_verification: {
    "en-US": "Invoice application failed: verify the organization's identity (personal or company) first.",
    "zh-CN": "发票申请失败：请先完成组织的实名认证（个人或企业）。",
  },
  invoice_state: {
    "en-US": "Not possible while the invoice is {status}.",
    "zh-CN": "发票当前状态为“{status}”，无法执行此操作。",
  },
  red_letter_state: {
    "en-US": "Not possible in red-letter state {state}.",
    "zh-CN": "红字确认单状态为 {state}，无法执行此操作。",
  },
  red_letter_not_yours: {
    "en-US": "Only the other side can confirm or deny this red-letter request, and only its initiator can withdraw it.",
    "zh-CN": "红字确认单只能由对方确认或否认，只能由发起方撤销。",
  },
  invoice_no_taken: {
    "en-US": "This invoice number is already used.",
    "zh-CN": "该发票号码已被使用。",
  },
  invoice_pdf_unavailable: {
    "en-US": "This invoice has no PDF yet.",
    "zh-CN": "该发票暂无 PDF。",
  },
  invoice_info_required: {
    "en-US": "Payment failed: complete the invoice information (Billing → Invoices) before paying by card.",
    "zh-CN": "支付失败：请先完善发票信息（费用 → 发票）再使用银行卡支付。",
  },
  invoice_info_missing: {
    "en-US": "Save the invoice information (the bill-to details) before requesting a tax invoice.",
    "zh-CN": "请先保存发票信息（开票对象信息），再申请税务发票。",
  },
  internal: {
    "en-US": "Something went wrong on our side. Try again later (request {requestId}).",
    "zh-CN": "服务器内部错误，请稍后重试（请求 {requestId}）。",
  },
} as const satisfies Record<string, Localized>;

export type ErrorCode = keyof typeof ERROR_MESSAGES;

/** Words of the server's own error page (http/error-page.ts), shown when the web app cannot render one. */
export const ERROR_PAGE_TEXT = {
  title: { "en-US": "Something went wrong", "zh-CN": "出错了" },
  retry: { "en-US": "Try again", "zh-CN": "重试" },
  home: { "en-US": "Home", "zh-CN": "首页" },
} as const satisfies Record<string, Localized>;
export const ERROR_CODES = Object.keys(ERROR_MESSAGES) as ErrorCode[];

/** A placeholder's value: the same in every language, or given in each (a pay type's name). */
export type ErrorParam = string | number | Localized;

export function errorMessage(code: ErrorCode, locale: Locale, params: Record<string, ErrorParam> = {}): string {
  const filled = Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, typeof v === "object" ? v[locale] : v] as const),
  );
  return fillTemplate(ERROR_MESSAGES[code][locale], filled, locale);
}

/**
 * Fills `{name}` placeholders. With a locale, numbers are written as pages write them ("500,000"), so a message
 * quoting a limit matches the page that shows it.
 */
export function fillTemplate(template: string, params: Record<string, string | number>, locale?: Locale): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => {
    if (!(k in params)) return m;
    const v = params[k]!;
    return typeof v === "number" && locale ? new Intl.NumberFormat(locale).format(v) : String(v);
  });
}

/** Field error: `path` names the form field (dot-joined), `message` is already localized. */
export const FieldError = z.object({ path: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldError>;

/** Envelope of every console-API error. */
export const ApiErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(FieldError).optional(),
    requestId: z.string().optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;
