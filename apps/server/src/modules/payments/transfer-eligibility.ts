import type { Organization } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";

/**
 * Whether an organization may pay by corporate transfer: only a verified company (docs/product-spec.md §6). The money
 * arrives from the company's bank account, which the verification put on record; an organization whose company change
 * is still under review is refused like a personal one.
 */
export function transferAllowed(org: Organization): boolean {
  return org.verification === "company";
}

export function assertTransferAllowed(org: Organization): void {
  if (!transferAllowed(org)) throw new AppError("verification_required");
}
