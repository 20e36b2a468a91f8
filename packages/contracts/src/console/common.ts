import { z } from "zod";
import { vmsg } from "../validation.ts";

/** Server-side pagination: 1-based page, at most 100 rows per page. */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type PageQuery = z.input<typeof PageQuery>;

export function paged<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

/** Money on the wire: an integer count of nano-units as a decimal string (bigint-safe); format once for display. */
export const Nanos = z.string().regex(/^-?\d+$/);

export const OrgRole = z.enum(["admin", "member"]);
export type OrgRole = z.infer<typeof OrgRole>;
export const ProjectRole = z.enum(["admin", "member"]);
export type ProjectRole = z.infer<typeof ProjectRole>;

/** §5: nickname required, at most 32 characters, English letters, digits and underscores. */
export const Nickname = z
  .string({ error: vmsg("required") })
  .trim()
  .min(1, vmsg("required"))
  .max(32, vmsg("too_long", { max: 32 }))
  .regex(/^[A-Za-z0-9_]+$/, vmsg("nickname_charset"));

export const OrgIdParams = z.object({ orgId: z.string().min(1).max(64) });

/** One point of a daily or monthly spend series; `label` is YYYY-MM-DD or YYYY-MM in the edition's zone. */
export const SpendPoint = z.object({ label: z.string(), amount: Nanos });
export type SpendPoint = z.infer<typeof SpendPoint>;

export const OkResponse = z.object({ ok: z.literal(true) });
