import { schema } from "@moonport/db";
import { and, asc, eq, sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import { convert as htmlToText } from "html-to-text";
import { AppError } from "../../../lib/app-error.ts";
import { OutboundRefused } from "../../../tools/outbound.ts";
import { runSandboxed } from "../../../tools/run-sandboxed.ts";
import { getFile } from "../../files/index.ts";
import { type Formula, type FormulaCaller, ToolFailure } from "./formula.ts";

/** What the fetch tool gives the model at most (characters of text); pages are cut, with a note saying so. */
const FETCH_MAX_CHARS = 20_000;
const FETCH_MAX_BYTES = 2 * 1024 * 1024;

export const fetchFormula: Formula = {
  uri: "moonshot/fetch:latest",
  functions: [
    {
      name: "fetch",
      description:
        "Fetch a public web page or document by URL (http or https) and return its text (HTML converted to plain text). Private, local and metadata addresses are refused.",
      parameters: {
        type: "object",
        properties: { url: { type: "string", description: "The URL to fetch.", maxLength: 2048 } },
        required: ["url"],
      },
    },
  ],
  async run(_name, args, caller) {
    let res: Awaited<ReturnType<typeof caller.ctx.outbound.request>>;
    try {
      res = await caller.ctx.outbound.request(args.url as string, {
        headers: { accept: "text/html,text/plain,application/json;q=0.9,*/*;q=0.5", "user-agent": "MoonportFetch/1.0" },
        maxBytes: FETCH_MAX_BYTES,
        timeoutMs: 15_000,
      });
    } catch (e) {
      if (e instanceof OutboundRefused) throw new ToolFailure(`refused: ${e.reason}`);
      throw new ToolFailure(`could not fetch the URL: ${e instanceof Error ? e.message : String(e)}`);
    }
    const type = res.contentType.toLowerCase();
    if (!/^(text\/|application\/(json|xml|xhtml\+xml|javascript))/.test(type) && type !== "") {
      throw new ToolFailure(`the URL returned ${type.split(";")[0]}, not text`);
    }
    const raw = res.body.toString("utf8");
    let text = /html/.test(type)
      ? htmlToText(raw, { wordwrap: false, selectors: [{ selector: "img", format: "skip" }] })
      : raw;
    let cut = res.truncated;
    if (text.length > FETCH_MAX_CHARS) {
      text = text.slice(0, FETCH_MAX_CHARS);
      cut = true;
    }
    return `URL: ${res.url}\nStatus: ${res.status}\n\n${text}${cut ? "\n\n[content truncated]" : ""}`;
  },
};

export const webSearchFormula: Formula = {
  uri: "moonshot/web-search:latest",
  billed: true,
  functions: [
    {
      name: "web_search",
      description: "Search the web and return the most relevant results (title, URL, snippet). Billed per call.",
      parameters: {
        type: "object",
        properties: {
          query: { type: "string", minLength: 1, maxLength: 500, description: "What to search for." },
          limit: { type: "integer", minimum: 1, maximum: 10, description: "How many results. Default 5." },
        },
        required: ["query"],
      },
    },
  ],
  async run(_name, args, caller) {
    const signal = caller.signal ?? AbortSignal.timeout(15_000);
    try {
      const results = await caller.ctx.engines.webSearch.search(args.query as string, {
        signal,
        limit: (args.limit as number | undefined) ?? 5,
      });
      return JSON.stringify({ query: args.query, results });
    } catch (e) {
      throw new ToolFailure(`the search failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  },
};

const MEMORY_KEYS_MAX = 200;

export const memoryFormula: Formula = {
  uri: "moonshot/memory:latest",
  functions: [
    {
      name: "memory",
      description:
        "Long-term notes of this project: store a value under a key, retrieve or delete it, or list the keys. Notes persist across conversations.",
      parameters: {
        type: "object",
        properties: {
          action: { type: "string", enum: ["store", "retrieve", "delete", "list"] },
          key: { type: "string", minLength: 1, maxLength: 128 },
          value: { type: "string", maxLength: 10_000 },
        },
        required: ["action"],
      },
    },
  ],
  async run(_name, args, caller) {
    const t = schema.toolMemories;
    const db = caller.ctx.db;
    const scope = and(eq(t.orgId, caller.orgId), eq(t.projectId, caller.projectId));
    const action = args.action as string;
    if (action === "list") {
      const rows = await db.select({ key: t.key }).from(t).where(scope).orderBy(asc(t.key));
      return JSON.stringify({ keys: rows.map((r) => r.key) });
    }
    const key = args.key as string | undefined;
    if (!key) throw new ToolFailure(`"key" is required to ${action}`);
    if (action === "retrieve") {
      const [row] = await db
        .select()
        .from(t)
        .where(and(scope, eq(t.key, key)));
      return JSON.stringify(
        row ? { key, value: row.value, updated_at: row.updatedAt.toISOString() } : { key, found: false },
      );
    }
    if (action === "delete") {
      const gone = await db
        .delete(t)
        .where(and(scope, eq(t.key, key)))
        .returning({ key: t.key });
      return JSON.stringify({ key, deleted: gone.length > 0 });
    }
    if (typeof args.value !== "string") throw new ToolFailure('"value" is required to store');
    const [n] = await db.select({ n: sql<number>`count(*)::int` }).from(t).where(scope);
    const [exists] = await db
      .select({ key: t.key })
      .from(t)
      .where(and(scope, eq(t.key, key)));
    if (!exists && (n?.n ?? 0) >= MEMORY_KEYS_MAX) {
      throw new ToolFailure(`the project keeps at most ${MEMORY_KEYS_MAX} notes; delete one first`);
    }
    const now = caller.ctx.clock.now();
    await db
      .insert(t)
      .values({ orgId: caller.orgId, projectId: caller.projectId, key, value: args.value, updatedAt: now })
      .onConflictDoUpdate({ target: [t.orgId, t.projectId, t.key], set: { value: args.value, updatedAt: now } });
    return JSON.stringify({ key, stored: true });
  },
};

const EXCEL_MAX_ROWS = 500;

/** A cell as plain JSON: formulas give their result, dates their ISO form, rich text its text. */
function cellValue(v: ExcelJS.CellValue): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object") {
    if ("result" in v) return cellValue(v.result as ExcelJS.CellValue);
    if ("richText" in v) return v.richText.map((r) => r.text).join("");
    if ("text" in v) return String(v.text);
    if ("error" in v) return String(v.error);
    return JSON.stringify(v);
  }
  return v;
}

export const excelFormula: Formula = {
  uri: "moonshot/excel:latest",
  functions: [
    {
      name: "read_excel",
      description:
        "Read a spreadsheet (.xlsx or .csv) the user uploaded through the Files API: the sheet names and the rows of one sheet as arrays of cell values.",
      parameters: {
        type: "object",
        properties: {
          file_id: { type: "string", minLength: 1, maxLength: 64, description: "The id of an uploaded file." },
          sheet: { type: "string", description: "Sheet name; the first sheet when absent." },
          max_rows: { type: "integer", minimum: 1, maximum: EXCEL_MAX_ROWS, description: "Default 100." },
        },
        required: ["file_id"],
      },
    },
  ],
  async run(_name, args, caller) {
    let file: Awaited<ReturnType<typeof getFile>>;
    try {
      file = await getFile(caller.ctx, caller.orgId, args.file_id as string);
    } catch (e) {
      if (e instanceof AppError) throw new ToolFailure(`no file ${String(args.file_id)} in this organization`);
      throw e;
    }
    const name = file.filename.toLowerCase();
    const csv = name.endsWith(".csv");
    if (!csv && !name.endsWith(".xlsx")) throw new ToolFailure(`${file.filename} is not an .xlsx or .csv file`);
    const workbook = new ExcelJS.Workbook();
    try {
      await caller.ctx.files.store.withLocalCopy(file.blobKey, async (path) => {
        if (csv) await workbook.csv.readFile(path);
        else await workbook.xlsx.readFile(path);
      });
    } catch {
      throw new ToolFailure(`${file.filename} could not be read as a spreadsheet`);
    }
    const sheets = workbook.worksheets.map((w) => w.name);
    const sheet = args.sheet ? workbook.getWorksheet(args.sheet as string) : workbook.worksheets[0];
    if (!sheet) throw new ToolFailure(`no sheet "${String(args.sheet)}"; the sheets are ${sheets.join(", ")}`);
    const limit = (args.max_rows as number | undefined) ?? 100;
    const rows: (string | number | boolean | null)[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      if (rows.length >= limit) return;
      const values = (row.values as ExcelJS.CellValue[]).slice(1);
      rows.push(values.map(cellValue));
    });
    return JSON.stringify({ file: file.filename, sheets, sheet: sheet.name, total_rows: sheet.actualRowCount, rows });
  },
};

async function runScript(code: string, caller: FormulaCaller): Promise<string> {
  // Through the same per-organization scheduler as function tools; a refusal is a reason the model can relay.
  const r = await runSandboxed({ ctx: caller.ctx, owner: { orgId: caller.orgId }, code, input: "{}", mode: "script" });
  if (!r.ok) throw new ToolFailure(r.reason);
  return r.output;
}

export const quickjsFormula: Formula = {
  uri: "moonshot/quickjs:latest",
  functions: [
    {
      name: "quickjs",
      description:
        "Run JavaScript (ES2023) in a QuickJS sandbox without network or file access and return the value of the last expression and what console.log printed. Use it for calculations and data processing.",
      parameters: {
        type: "object",
        properties: { code: { type: "string", minLength: 1, maxLength: 20_000 } },
        required: ["code"],
      },
    },
  ],
  run: async (_name, args, caller) => runScript(args.code as string, caller),
};

export const codeRunnerFormula: Formula = {
  uri: "moonshot/code_runner:latest",
  functions: [
    {
      name: "code_runner",
      description:
        "Run a program and return its console output and final value. Supported language: javascript (QuickJS sandbox: no network, no file system, 2 s and 16 MB limits).",
      parameters: {
        type: "object",
        properties: {
          language: { type: "string", enum: ["javascript"] },
          code: { type: "string", minLength: 1, maxLength: 20_000 },
        },
        required: ["code"],
      },
    },
  ],
  run: async (_name, args, caller) => runScript(args.code as string, caller),
};
