/**
 * Which parser reads a file: by its leading bytes where formats have a signature (PDF, ZIP-based office files,
 * images), then by its name. A `.docx` that is not a ZIP archive is reported as such instead of crashing a parser.
 */
export type FileKind =
  | "pdf"
  | "docx"
  | "xlsx"
  | "pptx"
  | "epub"
  | "html"
  | "text"
  | "image"
  | "legacy-office"
  | "unknown";

const TEXT_EXTENSIONS = new Set(
  (
    "txt md markdown csv tsv json jsonl ndjson log xml yaml yml ini conf cfg toml env properties " +
    "go h hpp c cpp cxx cc cs java js mjs cjs jsx ts tsx css scss less jsp php py py3 rb rs swift kt kts scala " +
    "sh bash zsh ps1 bat sql r m lua pl dart vue svelte asp aspx graphql proto tex rst adoc srt vtt"
  ).split(" "),
);
const IMAGE_EXTENSIONS = new Set("png jpg jpeg jpe jfif pjp pjpeg bmp dib gif webp tif tiff pbm pgm ppm".split(" "));

export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot < 0 ? "" : filename.slice(dot + 1).toLowerCase();
}

export function isImageName(filename: string): boolean {
  return IMAGE_EXTENSIONS.has(extensionOf(filename));
}

/** Image signatures: PNG, JPEG, GIF, BMP, WebP, TIFF. */
export function looksLikeImage(head: Uint8Array): boolean {
  const b = head;
  const ascii = (from: number, s: string) => [...s].every((c, i) => b[from + i] === c.charCodeAt(0));
  return (
    (b[0] === 0x89 && ascii(1, "PNG")) ||
    (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) ||
    ascii(0, "GIF8") ||
    ascii(0, "BM") ||
    (ascii(0, "RIFF") && ascii(8, "WEBP")) ||
    ascii(0, "II*\0") ||
    ascii(0, "MM\0*")
  );
}

/** Video signatures: ISO media (mp4, mov: `ftyp` at 4), Matroska/WebM, AVI, MPEG program and transport streams. */
export function looksLikeVideo(head: Uint8Array): boolean {
  const b = head;
  const ascii = (from: number, s: string) => [...s].every((c, i) => b[from + i] === c.charCodeAt(0));
  return (
    ascii(4, "ftyp") ||
    (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) ||
    (ascii(0, "RIFF") && ascii(8, "AVI ")) ||
    (b[0] === 0 && b[1] === 0 && b[2] === 1 && b[3] === 0xba) ||
    b[0] === 0x47
  );
}

export function detectKind(filename: string, head: Uint8Array): FileKind {
  const ext = extensionOf(filename);
  const isZip = head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
  const isPdf = head[0] === 0x25 && head[1] === 0x50 && head[2] === 0x44 && head[3] === 0x46; // %PDF
  if (isPdf || ext === "pdf") return "pdf";
  if (looksLikeImage(head) || IMAGE_EXTENSIONS.has(ext)) return "image";
  if (ext === "docx" || ext === "docm" || ext === "dotx") return "docx";
  if (ext === "xlsx" || ext === "xlsm") return "xlsx";
  if (ext === "pptx" || ext === "pptm") return "pptx";
  if (ext === "epub") return "epub";
  if (ext === "doc" || ext === "xls" || ext === "ppt" || ext === "dot") return "legacy-office";
  if (ext === "html" || ext === "htm" || ext === "xhtml") return "html";
  if (TEXT_EXTENSIONS.has(ext)) return "text";
  if (isZip) return "unknown";
  return "text"; // anything else is tried as text; binary content is refused by the text reader
}
