import { z } from "zod";
import { Currency, Edition } from "../edition.ts";
import { Nanos, PageQuery, paged } from "./common.ts";

/** The back office's organization search: `q` matches the name (any case) or the exact id. */
export const AdminOrganizationsQuery = PageQuery.extend({ q: z.string().trim().max(100).default("") });
export type AdminOrganizationsQuery = z.input<typeof AdminOrganizationsQuery>;

export const AdminOrganizationRow = z.object({
  id: z.string(),
  name: z.string(),
  edition: Edition,
  currency: Currency,
  personal: z.boolean(),
  createdAt: z.string(),
  members: z.number().int(),
  /** Cash (may be negative), unexpired voucher remaining, and their sum. */
  balance: z.object({ cash: Nanos, voucher: Nanos, total: Nanos }),
  cumulativeRecharge: Nanos,
  tier: z.object({ tier: z.number().int(), name: z.string() }),
});
export type AdminOrganizationRow = z.infer<typeof AdminOrganizationRow>;

export const AdminOrganizationPage = paged(AdminOrganizationRow);
export type AdminOrganizationPage = z.infer<typeof AdminOrganizationPage>;
