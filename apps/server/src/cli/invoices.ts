/**
 * The operator's invoice queue on the command line (the back office's Queues → Invoices does the same):
 * `invoice-queue`, `issue-invoice <id> <invoice-number>`, `fail-invoice <id> --reason "…"`. Issuing renders the
 * PDF into the same store as the server (DATA_DIR/exports, or the S3 bucket) and queues its e-mail as a job, which
 * the server sends once it runs.
 */

import path from "node:path";
import { formatMoney, IssueInvoiceRequest } from "@moonport/contracts";
import type { AppContext } from "../context.ts";
import { createJobRunner } from "../jobs/runner.ts";
import { AppError } from "../lib/app-error.ts";
import { localFileStorage, objectFileStorage } from "../lib/file-storage.ts";
import { createFileStore } from "../modules/files/store/index.ts";
import { failInvoice, type IssueContext, issueInvoice } from "../modules/invoices/issue-invoice.ts";
import { listInvoiceQueue } from "../modules/invoices/list-invoices.ts";
import { readDecisionArgs } from "./args.ts";
import type { CliCommand } from "./commands.ts";

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

function refusal(print: (l: string) => void, id: string, err: unknown): number {
  if (err instanceof AppError && err.code === "not_found") print(`No invoice ${JSON.stringify(id)}.`);
  else if (err instanceof AppError && (err.code === "invoice_state" || err.code === "invoice_no_taken")) {
    print(
      `Refused: ${err.code === "invoice_no_taken" ? "that invoice number is already used" : `the invoice is ${err.params.status}`}; nothing changed.`,
    );
  } else throw err;
  return 1;
}

export const issueInvoiceCommand: CliCommand = {
  name: "issue-invoice",
  summary: "Issue a waiting invoice with the number the tax system gave it (the PDF is e-mailed by the server)",
  async run(opts) {
    const [id, number] = opts.args;
    const parsed = IssueInvoiceRequest.safeParse({ invoiceNo: number ?? "" });
    if (!id || !parsed.success) {
      opts.print("Usage: npm run moonport -- issue-invoice <invoice-id> <invoice-number (8–32 letters, digits, -)>");
      return 2;
    }
    try {
      const row = await issueInvoice({
        ctx: issueContext(opts),
        invoiceId: id,
        invoiceNo: parsed.data.invoiceNo,
        operator: "cli",
      });
      opts.print(`Issued ${id} as ${row.invoiceNo}; the PDF goes to ${row.email} when the server runs its jobs.`);
      return 0;
    } catch (err) {
      return refusal(opts.print, id, err);
    }
  },
};

export const failInvoiceCommand: CliCommand = {
  name: "fail-invoice",
  summary: "Fail a waiting invoice with a reason the applicant sees (its amount can be invoiced again)",
  async run(opts) {
    const parsed = readDecisionArgs(opts.args, true);
    if (!parsed?.reason) {
      opts.print('Usage: npm run moonport -- fail-invoice <invoice-id> --reason "<why, shown to the applicant>"');
      return 2;
    }
    const { id, reason } = parsed;
    try {
      await failInvoice({ ctx: issueContext(opts), invoiceId: id, reason, operator: "cli" });
      opts.print(`Failed ${id}: ${reason}`);
      return 0;
    } catch (err) {
      return refusal(opts.print, id, err);
    }
  },
};
