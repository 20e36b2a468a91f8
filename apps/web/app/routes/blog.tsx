import posts from "virtual:blog/posts";
import { LOCALES, type Locale } from "@moonport/contracts";
import { useLocation, useParams } from "react-router";
import { BlogPage, findPost } from "../../src/features/docs/blog/components/blog-page.tsx";
import { blogMeta } from "../../src/features/docs/blog/meta.ts";
import { SiteErrorPage, siteErrorFor, siteErrorMeta } from "../../src/features/docs/components/site-error.tsx";
import { localeForPath } from "../../src/i18n/index.ts";
import type { Route } from "./+types/blog";

/** `/blog` (the index) and `/blog/<slug>`, prerendered per locale like the docs. */
function resolve(params: { "*"?: string; lang?: string }, pathname: string) {
  const locale: Locale = localeForPath(pathname);
  const slug = (params["*"] ?? "").replace(/\/$/, "");
  const post = slug ? findPost(locale, slug) : undefined;
  const error = siteErrorFor(params, pathname) ?? (slug && !post ? "notFound" : undefined);
  return { locale, slug, post, error };
}

export function meta({ params, location }: Route.MetaArgs) {
  const { locale, slug, post, error } = resolve(params, location.pathname);
  if (error) return siteErrorMeta(locale, error);
  const available = LOCALES.filter((l) => !slug || posts[l].some((p) => p.slug === slug));
  return blogMeta(locale, post, available);
}

export default function Blog() {
  const params = useParams();
  const { pathname } = useLocation();
  const { locale, post, error } = resolve(params, pathname);
  if (error) return <SiteErrorPage locale={locale} kind={error} />;
  return <BlogPage locale={locale} post={post} />;
}
