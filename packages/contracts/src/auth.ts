import { z } from "zod";
import { vmsg } from "./validation.ts";

/** Mainland numbers (11 digits starting 1[3-9]) or E.164 with a leading +. Stored normalized as E.164. */
const CN_MOBILE = /^1[3-9]\d{9}$/;
const E164 = /^\+[1-9]\d{6,14}$/;

export function normalizePhone(raw: string): string | undefined {
  const s = raw.replace(/[\s-]/g, "");
  if (CN_MOBILE.test(s)) return `+86${s}`;
  if (/^86 ?1[3-9]\d{9}$/.test(s)) return `+${s}`;
  if (E164.test(s)) return s;
  return undefined;
}

export function looksLikePhone(s: string): boolean {
  return normalizePhone(s) !== undefined || /^\+?\d{7,15}$/.test(s);
}

/** "+8613812345678" → "+86 138****5678" */
export function maskPhone(phone: string): string {
  const m = /^(\+86)(\d{3})\d{4}(\d{4})$/.exec(phone);
  if (m) return `${m[1]} ${m[2]}****${m[3]}`;
  if (phone.length <= 6) return "****";
  return `${phone.slice(0, phone.length - 8)}****${phone.slice(-4)}`;
}

export const Phone = z
  .string({ error: vmsg("required") })
  .trim()
  .min(1, vmsg("required"))
  .refine((s) => normalizePhone(s) !== undefined, vmsg("phone_format"))
  .transform((s) => normalizePhone(s)!);

export const SmsCode = z
  .string({ error: vmsg("required") })
  .trim()
  .min(1, vmsg("required"))
  .regex(/^\d{6}$/, vmsg("sms_code_format"));

export const Username = z
  .string({ error: vmsg("required") })
  .min(1, vmsg("required"))
  .refine((s) => !/\s/.test(s), vmsg("username_whitespace"))
  .refine((s) => /^[A-Za-z0-9_]*$/.test(s), vmsg("username_charset"))
  .refine((s) => !looksLikePhone(s), vmsg("username_phone"))
  .refine((s) => s.length >= 3 && s.length <= 32, vmsg("username_length"));

export const Password = z
  .string({ error: vmsg("required") })
  .min(1, vmsg("required"))
  .refine((s) => s.length >= 8 && s.length <= 32, vmsg("password_length"))
  .refine(
    (s) => /[A-Z]/.test(s) && /[a-z]/.test(s) && /\d/.test(s) && /[^A-Za-z0-9\s]/.test(s),
    vmsg("password_strength"),
  );

export const SmsPurpose = z.enum(["signup", "signin", "bind_old", "bind_new"]);
export type SmsPurpose = z.infer<typeof SmsPurpose>;

/** Which phone gets the code: the given one, or for `bind_old` the signed-in user's bound phone (phone omitted). */
export const SendSmsRequest = z
  .object({ phone: Phone.optional(), purpose: SmsPurpose })
  .refine((v) => v.purpose === "bind_old" || v.phone !== undefined, { message: vmsg("required"), path: ["phone"] });
export type SendSmsRequest = z.input<typeof SendSmsRequest>;
export const SendSmsResponse = z.object({ resendAfterSeconds: z.number().int(), expiresInSeconds: z.number().int() });
export type SendSmsResponse = z.infer<typeof SendSmsResponse>;

export const SignUpByPasswordRequest = z
  .object({
    username: Username,
    password: z.string({ error: vmsg("required") }).pipe(Password),
    confirmPassword: z.string({ error: vmsg("required") }).min(1, vmsg("required")),
  })
  .refine((v) => v.password === v.confirmPassword, { message: vmsg("password_mismatch"), path: ["confirmPassword"] });
export type SignUpByPasswordRequest = z.input<typeof SignUpByPasswordRequest>;

export const SignUpByPhoneRequest = z
  .object({
    phone: Phone,
    code: SmsCode,
    username: Username,
    password: z.string({ error: vmsg("required") }).pipe(Password),
    confirmPassword: z.string({ error: vmsg("required") }).min(1, vmsg("required")),
  })
  .refine((v) => v.password === v.confirmPassword, { message: vmsg("password_mismatch"), path: ["confirmPassword"] });
