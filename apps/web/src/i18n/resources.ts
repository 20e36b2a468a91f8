/**
 * Every UI string, per namespace and locale. A namespace is one JSON file per locale; the key-parity test
 * (resources.test.ts) fails when a key exists in one locale and not the other.
 */
import enAuth from "./locales/en-US/auth.json";
import enCommon from "./locales/en-US/common.json";
import enConsole from "./locales/en-US/console.json";
import enDocs from "./locales/en-US/docs.json";
import enHome from "./locales/en-US/home.json";
import enOrg from "./locales/en-US/org.json";
import enProfile from "./locales/en-US/profile.json";
import zhAuth from "./locales/zh-CN/auth.json";
import zhCommon from "./locales/zh-CN/common.json";
import zhConsole from "./locales/zh-CN/console.json";
import zhDocs from "./locales/zh-CN/docs.json";
import zhHome from "./locales/zh-CN/home.json";
import zhOrg from "./locales/zh-CN/org.json";
import zhProfile from "./locales/zh-CN/profile.json";

export const resources = {
  "en-US": {
    common: enCommon,
    auth: enAuth,
    console: enConsole,
    docs: enDocs,
    home: enHome,
    org: enOrg,
    profile: enProfile,
  },
  "zh-CN": {
    common: zhCommon,
    auth: zhAuth,
    console: zhConsole,
    docs: zhDocs,
    home: zhHome,
    org: zhOrg,
    profile: zhProfile,
  },
} as const;
