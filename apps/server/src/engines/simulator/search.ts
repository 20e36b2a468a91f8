/**
 * Search providers behind the `$web_search` builtin. The default searches the platform's own documentation
 * (apps/web/content/docs/{en-US,zh-CN}/**\/*.mdx), read once on first use; an HTTP provider forwards the query to
 * a real search service. Results are plain data; the simulator turns them into tokens and answers.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { request } from "undici";

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchProvider {
  search(query: string, opts: SearchOptions): Promise<SearchResult[]>;
}

export interface SearchOptions {
  signal: AbortSignal;
  limit?: number;
  /** Only results matching at least this share of the query's terms (0–1); the simulator's answers use it. */
  minCoverage?: number;
}

interface Section {
  title: string;
  url: string;
  locale: string;
  text: string;
  terms: Map<string, number>;
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const STOPWORDS = new Set(
  "a an the and or of to in on for with is are was be how what why when which who do does can i you it this that my me your use using about from by at as please tell explain".split(
    " ",
  ),
);

/** Lowercase words, plus overlapping bigrams of CJK runs (Chinese has no spaces). */
function searchTerms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}_$-]+/gu)) {
    const w = m[0];
    if (CJK.test(w)) {
      const chars = [...w].filter((c) => CJK.test(c));
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
      if (chars.length === 1) out.push(chars[0]!);
      const latin = w.replace(/[\u3400-\u9fff\uf900-\ufaff]+/g, " ").trim();
      for (const l of latin.split(/\s+/)) if (l.length > 1 && !STOPWORDS.has(l)) out.push(l);
    } else if (w.length > 1 && !STOPWORDS.has(w)) {
      out.push(w);
    }
  }
  return out;
}

/** MDX to searchable prose: front matter, imports, JSX tags and code fences out; headings split sections. */
export function mdxSections(source: string, route: string, locale: string): Section[] {
  let body = source.replace(/^---\n[\s\S]*?\n---\n?/, "");
  const title =
    /^title:\s*(.+)$/m
      .exec(source)?.[1]
      ?.trim()
      .replace(/^["']|["']$/g, "") ?? route;
  body = body
    .replace(/^(import|export)\s.*$/gm, "")
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/<[^>\n]+\/>/g, " ")
    .replace(/<\/?[A-Za-z][^>\n]*>/g, " ")
    .replace(/\{\/\*[\s\S]*?\*\/\}/g, " ");
  const sections: Section[] = [];
  let current = { heading: title, anchor: "", lines: [] as string[] };
  const flush = () => {
    const text = current.lines
      .join("\n")
      .replace(/\[([^\]]+)\]\([^)]+\)/g, "$1")
      .replace(/[*_`>|#]+/g, " ")
      .replace(/[ \t]+/g, " ")
      .replace(/\n{2,}/g, "\n")
      .trim();
    if (text.length > 20) {
      const url = `/docs/${route}${current.anchor ? `#${current.anchor}` : ""}`;
      const t = current.heading === title ? title : `${title} · ${current.heading}`;
      const terms = new Map<string, number>();
      for (const term of searchTerms(`${t} ${t} ${text}`)) terms.set(term, (terms.get(term) ?? 0) + 1);
      sections.push({ title: t, url, locale, text, terms });
    }
  };
  for (const line of body.split("\n")) {
    const h = /^(#{1,4})\s+(.+)$/.exec(line);
    if (h) {
      flush();
      const heading = h[2]!.trim();
      // The page title (h1) is the page itself: no anchor.
      const top = h[1] === "#";
      current = {
        heading: top ? title : heading,
        anchor: top
          ? ""
          : heading
              .toLowerCase()
              .replace(/[^\p{L}\p{N}\s-]/gu, "")
              .trim()
              .replace(/\s+/g, "-"),
        lines: [],
      };
    } else {
      current.lines.push(line);
    }
  }
  flush();
  return sections;
}

async function walk(dir: string): Promise<string[]> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) files.push(...(await walk(p)));
    else if (e.name.endsWith(".mdx") || e.name.endsWith(".md")) files.push(p);
  }
  return files;
}

/** Searches the documentation tree; the index is built on the first search and kept for the process lifetime. */
export class DocsSearchProvider implements SearchProvider {
  private index: Promise<{ sections: Section[]; df: Map<string, number> }> | undefined;
  constructor(private readonly docsRoot: string) {}

  private load() {
    this.index ??= (async () => {
      const sections: Section[] = [];
      for (const locale of ["en-US", "zh-CN"]) {
        const root = path.join(this.docsRoot, locale);
        for (const file of (await walk(root)).sort()) {
          if (path.basename(file).toLowerCase() === "readme.md") continue;
          const route = path
            .relative(root, file)
            .replace(/\.mdx?$/, "")
            .split(path.sep)
            .join("/")
            .replace(/(^|\/)index$/, "");
          sections.push(...mdxSections(await fs.readFile(file, "utf8"), route, locale));
        }
      }
      const df = new Map<string, number>();
      for (const s of sections) for (const t of s.terms.keys()) df.set(t, (df.get(t) ?? 0) + 1);
      return { sections, df };
    })();
    return this.index;
  }

  async search(query: string, opts: SearchOptions): Promise<SearchResult[]> {
    const { sections, df } = await this.load();
    opts.signal.throwIfAborted();
    const terms = [...new Set(searchTerms(query))];
    if (terms.length === 0) return [];
    const locale = CJK.test(query) ? "zh-CN" : "en-US";
    const n = sections.length;
    const scored: { s: Section; score: number }[] = [];
    for (const s of sections) {
      let score = 0;
      let matched = 0;
      for (const t of terms) {
        const tf = s.terms.get(t);
        if (!tf) continue;
        matched++;
        score += (1 + Math.log(tf)) * Math.log(1 + n / (df.get(t) ?? 1));
      }
      // CJK bigrams include many that straddle word boundaries, so a lower share of them ever matches.
      const needed = (opts.minCoverage ?? 0) * (locale === "zh-CN" ? 0.5 : 1);
      if (matched === 0 || matched / terms.length < needed) continue;
      // Prefer sections matching more of the query, and the query's own language.
      score *= (matched / terms.length) ** 2 * (s.locale === locale ? 1.5 : 1);
      scored.push({ s, score });
    }
    scored.sort((a, b) => b.score - a.score || a.s.url.localeCompare(b.s.url));
    return scored.slice(0, opts.limit ?? 5).map(({ s }) => ({
      title: s.title,
      url: s.url,
      snippet: s.text.length > 600 ? `${s.text.slice(0, 600)}…` : s.text,
    }));
  }
}

/**
 * A real search service: POST {query, limit} with an optional bearer token, expecting
 * {results:[{title, url, snippet|content}]}.
 */
export class HttpSearchProvider implements SearchProvider {
  constructor(
    private readonly url: string,
    private readonly token: string | undefined,
  ) {}

  async search(query: string, opts: SearchOptions): Promise<SearchResult[]> {
    const res = await request(this.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      },
      body: JSON.stringify({ query, limit: opts.limit ?? 5 }),
      signal: opts.signal,
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    if (res.statusCode >= 400) {
      await res.body.dump();
      throw new Error(`search provider answered HTTP ${res.statusCode}`);
    }
    const json = (await res.body.json()) as {
      results?: { title?: unknown; url?: unknown; snippet?: unknown; content?: unknown }[];
    };
    return (json.results ?? []).slice(0, opts.limit ?? 5).map((r) => ({
      title: String(r.title ?? ""),
      url: String(r.url ?? ""),
      snippet: String(r.snippet ?? r.content ?? ""),
    }));
  }
}
