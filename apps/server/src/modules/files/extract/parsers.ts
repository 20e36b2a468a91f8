/**
 * One reader per format. They run inside the extraction worker (worker.ts), never on the server's event loop, so a
 * slow or hostile file costs a worker its time and heap budget and nothing else.
 */
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { convert as htmlToText } from "html-to-text";
import mammoth from "mammoth";
import { detectKind } from "./detect.ts";
import { ExtractError } from "./extract-error.ts";
import { openZip, zipText } from "./zip-guard.ts";

const require = createRequire(import.meta.url);

export interface ExtractInput {
  path: string;
  filename: string;
  /** Directory for the OCR language data links (created on first use). */
  tessDir: string;
  /** A batch input: checked line by line, no text kept. */
  batch?: boolean;
}

export async function extractText(input: ExtractInput): Promise<string> {
  const buf = await fs.readFile(input.path);
  if (input.batch) return checkBatch(buf);
  const kind = detectKind(input.filename, buf.subarray(0, 16));
  let text: string;
  switch (kind) {
    case "pdf":
      text = await readPdf(buf);
      break;
    case "docx":
      text = await readDocx(buf);
      break;
    case "xlsx":
      text = await readXlsx(buf);
      break;
    case "pptx":
      text = await readPptx(buf);
      break;
    case "epub":
      text = await readEpub(buf);
      break;
    case "html":
      text = readHtml(decodeText(buf));
      break;
    case "image":
      text = await readImage(buf, input.tessDir);
      break;
    case "legacy-office":
      throw new ExtractError(
        "legacy binary Office formats (.doc, .xls, .ppt) are not supported; save the file as .docx, .xlsx or .pptx",
      );
    case "unknown":
      throw new ExtractError("unsupported file type");
    default:
      text = decodeText(buf);
  }
  text = normalize(text);
  if (!text) throw new ExtractError("no text found in the file");
  return text;
}

function normalize(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** UTF-8 (with or without BOM), UTF-16 with BOM, else GB18030 (common for Chinese text files); NUL bytes mean binary. */
export function decodeText(buf: Buffer): string {
  if (buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder("utf-16le").decode(buf.subarray(2));
  if (buf[0] === 0xfe && buf[1] === 0xff) return new TextDecoder("utf-16be").decode(buf.subarray(2));
  if (buf.subarray(0, 8192).includes(0)) throw new ExtractError("the file is binary, not text");
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(buf);
  } catch {
    return new TextDecoder("gb18030").decode(buf);
  }
}

async function readPdf(buf: Buffer): Promise<string> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  let doc: Awaited<ReturnType<typeof pdfjs.getDocument>["promise"]>;
  try {
    doc = await pdfjs.getDocument({
      data: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    }).promise;
  } catch (err) {
    throw new ExtractError(`the PDF cannot be read: ${(err as Error).message}`);
  }
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    let line = "";
    const lines: string[] = [];
    for (const item of content.items) {
      if (!("str" in item)) continue;
      line += item.str;
      if (item.hasEOL) {
        lines.push(line);
        line = "";
      }
    }
    if (line) lines.push(line);
    pages.push(lines.join("\n"));
    page.cleanup();
  }
  await doc.destroy();
  const text = pages.join("\n\n");
  if (!text.trim()) throw new ExtractError("the PDF has no text layer (scanned pages are not read yet)");
  return text;
}

async function readDocx(buf: Buffer): Promise<string> {
  await openZip(buf, "Word document");
  try {
    const out = await mammoth.extractRawText({ buffer: buf });
    return out.value;
  } catch (err) {
    throw new ExtractError(`the Word document cannot be read: ${(err as Error).message}`);
  }
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value !== "object") return String(value);
  if ("richText" in value) return value.richText.map((r) => r.text).join("");
  if ("formula" in value || "sharedFormula" in value) return cellText((value as { result?: ExcelJS.CellValue }).result);
  if ("text" in value) return String((value as { text: unknown }).text);
  if ("error" in value) return String(value.error);
  return "";
}

async function readXlsx(buf: Buffer): Promise<string> {
  await openZip(buf, "Excel workbook");
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
  } catch (err) {
    throw new ExtractError(`the workbook cannot be read: ${(err as Error).message}`);
  }
  const parts: string[] = [];
  wb.eachSheet((sheet) => {
    const rows: string[] = [];
    sheet.eachRow((row) => {
      const values = (row.values as ExcelJS.CellValue[]).slice(1).map(cellText);
      rows.push(values.join("\t"));
    });
    parts.push(`# ${sheet.name}\n${rows.join("\n")}`);
  });
  return parts.join("\n\n");
}

const XML_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
function unescapeXml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return XML_ENTITIES[e] ?? m;
  });
}

