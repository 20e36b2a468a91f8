/**
 * The 1200×630 Open Graph / Twitter card of a docs page: satori lays out the title and description, resvg turns
 * the SVG into a PNG. Chinese is drawn with Noto Sans SC from @fontsource (its WOFF files: satori reads WOFF, not
 * WOFF2).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Locale } from "@moonport/contracts";
import { Resvg } from "@resvg/resvg-js";
import satori from "satori";
import type { DocPage } from "../page-map.ts";

const require = createRequire(import.meta.url);
const FONT_DIR = path.dirname(require.resolve("@fontsource/noto-sans-sc/package.json"));
// Latin first so Latin text uses its proper glyphs; the simplified-Chinese subset covers the CJK characters.
const SUBSETS = ["latin", "chinese-simplified"] as const;
let fonts: { name: string; data: Buffer; weight: 400 | 700; style: "normal" }[] | undefined;
function loadFonts() {
  fonts ??= SUBSETS.flatMap((subset) =>
    ([400, 700] as const).map((weight) => ({
      name: `Noto Sans SC ${subset}`,
      data: fs.readFileSync(path.join(FONT_DIR, "files", `noto-sans-sc-${subset}-${weight}-normal.woff`)),
      weight,
      style: "normal" as const,
    })),
  );
  return fonts;
}

type Node = { type: string; props: { style?: Record<string, unknown>; children?: Node | Node[] | string } };
const h = (type: string, style: Record<string, unknown>, children?: Node | Node[] | string): Node => ({
  type,
  props: { style, children },
});

const LABEL: Record<Locale, string> = { "en-US": "Documentation", "zh-CN": "开发文档" };

export async function renderSocialCard(opts: { locale: Locale; page: DocPage; brand?: string }): Promise<Buffer> {
  const brand = opts.brand ?? "Moonport";
  const { title, description } = opts.page;
  const tree = h(
    "div",
    {
      width: 1200,
      height: 630,
      display: "flex",
      flexDirection: "column",
      justifyContent: "space-between",
      padding: "72px 80px",
      background: "linear-gradient(135deg, #1e1b4b 0%, #312e81 55%, #4338ca 100%)",
      color: "#ffffff",
      fontFamily: SUBSETS.map((s) => `"Noto Sans SC ${s}"`).join(", "),
    },
    [
      h("div", { display: "flex", alignItems: "center", fontSize: 34, fontWeight: 700, color: "#c7d2fe" }, [
        h("div", { width: 44, height: 44, borderRadius: 22, background: "#a5b4fc", marginRight: 20 }),
        h("div", {}, `${brand} · ${LABEL[opts.locale]}`),
      ]),
      h("div", { display: "flex", flexDirection: "column" }, [
        h("div", { fontSize: title.length > 28 ? 60 : 72, fontWeight: 700, lineHeight: 1.15 }, title),
        h(
          "div",
          { fontSize: 30, marginTop: 28, color: "#e0e7ff", lineHeight: 1.45, maxHeight: 135, overflow: "hidden" },
          description,
        ),
      ]),
      h("div", { display: "flex", fontSize: 24, color: "#a5b4fc" }, `/docs/${opts.page.route}`),
    ],
  );
  // satori's types want a ReactNode; the plain {type, props} tree is what it walks.
  const svg = await satori(tree as unknown as Parameters<typeof satori>[0], {
    width: 1200,
    height: 630,
    fonts: loadFonts(),
  });
  return new Resvg(svg, { fitTo: { mode: "width", value: 1200 } }).render().asPng();
}
