import type { Voucher, VoucherPage } from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { getVoucher, listVouchers as listOrgVouchers, redeemCode } from "../billing/index.ts";

export function listVouchers(opts: {
  ctx: AppContext;
  access: OrgAccess;
  query: { page: number; pageSize: number; status?: "effective" | "expired" };
}): Promise<VoucherPage> {
  return listOrgVouchers({ db: opts.ctx.db, orgId: opts.access.org.id, now: opts.ctx.clock.now(), ...opts.query });
}

export async function redeemVoucher(opts: {
  ctx: AppContext;
  access: OrgAccess;
  code: string;
}): Promise<{ voucher: Voucher; tier: number }> {
  const { ctx, access } = opts;
  const now = ctx.clock.now();
  const { voucherId, tier } = await redeemCode({
    ctx,
    orgId: access.org.id,
    code: opts.code,
    now,
    userId: access.userId,
  });
  const voucher = await getVoucher({ db: ctx.db, voucherId, now });
  return { voucher: voucher!, tier };
}
