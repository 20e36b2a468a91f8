/**
 * The blog (/blog and /blog/<slug>): posts written in MDX per locale (content/blog), prerendered like the docs and
 * shown in the docs' frame without the sidebar. An unknown post gets the site's not-found page, the same HTML the
 * server sent for it.
 */
import { loaded, loaders } from "virtual:blog/content";
import posts from "virtual:blog/posts";
import { Loader } from "@mantine/core";
import type { Locale } from "@moonport/contracts";
import type { MDXComponents } from "mdx/types";
import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { DocsShell, mdxModuleReader } from "../../components/docs-layout.tsx";
import { mdxComponents } from "../../components/mdx-components.tsx";
import docsClasses from "../../docs.module.css";
import { NOT_FOUND_ROUTE } from "../../page-map.ts";
import { BLOG_FEED_PATH, type BlogPost, blogHref, blogModuleKey } from "../posts.ts";
import classes from "./blog.module.css";

const usePostModule = mdxModuleReader(loaded, loaders);

export const findPost = (locale: Locale, slug: string): BlogPost | undefined =>
  posts[locale].find((p) => p.slug === slug);

function PublishedLine({ post }: { post: BlogPost }) {
  const { t, i18n } = useTranslation("docs");
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(`${post.date}T00:00:00Z`),
  );
  return (
    <p className={classes.meta}>
      <time dateTime={post.date}>{t("blog.published", { date })}</time>
      {post.author ? ` · ${t("blog.by", { author: post.author })}` : ""}
    </p>
  );
}

function FeedLink() {
  const { t } = useTranslation("docs");
  return (
    <a className={classes.feed} href={BLOG_FEED_PATH} type="application/rss+xml">
      {t("blog.rss")}
    </a>
  );
}

function BlogIndex({ locale }: { locale: Locale }) {
  const { t } = useTranslation("docs");
  const list = posts[locale];
  return (
    <main className={docsClasses.main} id="main">
      <article className={docsClasses.article} data-testid="blog-index">
        <header className={classes.header}>
          <h1>{t("blog.heading")}</h1>
          <p className={classes.intro}>{t("blog.intro")}</p>
        </header>
        {list.length === 0 && <p>{t("blog.empty")}</p>}
        <ul className={classes.list}>
          {list.map((post) => (
            <li key={post.slug} className={classes.item}>
              <h2>
                <Link to={blogHref(post.slug)}>{post.title}</Link>
              </h2>
              <PublishedLine post={post} />
              <p>{post.description}</p>
            </li>
          ))}
        </ul>
        <div className={classes.footer}>
          <FeedLink />
        </div>
      </article>
    </main>
  );
}

function PostBody({ locale, post }: { locale: Locale; post: BlogPost }) {
  const Content = usePostModule(blogModuleKey(locale, post.slug)).default;
  return (
    <div className={docsClasses.prose}>
      <Content components={mdxComponents as MDXComponents} />
    </div>
  );
}

function BlogPostPage({ locale, post }: { locale: Locale; post: BlogPost }) {
  const { t } = useTranslation("docs");
  return (
    <main className={docsClasses.main} id="main">
      <article className={docsClasses.article} data-testid="blog-post">
        <header className={classes.header}>
          <h1>{post.title}</h1>
          <PublishedLine post={post} />
        </header>
        <Suspense fallback={<Loader size="sm" aria-label={t("page.loading")} />}>
          <PostBody locale={locale} post={post} />
        </Suspense>
        <div className={classes.footer}>
          <Link className={classes.back} to={blogHref()}>
            {t("blog.back")}
          </Link>
          <FeedLink />
        </div>
      </article>
    </main>
  );
}

/** `post` undefined: the index. */
export function BlogPage({ locale, post }: { locale: Locale; post?: BlogPost }) {
  return (
    <DocsShell locale={locale} route={NOT_FOUND_ROUTE} sidebar={false}>
      {post ? <BlogPostPage locale={locale} post={post} /> : <BlogIndex locale={locale} />}
    </DocsShell>
  );
}
