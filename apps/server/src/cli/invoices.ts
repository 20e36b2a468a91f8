/**
 * The operator's invoice queue on the command line (the back office's Queues → Invoices does the same):
 * `invoice-queue`, `issue-invoice <id> <invoice-number>`, `fail-invoice <id> --reason "…"`, the seller's
 * red-letter moves `red-letter-start|confirm|deny|withdraw|complete`, and `import-invoice` for one issued outside. Issuing renders the
 * PDF into the same store as the server (DATA_DIR/exports, or the S3 bucket) and queues its e-mail as a job, which
 * the server sends once it runs.
 */

import path from "node:path";
import {
  formatMoney,
  ImportInvoiceRequest,
  IssueInvoiceRequest,
  RED_LETTER_STATE_TEXT,
  type RedLetterState,
  translateValidation,
} from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../context.ts";
import { createJobRunner } from "../jobs/runner.ts";
import { AppError } from "../lib/app-error.ts";
import { localFileStorage, objectFileStorage } from "../lib/file-storage.ts";
import { createFileStore } from "../modules/files/index.ts";
import {
  answerRedLetter,
  completeRedLetter,
  failInvoice,
  type IssueContext,
  importInvoice,
  issueInvoice,
  listInvoiceQueue,
  startRedLetter,
  withdrawRedLetter,
} from "../modules/invoices/index.ts";
import type { CliCommand } from "./command.ts";
import { decisionCommand, printRefusal } from "./decision-command.ts";

function issueContext(opts: Parameters<CliCommand["run"]>[0]): IssueContext {
  const { config, services } = opts;
  const scratch = path.join(config.dataDir, "exports");
  const store = createFileStore(config.files);
  const base = {
    db: services.db,
    log: services.log,
    config,
    clock: { now: () => new Date() },
    exportFiles: store.kind === "s3" ? objectFileStorage(store, scratch) : localFileStorage(scratch),
  };
  // Only `enqueue` is used: the e-mail job is a row the server's runner picks up.
  return { ...base, jobs: createJobRunner(base as AppContext) };
}

export const invoiceQueueCommand: CliCommand = {
  name: "invoice-queue",
  summary: "List invoice applications waiting to be issued, oldest first",
  async run({ db, print }) {
    const { items } = await listInvoiceQueue({ ctx: { db }, queue: "waiting" });
    if (!items.length) {
      print("No invoice applications are waiting.");
      return 0;
    }
    for (const i of items) {
      print(
        `${i.id}  ${i.invoiceType} ${i.method}  ${formatMoney(BigInt(i.amount), i.currency, 2)} (net ${formatMoney(BigInt(i.net), i.currency, 2)}, tax ${formatMoney(BigInt(i.tax), i.currency, 2)})  org ${i.orgId} (${i.orgName})  applied ${i.createdAt}`,
      );
      print(`    title: ${i.title} (${i.titleType})${i.uscc ? `  USCC ${i.uscc}` : ""}  e-mail ${i.email}`);
      if (i.invoiceType === "special") {
        print(`    bank: ${i.bankName} ${i.bankAccount}  address: ${i.companyAddress}  phone: ${i.companyPhone}`);
      }
    }
    return 0;
  },
};

/**
 * The tax system's number of an issued or red-letter invoice: required for cn (the domain refuses without it), left
 * out for global (the platform numbers the tax invoice or credit note). null: given but malformed (usage).
 */
function invoiceNumber(rest: string[]): { invoiceNo?: string } | null {
  const parsed = IssueInvoiceRequest.safeParse({ invoiceNo: rest[0] });
  return parsed.success ? parsed.data : null;
}

const NUMBER = "[<invoice-number (8–32 letters, digits, -); cn only>]";

export const issueInvoiceCommand = decisionCommand({
  name: "issue-invoice",
  usage: `<invoice-id> ${NUMBER}`,
  noun: "invoice",
  summary: "Issue a waiting invoice with the number the tax system gave it (the PDF is e-mailed by the server)",
  async decide(opts, { id, rest }) {
    const number = invoiceNumber(rest);
    if (!number) return null;
    const row = await issueInvoice({
      ctx: issueContext(opts),
      invoiceId: id,
      invoiceNo: number.invoiceNo,
      operator: "cli",
    });
    return `Issued ${id} as ${row.invoiceNo}; the PDF goes to ${row.email} when the server runs its jobs.`;
  },
});

export const failInvoiceCommand = decisionCommand({
  name: "fail-invoice",
  usage: '<invoice-id> --reason "<why, shown to the applicant>"',
  noun: "invoice",
  reasonRequired: true,
  summary: "Fail a waiting invoice with a reason the applicant sees (its amount can be invoiced again)",
  async decide(opts, { id, reason }) {
    await failInvoice({ ctx: issueContext(opts), invoiceId: id, reason: reason!, operator: "cli" });
    return `Failed ${id}: ${reason}`;
  },
});

/**
 * The seller's side of red-letter voiding (§4 states 01–09; red-letter.ts), as the back office's invoice queue
 * does it: start (01 for a personal title, else 02 awaiting the buyer), confirm / deny the buyer's 03, withdraw
 * the platform's own request, and complete a round in 01 or 04 with the red-letter invoice's number.
 */
