/**
 * Every UI string, per namespace and locale. A namespace is one JSON file per locale; the key-parity test
 * (resources.test.ts) fails when a key exists in one locale and not the other.
 */
import enCommon from "./locales/en-US/common.json";
import enDocs from "./locales/en-US/docs.json";
import zhCommon from "./locales/zh-CN/common.json";
import zhDocs from "./locales/zh-CN/docs.json";

export const resources = {
  "en-US": { common: enCommon, docs: enDocs },
  "zh-CN": { common: zhCommon, docs: zhDocs },
} as const;
