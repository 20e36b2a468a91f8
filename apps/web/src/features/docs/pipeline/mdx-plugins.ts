/**
 * Rehype plugins of the docs MDX pipeline (build time only):
 * - code blocks highlighted by shiki into static spans (light and dark colours, no highlighter in the browser);
 * - `{{API_BASE_URL}}` in code becomes an <ApiBaseUrl/> element, rendered with the edition's address (which the
 *   server fills in per request, so one build serves any deployment);
 * - `export const toc` with the page's h2–h6 headings and their rehype-slug anchors, for the table of contents.
 */
import { createHighlighter, type Highlighter } from "shiki";

/** The slice of hast (and MDX's JSX nodes inside it) these plugins touch. */
interface HastNode {
  type: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
  value?: string;
  [key: string]: unknown;
}
type HastElement = HastNode & { tagName: string; properties: Record<string, unknown>; children: HastNode[] };
type HastRoot = HastNode & { children: HastNode[] };

export const API_BASE_URL_PLACEHOLDER = "{{API_BASE_URL}}";
// Survives tokenization by every grammar as part of one token (letters only).
const MARK = "MPAPIBASEURLMARK";

const LANGS = ["bash", "shell", "python", "javascript", "typescript", "json", "http", "yaml", "text"] as const;
const LANG_ALIASES: Record<string, string> = { sh: "bash", js: "javascript", ts: "typescript", py: "python" };

let highlighter: Promise<Highlighter> | undefined;
function getHighlighter() {
  highlighter ??= createHighlighter({
    themes: ["github-light-high-contrast", "github-dark-high-contrast"],
    langs: [...LANGS],
  });
  return highlighter;
}

const isElement = (n: HastNode | undefined, tag?: string): n is HastElement =>
  n?.type === "element" && (tag === undefined || (n as HastElement).tagName === tag);

function textOf(node: HastNode): string {
  if (node.type === "text") return node.value ?? "";
  return (node.children ?? []).map(textOf).join("");
}

/** Replaces the marker in text nodes with <ApiBaseUrl/> MDX elements, recursively. */
function injectApiBaseUrl(node: HastNode) {
  const children = node.children;
  if (!children) return;
  const out: HastNode[] = [];
  for (const child of children) {
    if (child.type === "text" && child.value?.includes(MARK)) {
      const parts = child.value.split(MARK);
      parts.forEach((part, i) => {
        if (i > 0) out.push({ type: "mdxJsxTextElement", name: "ApiBaseUrl", attributes: [], children: [] });
        if (part) out.push({ type: "text", value: part });
      });
    } else {
      injectApiBaseUrl(child);
      out.push(child);
    }
  }
  node.children = out;
}

export function rehypeDocsCode() {
  return async (tree: HastRoot) => {
    const hl = await getHighlighter();
    const visit = (node: HastNode) => {
      const children = node.children;
      if (!children) return;
      children.forEach((child, i) => {
        if (isElement(child, "pre") && isElement(child.children[0], "code")) {
          const code = child.children[0];
          const cls = (code.properties.className as string[] | undefined) ?? [];
          const declared = cls.find((c) => c.startsWith("language-"))?.slice(9) ?? "text";
          const lang = LANG_ALIASES[declared] ?? declared;
          const source = textOf(code).replace(/\n$/, "").replaceAll(API_BASE_URL_PLACEHOLDER, MARK);
          const root = hl.codeToHast(source, {
            lang: (LANGS as readonly string[]).includes(lang) ? lang : "text",
            // High-contrast variants: every token colour passes WCAG AA on the block background.
            themes: { light: "github-light-high-contrast", dark: "github-dark-high-contrast" },
            // Colours only as CSS variables (--shiki-light/--shiki-dark); docs.module.css picks one per theme.
            defaultColor: false,
          }) as unknown as HastRoot;
          const pre = root.children.find((n): n is HastElement => isElement(n, "pre"));
          if (!pre) return;
          pre.properties = { ...pre.properties, dataLanguage: declared, tabIndex: 0 };
          injectApiBaseUrl(pre);
          children[i] = pre;
          return;
        }
        if (isElement(child, "code")) injectApiBaseUrl(child);
        visit(child);
      });
    };
    visit(tree);
  };
}

export interface TocEntry {
  depth: number;
  id: string;
  text: string;
}

/** JSON value → estree expression, for the injected `export const toc`. */
function toEstree(value: unknown): unknown {
  if (Array.isArray(value)) return { type: "ArrayExpression", elements: value.map(toEstree) };
  if (value !== null && typeof value === "object") {
    return {
      type: "ObjectExpression",
      properties: Object.entries(value).map(([k, v]) => ({
        type: "Property",
        kind: "init",
        method: false,
        shorthand: false,
        computed: false,
        key: { type: "Literal", value: k },
        value: toEstree(v),
      })),
    };
  }
  return { type: "Literal", value };
}

/** Runs after rehype-slug: collects h2–h6 (id and text) and exports them as `toc`. */
export function rehypeDocsToc() {
  return (tree: HastRoot) => {
    const toc: TocEntry[] = [];
    const visit = (node: HastNode) => {
      for (const child of node.children ?? []) {
        if (isElement(child) && /^h[2-6]$/.test(child.tagName) && typeof child.properties.id === "string") {
          toc.push({ depth: Number(child.tagName[1]), id: child.properties.id, text: textOf(child).trim() });
        } else visit(child);
      }
    };
    visit(tree);
    tree.children.unshift({
      type: "mdxjsEsm",
      value: "",
      data: {
        estree: {
          type: "Program",
          sourceType: "module",
          body: [
            {
              type: "ExportNamedDeclaration",
              specifiers: [],
              source: null,
              attributes: [],
              declaration: {
                type: "VariableDeclaration",
                kind: "const",
                declarations: [
                  { type: "VariableDeclarator", id: { type: "Identifier", name: "toc" }, init: toEstree(toc) },
                ],
              },
            },
          ],
        },
      },
    });
  };
}
