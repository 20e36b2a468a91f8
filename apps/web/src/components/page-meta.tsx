import { useTranslation } from "react-i18next";
import { DEFAULT_BRAND, useConfig } from "../features/config/api/get-config.ts";

/**
 * Document title and meta tags of a page (React hoists them into <head>, also when prerendering). The site
 * title, description and keywords are the edition's from /api/config; before it loads (and in prerendered
 * HTML) the catalog's defaults for the locale stand in.
 */
export function PageMeta({ title, description }: { title?: string; description?: string }) {
  const { t } = useTranslation();
  const config = useConfig();
  const brand = config?.brandName ?? DEFAULT_BRAND;
  const siteTitle = config?.edition.title ?? t("site.title", { brand });
  const desc = description ?? config?.edition.description ?? t("site.description", { brand });
  const keywords = config?.edition.keywords.join(", ") ?? t("site.keywords", { brand });
  const full = title ? `${title} · ${siteTitle}` : siteTitle;
  return (
    <>
      <title>{full}</title>
      <meta name="description" content={desc} />
      <meta name="keywords" content={keywords} />
      <meta property="og:title" content={full} />
      <meta property="og:description" content={desc} />
      {config ? <meta property="og:image" content={config.edition.socialImage} /> : null}
    </>
  );
}
