/** The blog's posts as the web app sees them (`virtual:blog/posts`, built from content/blog by the Vite plugin). */
import type { Locale } from "@moonport/contracts";

export interface BlogPost {
  slug: string;
  title: string;
  description: string;
  /** Publication day, YYYY-MM-DD. */
  date: string;
  author: string | null;
}

/** Per locale, newest first. */
export type BlogPosts = Record<Locale, BlogPost[]>;

export const BLOG_FEED_PATH = "/blog/rss.xml";
export const blogHref = (slug?: string) => (slug ? `/blog/${slug}` : "/blog");
export const blogModuleKey = (locale: Locale, slug: string) => `/content/blog/${locale}/${slug}.mdx`;
