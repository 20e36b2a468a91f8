/**
 * Everything an operator adapts about the docs chrome, in one place: community links, QR targets, the issue
 * tracker, and which navbar pages exist (the blog link follows BLOG_URL, a runtime setting: see navbar.tsx). A link
 * set to null is not shown (no dead links). QR images are generated at build time from the `qr` URLs
 * (pipeline/extra-files.ts), so changing a URL here changes the image.
 */
export interface DocsConfig {
  /** The product's home page (the sidebar "home site" entry). */
  homeUrl: string;
  forumUrl: string | null;
  communityUrl: string | null;
  contactEmail: string | null;
  changelogUrl: string | null;
  /** Not-found and error pages: "Submit an issue …" opens this URL with `title` and `body` query parameters. */
  issueUrl: string | null;
  /** Navbar pages that are built by other parts of the app; a page not listed here is not linked. */
  navPages: { contactSales: boolean; playground: boolean; console: boolean; agreement: boolean };
  /** zh-CN sidebar entries with a QR code in a hover card: where scanning the code leads. */
  qr: { kefu: string | null; devgroup: string | null; official: string | null };
}

const REPOSITORY = "https://github.com/moonport/moonport";

export const docsConfig: DocsConfig = {
  homeUrl: "/",
  forumUrl: `${REPOSITORY}/discussions`,
  communityUrl: `${REPOSITORY}/discussions/categories/q-a`,
  contactEmail: "support@moonport.dev",
  changelogUrl: `${REPOSITORY}/releases`,
  issueUrl: `${REPOSITORY}/issues/new`,
  navPages: { contactSales: true, playground: true, console: true, agreement: false },
  qr: {
    kefu: "mailto:support@moonport.dev",
    devgroup: `${REPOSITORY}/discussions/categories/q-a`,
    official: `${REPOSITORY}`,
  },
};

export const QR_PATH = (name: keyof DocsConfig["qr"]) => `/docs-qr/${name}.svg`;

/** "Submit an issue" link with the broken URL and what happened, or null when no tracker is configured. */
export function issueLink(kind: "broken-link" | "error", url: string, detail?: string): string | null {
  if (!docsConfig.issueUrl) return null;
  const title = kind === "broken-link" ? `Broken link: ${url}` : `Error on ${url}`;
  const body = `URL: ${url}${detail ? `\n\n${detail}` : ""}`;
  return `${docsConfig.issueUrl}?${new URLSearchParams({ title, body })}`;
}