export type SignUpByPhoneRequest = z.input<typeof SignUpByPhoneRequest>;

export const SignInByPasswordRequest = z.object({
  username: z
    .string({ error: vmsg("required") })
    .trim()
    .min(1, vmsg("required")),
  password: z.string({ error: vmsg("required") }).min(1, vmsg("required")),
});
export type SignInByPasswordRequest = z.input<typeof SignInByPasswordRequest>;
export const SignInBySmsRequest = z.object({ phone: Phone, code: SmsCode });
export type SignInBySmsRequest = z.input<typeof SignInBySmsRequest>;

export const ChangeUsernameRequest = z.object({ username: Username });
export type ChangeUsernameRequest = z.input<typeof ChangeUsernameRequest>;
export const ChangePasswordRequest = z
  .object({
    currentPassword: z.string({ error: vmsg("required") }).min(1, vmsg("required")),
    newPassword: z.string({ error: vmsg("required") }).pipe(Password),
    confirmPassword: z.string({ error: vmsg("required") }).min(1, vmsg("required")),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: vmsg("password_mismatch"), path: ["confirmPassword"] })
  .refine((v) => v.newPassword !== v.currentPassword, { message: vmsg("password_same"), path: ["newPassword"] });
export type ChangePasswordRequest = z.input<typeof ChangePasswordRequest>;

/** Rebinding needs a code sent to the old phone (when one is bound) and one sent to the new phone. */
export const BindPhoneRequest = z.object({
  oldCode: SmsCode.optional(),
  newPhone: Phone,
  newCode: SmsCode,
});
export type BindPhoneRequest = z.input<typeof BindPhoneRequest>;

export const UserRole = z.enum(["user", "operator"]);
export const Me = z.object({
  id: z.string(),
  username: z.string().nullable(),
  phoneMasked: z.string().nullable(),
  hasPassword: z.boolean(),
  role: UserRole,
  createdAt: z.string(),
  currentOrganizationId: z.string().nullable(),
});
export type Me = z.infer<typeof Me>;

/** One organization the signed-in user belongs to, for the organization switcher. */
export const MyOrganization = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(["admin", "member"]),
  personal: z.boolean(),
  currency: z.enum(["CNY", "USD"]),
});
export type MyOrganization = z.infer<typeof MyOrganization>;
export const MeWithOrgs = Me.extend({ organizations: z.array(MyOrganization) });
export type MeWithOrgs = z.infer<typeof MeWithOrgs>;

/** Whether the request carries a live session; answered 200 either way, so public pages can ask without an error. */
export const SessionState = z.object({ signedIn: z.boolean() });
export type SessionState = z.infer<typeof SessionState>;

export const SetCurrentOrgRequest = z.object({ orgId: z.string().min(1, vmsg("required")) });
export type SetCurrentOrgRequest = z.input<typeof SetCurrentOrgRequest>;

export const SessionInfo = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;
export const SessionIdParams = z.object({ id: z.string().min(1) });

/** A message the development SMS provider "sent" (GET /api/dev/sms-outbox: DEV_SEAMS=true, loopback only). */
export const DevSmsMessage = z.object({
  phone: z.string(),
  text: z.string(),
  code: z.string().nullable(),
  createdAt: z.string(),
});
export type DevSmsMessage = z.infer<typeof DevSmsMessage>;
export const DevSmsOutboxQuery = z.object({ phone: Phone.optional() });

/** One-time operator setup (the link printed at first start). */
export const SetupStatus = z.object({ operatorExists: z.boolean() });
export type SetupStatus = z.infer<typeof SetupStatus>;
export const SetupRequest = z
  .object({
    token: z.string({ error: vmsg("required") }).min(1, vmsg("required")),
    username: Username,
    password: z.string({ error: vmsg("required") }).pipe(Password),
    confirmPassword: z.string({ error: vmsg("required") }).min(1, vmsg("required")),
  })
  .refine((v) => v.password === v.confirmPassword, { message: vmsg("password_mismatch"), path: ["confirmPassword"] });
export type SetupRequest = z.input<typeof SetupRequest>;