const seller = { side: "seller" as const, operator: "cli" };
const meaning = (state: RedLetterState) => RED_LETTER_STATE_TEXT[state]["en-US"];

export const startRedLetterCommand = decisionCommand({
  name: "red-letter-start",
  usage: '<invoice-id> --reason "<why, shown to the buyer>"',
  noun: "invoice",
  reasonRequired: true,
  summary: "Start voiding an issued invoice by red letter (01 for a personal title, else 02: the buyer confirms)",
  async decide(opts, { id, reason }) {
    const state = await startRedLetter({ ctx: issueContext(opts), invoiceId: id, actor: seller, reason: reason! });
    return `Red letter for ${id}: ${meaning(state)}`;
  },
});

function answerCommand(answer: "confirm" | "deny") {
  return decisionCommand({
    name: `red-letter-${answer}`,
    usage: "<invoice-id>",
    noun: "invoice",
    summary: `${answer === "confirm" ? "Confirm" : "Deny"} the buyer's red-letter request (state 03)`,
    async decide(opts, { id }) {
      const state = await answerRedLetter({ ctx: issueContext(opts), invoiceId: id, actor: seller, answer });
      return `Red letter for ${id}: ${meaning(state)}`;
    },
  });
}
export const confirmRedLetterCommand = answerCommand("confirm");
export const denyRedLetterCommand = answerCommand("deny");

export const withdrawRedLetterCommand = decisionCommand({
  name: "red-letter-withdraw",
  usage: "<invoice-id>",
  noun: "invoice",
  summary: "Withdraw the platform's own red-letter request (08, or 09 after both confirmed)",
  async decide(opts, { id }) {
    const state = await withdrawRedLetter({ ctx: issueContext(opts), invoiceId: id, actor: seller });
    return `Red letter for ${id}: ${meaning(state)} The invoice stands.`;
  },
});

export const completeRedLetterCommand = decisionCommand({
  name: "red-letter-complete",
  usage: "<invoice-id> [<red-letter invoice number (8–32 letters, digits, -); cn only>]",
  noun: "invoice",
  summary:
    "Complete a red-letter voiding in state 01 or 04 with the red-letter invoice's number (global: a credit note)",
  async decide(opts, { id, rest }) {
    const number = invoiceNumber(rest);
    if (!number) return null;
    await completeRedLetter({
      ctx: issueContext(opts),
      invoiceId: id,
      redInvoiceNo: number.invoiceNo,
      operator: "cli",
    });
    const [row] = await opts.db
      .select({ redInvoiceNo: schema.invoices.redInvoiceNo })
      .from(schema.invoices)
      .where(eq(schema.invoices.id, id));
    return `Voided ${id} by ${row?.redInvoiceNo}; its amount can be invoiced again or refunded (the PDF is e-mailed by the server).`;
  },
});

/** `--name value` options (repeatable ones collected), for import-invoice. */
function readOptions(args: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith("--")) continue;
    const value = args[i + 1] !== undefined && !args[i + 1]!.startsWith("--") ? args[++i]! : "";
    out.set(a.slice(2), [...(out.get(a.slice(2)) ?? []), value]);
  }
  return out;
}

/**
 * Records an invoice issued outside the platform over an organization's paid recharges (status `imported`; the
 * back office's Queues → Invoices → Import does the same): its amounts are held on the payments like an
 * application's.
 */
export const importInvoiceCommand: CliCommand = {
  name: "import-invoice",
  summary: "Record an invoice issued outside the platform for an organization's paid recharges (imported)",
  async run({ config, services, args, print }) {
    const [orgId, invoiceNo] = args;
    const o = readOptions(args.slice(2));
    const one = (k: string) => o.get(k)?.[0];
    const parsed = ImportInvoiceRequest.safeParse({
      orgId: orgId?.startsWith("--") ? undefined : orgId,
      invoiceNo,
      title: one("title"),
      issuedOn: one("date"),
      titleType: one("title-type"),
      invoiceType: one("type"),
      method: one("method"),
      items: (o.get("payment") ?? []).map((p) => {
        const [paymentId, amount] = p.split("=");
        return { paymentId, amount };
      }),
    });
    if (!parsed.success) {
      print(
        'Usage: npm run moonport -- import-invoice <org-id> <invoice-number> --title "<buyer\'s title>" --date YYYY-MM-DD --payment <payment-id>=<amount> [--payment …] [--title-type personal|company] [--type general|special] [--method electronic|paper]',
      );
      for (const i of parsed.error.issues) print(`    ${i.path.join(".")}: ${translateValidation(i.message, "en-US")}`);
      return 2;
    }
    try {
      const row = await importInvoice({
        ctx: { ...services, config, clock: { now: () => new Date() } },
        body: parsed.data,
        operator: "cli",
      });
      print(
        `Imported ${row.invoiceNo} as ${row.id}: ${formatMoney(row.amount, row.currency, 2)} for org ${row.orgId}, held on ${parsed.data.items.length} payment(s).`,
      );
      return 0;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === "not_found") print(`No organization ${JSON.stringify(parsed.data.orgId)}.`);
      else printRefusal(print, err, "Nothing was recorded.");
      return 1;
    }
  },
};
