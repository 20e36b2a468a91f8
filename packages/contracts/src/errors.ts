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
  web_unavailable: {
    "en-US": "This page is temporarily unavailable. Try again in a few minutes.",
    "zh-CN": "页面暂时无法访问，请稍后再试。",
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

export function errorMessage(code: ErrorCode, locale: Locale, params: Record<string, string | number> = {}): string {
  return fillTemplate(ERROR_MESSAGES[code][locale], params, locale);
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
