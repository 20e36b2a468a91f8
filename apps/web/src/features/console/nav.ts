import {
  IconBell,
  IconBuildingCommunity,
  IconChartBar,
  IconCreditCard,
  IconDatabase,
  IconFileInvoice,
  IconFileSpreadsheet,
  IconFiles,
  IconFolder,
  IconGauge,
  IconHeadset,
  IconKey,
  IconLayoutDashboard,
  IconMessageReport,
  IconReceipt,
  IconReceiptRefund,
  IconTicket,
  IconUserCircle,
  IconWallet,
} from "@tabler/icons-react";
import type { ComponentType } from "react";
import { paths } from "../../lib/paths.ts";

export interface ConsoleNavEntry {
  /** Absolute path of the screen; the entry is active on it and below it. */
  to: string;
  /** i18n key (namespace:key) of the label. */
  label: string;
  icon: ComponentType<{ size?: number; stroke?: number }>;
  /** Only for organization admins (hidden for members). */
  adminOnly?: boolean;
  /** Active on this path only, not below it (a section's home). */
  exact?: boolean;
}

export interface ConsoleNavSection {
  /** i18n key of the section heading. */
  label: string;
  entries: ConsoleNavEntry[];
}

/**
 * Every console screen in the sidebar, in order. Add an entry in the same commit as its route in app/routes.ts:
 * an entry exists only when its screen does (no dead links, no placeholders).
 */
export const CONSOLE_NAV: ConsoleNavSection[] = [
  {
    label: "org:nav.organization",
    entries: [
      { to: paths.overview, label: "org:nav.overview", icon: IconLayoutDashboard },
      { to: paths.organization(), label: "org:nav.manage", icon: IconBuildingCommunity },
      { to: paths.projects, label: "org:nav.projects", icon: IconFolder },
      { to: paths.apiKeys, label: "org:nav.apiKeys", icon: IconKey },
      { to: paths.limits, label: "org:nav.limits", icon: IconGauge },
      { to: paths.consumption, label: "org:nav.consumption", icon: IconChartBar },
    ],
  },
  {
    label: "billing:nav.section",
    entries: [
      { to: paths.billing, label: "billing:nav.overview", icon: IconWallet, adminOnly: true, exact: true },
      { to: paths.recharge, label: "billing:nav.recharge", icon: IconCreditCard, adminOnly: true },
      { to: paths.vouchers, label: "billing:nav.vouchers", icon: IconTicket, adminOnly: true },
      { to: paths.invoices, label: "invoices:nav", icon: IconFileInvoice, adminOnly: true },
      { to: paths.refunds, label: "refunds:nav", icon: IconReceiptRefund, adminOnly: true },
      { to: paths.bills, label: "bills:nav.details", icon: IconReceipt, adminOnly: true },
      { to: paths.billExports, label: "bills:nav.exports", icon: IconFileSpreadsheet, adminOnly: true },
      { to: paths.billAlerts, label: "bills:nav.alerts", icon: IconBell, adminOnly: true },
    ],
  },
  {
    label: "console:nav.resources",
    entries: [
      { to: paths.files, label: "console:nav.files", icon: IconFiles },
      { to: paths.contextCaching, label: "console:nav.contextCaching", icon: IconDatabase, adminOnly: true },
    ],
  },
  {
    label: "console:nav.support",
    entries: [
      { to: paths.feedback, label: "console:nav.feedback", icon: IconMessageReport },
      { to: paths.contactSales, label: "console:nav.contactSales", icon: IconHeadset },
    ],
  },
  {
    label: "console:nav.account",
    entries: [{ to: paths.profile, label: "console:nav.profile", icon: IconUserCircle }],
  },
];

/** Links from the console back to the public site (header, and the mobile menu). Labels: `home` namespace. */
export const CONSOLE_SITE_LINKS = [
  { to: "/", label: "home:nav.home" },
  { to: "/docs/overview", label: "home:nav.docs" },
  { to: "/playground", label: "home:nav.playground" },
] as const;
