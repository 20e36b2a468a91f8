/**
 * Paths of the client-only pages, built in one place so a renamed route is a type error, not a dead link.
 * Keep in step with app/routes.ts.
 */
export const ORG_TABS = ["general", "members", "projects", "api-keys", "limits", "authentication"] as const;
export type OrgTab = (typeof ORG_TABS)[number];
export const PROJECT_TABS = ["overview", "settings", "members", "api-keys", "billing"] as const;
export type ProjectTab = (typeof PROJECT_TABS)[number];

const withNext = (path: string, next?: string) => (next ? `${path}?next=${encodeURIComponent(next)}` : path);

export const paths = {
  signIn: (next?: string) => withNext("/signin", next),
  signUp: (next?: string) => withNext("/signup", next),
  invite: (token: string) => `/invite/${encodeURIComponent(token)}`,
  console: "/console",
  overview: "/console/overview",
  organization: (tab?: OrgTab) => (tab ? `/console/organization/${tab}` : "/console/organization"),
  projects: "/console/projects",
  project: (projectId: string, tab?: ProjectTab) =>
    `/console/projects/${encodeURIComponent(projectId)}${tab ? `/${tab}` : ""}`,
  apiKeys: "/console/api-keys",
  limits: "/console/limits",
  consumption: "/console/consumption",
  bills: "/console/bills",
  billExports: "/console/exports",
  billAlerts: "/console/alerts",
  files: "/console/files",
  contextCaching: "/console/context-caching",
  profile: "/console/profile",
  feedback: "/console/feedback",
  contactSales: "/contact-sales",
  billing: "/console/billing",
  recharge: "/console/billing/recharge",
  vouchers: "/console/billing/vouchers",
  invoices: "/console/billing/invoices",
  refunds: "/console/billing/refunds",
  playground: "/playground",
  admin: "/admin",
  adminOrganizations: "/admin/organizations",
  adminOrganization: (orgId: string) => `/admin/organizations/${encodeURIComponent(orgId)}`,
  adminUsers: "/admin/users",
  adminUser: (userId: string) => `/admin/users/${encodeURIComponent(userId)}`,
  adminQueues: (tab?: "verifications" | "transfers" | "invoices" | "refunds" | "leads" | "feedback") =>
    tab ? `/admin/queues/${tab}` : "/admin/queues",
  adminCodes: "/admin/codes",
  adminAudit: "/admin/audit",
  adminCatalog: "/admin/catalog",
  adminRiddles: "/admin/riddles",
} as const;

/** The tab named in the URL, or the first one when it names none. */
export function tabFrom<T extends string>(tabs: readonly T[], value: string | undefined): T {
  return (tabs as readonly string[]).includes(value ?? "") ? (value as T) : tabs[0]!;
}
