import { z } from "zod";
import { Currency, EDITIONS, Edition } from "../edition.ts";
import { vmsg } from "../validation.ts";
import { Nanos, OrgRole, SpendPoint } from "./common.ts";

export const OrganizationName = z
  .string({ error: vmsg("required") })
  .trim()
  .min(1, vmsg("required"))
  .max(64, vmsg("too_long", { max: 64 }));

export const Verification = z.enum(["unverified", "personal", "company", "company_changing"]);

export const OrgGeneral = z.object({
  id: z.string(),
  name: z.string(),
  edition: Edition,
  currency: Currency,
  timeZone: z.string(),
  personal: z.boolean(),
  verification: Verification,
  createdAt: z.string(),
  /** The caller's role in this organization. */
  role: OrgRole,
});
export type OrgGeneral = z.infer<typeof OrgGeneral>;

export const UpdateOrgRequest = z.object({ name: OrganizationName });
/**
 * A further organization; `edition` fixes its currency for good (CNY or USD). Left out, the request's edition
 * (host, then locale) decides, as for the personal organization at sign-up.
 */
export const CreateOrgRequest = z.object({
  name: OrganizationName,
  edition: z.enum(EDITIONS, { error: vmsg("invalid_type") }).optional(),
});
export type CreateOrgRequest = z.input<typeof CreateOrgRequest>;
export const CreateOrgResponse = z.object({ id: z.string(), defaultProjectId: z.string() });

export const OrgOverview = z.object({
  currency: Currency,
  timeZone: z.string(),
  role: OrgRole,
  balance: z.object({ cash: Nanos, voucher: Nanos, total: Nanos }),
  tier: z.object({ tier: z.number().int(), name: z.string() }),
  /** This month in the edition's zone; members see only the spend of projects they belong to. */
  month: z.object({ period: z.string(), total: Nanos, daily: z.array(SpendPoint) }),
  counts: z.object({ projects: z.number().int(), apiKeys: z.number().int(), members: z.number().int() }),
});
export type OrgOverview = z.infer<typeof OrgOverview>;
