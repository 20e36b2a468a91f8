import { z } from "zod";
import { Phone } from "../auth.ts";
import { vmsg } from "../validation.ts";
import { Nickname, OrgRole, paged } from "./common.ts";

/** A joined member or a pending invitation, in one list (joined first). */
export const MemberRow = z.object({
  status: z.enum(["joined", "pending"]),
  userId: z.string().nullable(),
  invitationId: z.string().nullable(),
  nickname: z.string(),
  phoneMasked: z.string().nullable(),
  role: OrgRole,
  createdAt: z.string(),
  /** Pending rows: when the link stops working. */
  expiresAt: z.string().nullable(),
});
export type MemberRow = z.infer<typeof MemberRow>;
export const MemberPage = paged(MemberRow);

export const InviteMemberRequest = z.object({
  phone: Phone,
  nickname: Nickname,
  role: z.enum(["admin", "member"], { error: vmsg("required") }),
});
export type InviteMemberRequest = z.input<typeof InviteMemberRequest>;
export const InviteMemberResponse = z.object({
  invitationId: z.string(),
  /** Relative link to the invitation page; the token inside is shown once and stored only hashed. */
  path: z.string(),
  expiresAt: z.string(),
});

export const UpdateMemberRequest = z
  .object({ nickname: Nickname.optional(), role: OrgRole.optional() })
  .refine((v) => v.nickname !== undefined || v.role !== undefined, vmsg("required"));
export type UpdateMemberRequest = z.input<typeof UpdateMemberRequest>;

export const MemberParams = z.object({ orgId: z.string().min(1).max(64), userId: z.string().min(1).max(64) });
export const InvitationParams = z.object({
  orgId: z.string().min(1).max(64),
  invitationId: z.string().min(1).max(64),
});
export const InvitationTokenParams = z.object({ token: z.string().min(1).max(128) });

export const InvitationPreview = z.object({
  organizationName: z.string(),
  nickname: z.string(),
  role: OrgRole,
  status: z.enum(["open", "expired", "used", "revoked"]),
  expiresAt: z.string(),
  /** The invited phone, masked: lets someone signed in with another account see whose invitation it is. */
  phoneMasked: z.string(),
  /** Whether the signed-in caller's phone is the invited one; null when nobody is signed in. */
  forSignedInUser: z.boolean().nullable(),
});
export type InvitationPreview = z.infer<typeof InvitationPreview>;
export const AcceptInvitationResponse = z.object({ orgId: z.string() });
