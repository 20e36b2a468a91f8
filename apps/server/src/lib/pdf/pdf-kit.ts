/**
 * The one PDF layout of the app (cn VAT invoices, global order invoices, the algorithm-filing letter): a header
 * with the brand and the document's title and numbers, party blocks side by side, an optional line table and
 * totals, paragraphs, and notes at the foot.
 *
 * pdfkit embeds a subset of the font (only the glyphs used), so a page of Chinese costs a few dozen KB although
 * Noto Sans SC (SIL OFL 1.1) is 10 MB; pdf-lib's subsetting was tried and drops CJK glyphs, hence pdfkit. The font
 * files are read once per process and kept (about 21 MB for both weights).
 */
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import PDFDocument from "pdfkit";

const require = createRequire(import.meta.url);
const FONT_FILES = {
  regular: require.resolve("@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf"),
  bold: require.resolve("@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf"),
};

let fonts: Promise<{ regular: Buffer; bold: Buffer }> | undefined;
function loadFonts() {
  fonts ??= Promise.all([fs.readFile(FONT_FILES.regular), fs.readFile(FONT_FILES.bold)]).then(([regular, bold]) => ({
    regular,
    bold,
  }));
  return fonts;
}

interface PdfParty {
  heading: string;
  /** label/value pairs; a null value is left out */
  lines: [string, string | null][];
}

interface PdfColumn {
  label: string;
  /** share of the table's width */
  width: number;
  align?: "left" | "right";
}

interface PdfDocumentSpec {
  brand: string;
  title: string;
  /** label/value pairs under the title (numbers, dates) */
  meta: [string, string][];
  parties?: PdfParty[];
  table?: { columns: PdfColumn[]; rows: string[][] };
  /** label/value pairs right-aligned under the table; the last one is drawn bold (the total) */
  totals?: [string, string][];
  paragraphs?: string[];
  /** a signature block at the end of the paragraphs (letters) */
  signature?: string[];
  /** small print at the foot of the page */
  notes?: string[];
  /** a large red word across the header (for example a voided invoice) */
  stamp?: string;
  /** document metadata */
  author: string;
  language: string;
}

const ACCENT = "#1c4ed8";
const INK = "#1a1b1e";
const MUTED = "#5c5f66";
const RULE = "#ced4da";
const SHADE = "#f1f3f5";

