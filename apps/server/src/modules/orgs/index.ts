/** What other parts of the server use of modules/orgs; anything else in the folder is internal to it. */
export { createOrganization } from "./create-organization.ts";
export { setOrgRateLimits } from "./set-org-rate-limits.ts";