/** DrawingML text: runs `<a:t>` joined, a line per paragraph `<a:p>`. */
function drawingText(xml: string): string {
  return xml
    .split(/<\/a:p>/)
    .map((p) => [...p.matchAll(/<a:t(?:\s[^>]*)?>([^<]*)<\/a:t>/g)].map((m) => unescapeXml(m[1]!)).join(""))
    .filter((l) => l.trim())
    .join("\n");
}

async function readPptx(buf: Buffer): Promise<string> {
  const zip = await openZip(buf, "PowerPoint presentation");
  const slideNo = (name: string) => Number(/(\d+)\.xml$/.exec(name)?.[1] ?? 0);
  const slides = Object.keys(zip.files)
    .filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))
    .sort((a, b) => slideNo(a) - slideNo(b));
  if (!slides.length) throw new ExtractError("the presentation has no slides");
  const parts: string[] = [];
  for (const name of slides) {
    const n = slideNo(name);
    const body = drawingText((await zipText(zip, name)) ?? "");
    const notes = drawingText((await zipText(zip, `ppt/notesSlides/notesSlide${n}.xml`)) ?? "");
    parts.push(`# Slide ${n}\n${body}${notes ? `\n\nNotes: ${notes}` : ""}`);
  }
  return parts.join("\n\n");
}

function readHtml(html: string): string {
  return htmlToText(html, {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { ignoreHref: true } },
      { selector: "img", format: "skip" },
    ],
  });
}

async function readEpub(buf: Buffer): Promise<string> {
  const zip = await openZip(buf, "EPUB book");
  const container = await zipText(zip, "META-INF/container.xml");
  const opfPath = container && /full-path="([^"]+)"/.exec(container)?.[1];
  if (!opfPath) throw new ExtractError("the EPUB has no META-INF/container.xml rootfile");
  const opf = await zipText(zip, opfPath);
  if (!opf) throw new ExtractError("the EPUB's package document is missing");
  const base = path.posix.dirname(opfPath);
  const manifest = new Map<string, string>();
  for (const m of opf.matchAll(/<item\b[^>]*>/g)) {
    const id = /\bid="([^"]+)"/.exec(m[0])?.[1];
    const href = /\bhref="([^"]+)"/.exec(m[0])?.[1];
    if (id && href) manifest.set(id, href);
  }
  const parts: string[] = [];
  for (const m of opf.matchAll(/<itemref\b[^>]*\bidref="([^"]+)"/g)) {
    const href = manifest.get(m[1]!);
    if (!href) continue;
    const file = path.posix.normalize(base === "." ? href : `${base}/${decodeURIComponent(href)}`);
    const xhtml = await zipText(zip, file);
    if (xhtml) parts.push(readHtml(xhtml));
  }
  return parts.join("\n\n");
}

/** tesseract.js reads every language from one directory: link both npm packages' files into one. */
async function tessdata(dir: string): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  // Named one by one (not from a template) so the dependency check sees both packages used.
  const packages = {
    eng: require.resolve("@tesseract.js-data/eng/package.json"),
    chi_sim: require.resolve("@tesseract.js-data/chi_sim/package.json"),
  };
  for (const [lang, pkg] of Object.entries(packages)) {
    const target = path.join(dir, `${lang}.traineddata.gz`);
    const source = path.join(path.dirname(pkg), "4.0.0_best_int", `${lang}.traineddata.gz`);
    try {
      await fs.symlink(source, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  return dir;
}

async function readImage(buf: Buffer, tessDir: string): Promise<string> {
  const { createWorker, OEM } = await import("tesseract.js");
  const langPath = await tessdata(tessDir);
  // langPath is a directory, so nothing is fetched; cacheMethod "none" keeps tesseract from writing a copy to cwd.
  const worker = await createWorker(["eng", "chi_sim"], OEM.LSTM_ONLY, {
    langPath,
    cachePath: os.tmpdir(),
    cacheMethod: "none",
    gzip: true,
    errorHandler: () => {},
  });
  try {
    const { data } = await worker.recognize(buf);
    // Tesseract puts spaces between Chinese characters; join them again.
    const text = data.text.replace(
      /(?<=[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]) (?=[\u3400-\u9fff\u3000-\u303f\uff00-\uffef])/g,
      "",
    );
    if (!text.trim()) throw new ExtractError("no text was recognized in the image");
    return text;
  } catch (err) {
    if (err instanceof ExtractError) throw err;
    throw new ExtractError(`the image cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await worker.terminate();
  }
}

/** A batch input file: one JSON object per non-empty line; the first bad line is named. */
function checkBatch(buf: Buffer): string {
  const lines = decodeText(buf).split("\n");
  let requests = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      throw new ExtractError(`line ${i + 1} is not valid JSON`);
    }
    if (typeof v !== "object" || v === null || Array.isArray(v))
      throw new ExtractError(`line ${i + 1} is not a JSON object`);
    requests++;
  }
  if (!requests) throw new ExtractError("the batch file has no requests");
  return `${requests} requests`;
}