/** Renders the document to a PDF buffer (A4, one page for everything these documents hold; more flow on). */
export async function renderPdf(spec: PdfDocumentSpec): Promise<Buffer> {
  const { regular, bold } = await loadFonts();
  const doc = new PDFDocument({
    size: "A4",
    margin: 48,
    info: { Title: spec.title, Author: spec.author, Creator: spec.brand },
    lang: spec.language,
    pdfVersion: "1.7",
  });
  doc.registerFont("regular", regular);
  doc.registerFont("bold", bold);
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  // Header: brand on the left, title on the right, a rule under both.
  doc
    .font("bold")
    .fontSize(20)
    .fillColor(ACCENT)
    .text(spec.brand, left, 48, { width: width / 2 });
  doc
    .font("bold")
    .fontSize(18)
    .fillColor(INK)
    .text(spec.title, left + width / 2, 50, { width: width / 2, align: "right" });
  let y = Math.max(doc.y, 84) + 6;
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(2)
    .strokeColor(ACCENT)
    .stroke();
  y += 10;
  if (spec.stamp) {
    doc
      .save()
      .font("bold")
      .fontSize(28)
      .fillColor("#c92a2a")
      .opacity(0.85)
      .text(spec.stamp, left, 50, { width, align: "center" })
      .restore();
  }

  // Meta: label/value pairs, right-aligned block.
  doc.fontSize(9);
  // Labels take 0.35–0.58 of the width, values the rest, so long numbers stay on one line.
  for (const [label, value] of spec.meta) {
    doc
      .font("regular")
      .fillColor(MUTED)
      .text(label, left + width * 0.35, y, { width: width * 0.23 - 6, align: "right" });
    doc
      .font("bold")
      .fillColor(INK)
      .text(value, left + width * 0.58, y, { width: width * 0.42, align: "right" });
    y = Math.max(doc.y, y + 12) + 2;
  }
  y += 8;

  // Parties side by side, each in a light box.
  if (spec.parties?.length) {
    const gap = 12;
    const boxWidth = (width - gap * (spec.parties.length - 1)) / spec.parties.length;
    let bottom = y;
    spec.parties.forEach((party, i) => {
      const x = left + i * (boxWidth + gap);
      let py = y + 8;
      doc
        .font("bold")
        .fontSize(10)
        .fillColor(ACCENT)
        .text(party.heading, x + 10, py, { width: boxWidth - 20 });
      py = doc.y + 4;
      for (const [label, value] of party.lines) {
        if (value === null || value === "") continue;
        doc
          .font("regular")
          .fontSize(8)
          .fillColor(MUTED)
          .text(label, x + 10, py, { width: boxWidth - 20 });
        doc
          .font("regular")
          .fontSize(9.5)
          .fillColor(INK)
          .text(value, x + 10, doc.y, { width: boxWidth - 20 });
        py = doc.y + 4;
      }
      bottom = Math.max(bottom, py + 6);
    });
    spec.parties.forEach((_, i) => {
      const x = left + i * (boxWidth + gap);
      doc
        .roundedRect(x, y, boxWidth, bottom - y, 4)
        .lineWidth(0.8)
        .strokeColor(RULE)
        .stroke();
    });
    y = bottom + 16;
  }

  // Line table.
  if (spec.table) {
    const total = spec.table.columns.reduce((s, c) => s + c.width, 0);
    const widths = spec.table.columns.map((c) => (c.width / total) * width);
    const cell = (row: string[], font: string, top: number) => {
      let x = left;
      let bottom = top;
      row.forEach((value, i) => {
        const col = spec.table!.columns[i]!;
        doc
          .font(font)
          .fontSize(9)
          .fillColor(INK)
          .text(value, x + 6, top + 6, { width: widths[i]! - 12, align: col.align ?? "left" });
        bottom = Math.max(bottom, doc.y + 6);
        x += widths[i]!;
      });
      return bottom;
    };
    const headerBottom = y + 24;
    doc.rect(left, y, width, headerBottom - y).fill(SHADE);
    cell(
      spec.table.columns.map((c) => c.label),
      "bold",
      y,
    );
    y = headerBottom;
    for (const row of spec.table.rows) {
      const bottom = cell(row, "regular", y);
      doc
        .moveTo(left, bottom)
        .lineTo(left + width, bottom)
        .lineWidth(0.5)
        .strokeColor(RULE)
        .stroke();
      y = bottom;
    }
    y += 10;
  }

  // Totals: right-aligned, the last one bold.
  if (spec.totals?.length) {
    spec.totals.forEach(([label, value], i) => {
      const last = i === spec.totals!.length - 1;
      if (last) {
        doc
          .moveTo(left + width / 2, y)
          .lineTo(left + width, y)
          .lineWidth(0.8)
          .strokeColor(INK)
          .stroke();
        y += 4;
      }
      doc
        .font(last ? "bold" : "regular")
        .fontSize(last ? 11 : 9.5)
        .fillColor(last ? INK : MUTED);
      doc.text(label, left + width / 2, y, { width: width / 4, align: "right" });
      doc.fillColor(INK).text(value, left + (3 * width) / 4, y, { width: width / 4, align: "right" });
      y = doc.y + 4;
    });
    y += 12;
  }

  // Paragraphs (letters) and the signature.
  if (spec.paragraphs?.length) {
    doc.font("regular").fontSize(11).fillColor(INK);
    for (const p of spec.paragraphs) {
      doc.text(p, left, y, { width, align: "justify", lineGap: 4 });
      y = doc.y + 10;
    }
  }
  if (spec.signature?.length) {
    y += 24;
    for (const line of spec.signature) {
      doc
        .font("regular")
        .fontSize(11)
        .fillColor(INK)
        .text(line, left + width / 2, y, { width: width / 2, align: "right" });
      y = doc.y + 4;
    }
  }

  // Notes at the foot of the last page.
  if (spec.notes?.length) {
    const noteText = spec.notes.join("\n");
    doc.font("regular").fontSize(8);
    const h = doc.heightOfString(noteText, { width, lineGap: 2 });
    const bottom = doc.page.height - doc.page.margins.bottom;
    const top = Math.max(y + 12, bottom - h);
    doc
      .moveTo(left, top - 6)
      .lineTo(left + width, top - 6)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.fillColor(MUTED).text(noteText, left, top, { width, lineGap: 2 });
  }

  doc.end();
  return done;
}
