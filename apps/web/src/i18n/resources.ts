/**
 * Every UI string, per namespace and locale. A namespace is one JSON file per locale; the key-parity test
 * (resources.test.ts) fails when a key exists in one locale and not the other.
 */
import enAdmin from "./locales/en-US/admin.json";
import enAuth from "./locales/en-US/auth.json";
import enBilling from "./locales/en-US/billing.json";
import enBills from "./locales/en-US/bills.json";
import enCaches from "./locales/en-US/caches.json";
import enCommon from "./locales/en-US/common.json";
import enConsole from "./locales/en-US/console.json";
import enDocs from "./locales/en-US/docs.json";
import enFiles from "./locales/en-US/files.json";
import enHome from "./locales/en-US/home.json";
import enInvoices from "./locales/en-US/invoices.json";
import enOrg from "./locales/en-US/org.json";
import enPlayground from "./locales/en-US/playground.json";
import enProfile from "./locales/en-US/profile.json";
import enRefunds from "./locales/en-US/refunds.json";
import enSupport from "./locales/en-US/support.json";
import zhAdmin from "./locales/zh-CN/admin.json";
import zhAuth from "./locales/zh-CN/auth.json";
import zhBilling from "./locales/zh-CN/billing.json";
import zhBills from "./locales/zh-CN/bills.json";
import zhCaches from "./locales/zh-CN/caches.json";
import zhCommon from "./locales/zh-CN/common.json";
import zhConsole from "./locales/zh-CN/console.json";
import zhDocs from "./locales/zh-CN/docs.json";
import zhFiles from "./locales/zh-CN/files.json";
import zhHome from "./locales/zh-CN/home.json";
import zhInvoices from "./locales/zh-CN/invoices.json";
import zhOrg from "./locales/zh-CN/org.json";
import zhPlayground from "./locales/zh-CN/playground.json";
import zhProfile from "./locales/zh-CN/profile.json";
import zhRefunds from "./locales/zh-CN/refunds.json";
import zhSupport from "./locales/zh-CN/support.json";

export const resources = {
  "en-US": {
    common: enCommon,
    admin: enAdmin,
    auth: enAuth,
    bills: enBills,
    caches: enCaches,
    billing: enBilling,
    console: enConsole,
    docs: enDocs,
    files: enFiles,
    home: enHome,
    invoices: enInvoices,
    org: enOrg,
    playground: enPlayground,
    profile: enProfile,
    refunds: enRefunds,
    support: enSupport,
  },
  "zh-CN": {
    common: zhCommon,
    admin: zhAdmin,
    auth: zhAuth,
    bills: zhBills,
    caches: zhCaches,
    billing: zhBilling,
    console: zhConsole,
    docs: zhDocs,
    files: zhFiles,
    home: zhHome,
    invoices: zhInvoices,
    org: zhOrg,
    playground: zhPlayground,
    profile: zhProfile,
    refunds: zhRefunds,
    support: zhSupport,
  },
} as const;
