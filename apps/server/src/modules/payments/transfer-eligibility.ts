import type { Organization } from "../orgs/access.ts";

/**
 * Whether an organization may pay by corporate transfer. The spec requires company verification for it; the
 * verification issue (company certification) owns `organizations.verification` and will make this refuse with
 * `verification_required` unless it is "company". Until verification can be completed at all, refusing would
 * make transfers impossible for everyone, so every organization may use it today. This is the one place to
 * change.
 */
export function assertTransferAllowed(_org: Organization): void {}
