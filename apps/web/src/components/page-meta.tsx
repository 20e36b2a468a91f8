import { useTranslation } from "react-i18next";
import { brandName } from "../lib/site-config.ts";

/**
 * Document title and meta tags of a page (React hoists them into <head>, also when prerendering). Everything here
 * comes with the page (the locale's catalog and the server-filled site tokens), so public pages need no request
 * to render them and hydration never re-renders the head.
 */
export function PageMeta({ title, description }: { title?: string; description?: string }) {
  const { t } = useTranslation();
  const brand = brandName();
  const siteTitle = t("site.title", { brand });
  const desc = description ?? t("site.description", { brand });
  const full = title ? `${title} · ${siteTitle}` : siteTitle;
  return (
    <>
      <title>{full}</title>
      <meta name="description" content={desc} />
      <meta name="keywords" content={t("site.keywords", { brand })} />
      <meta property="og:title" content={full} />
      <meta property="og:description" content={desc} />
    </>
  );
}
