import type { Db } from "@moonport/db";
import type { AppContext } from "../context.ts";
import type { Config } from "../env.ts";
import { createOperatorCommand } from "./create-operator.ts";
import { demoKeyCommand } from "./demo-key.ts";
import {
  completeRedLetterCommand,
  confirmRedLetterCommand,
  denyRedLetterCommand,
  failInvoiceCommand,
  importInvoiceCommand,
  invoiceQueueCommand,
  issueInvoiceCommand,
  startRedLetterCommand,
  withdrawRedLetterCommand,
} from "./invoices.ts";
import { listOrgsCommand, listUsersCommand } from "./list.ts";
import { confirmPaymentCommand, voucherCodesCommand } from "./payments.ts";
import { approveRefundCommand, refundQueueCommand, rejectRefundCommand } from "./refunds.ts";
import { riddlesCommand } from "./riddles.ts";
import { setOrgLimitsCommand } from "./set-org-limits.ts";
import { approveVerificationCommand, rejectVerificationCommand, verificationQueueCommand } from "./verification.ts";

export interface CliCommand {
  name: string;
  summary: string;
  run(opts: {
    config: Config;
    db: Db;
    /**
     * What the billing core needs to tell running gateways about a change (through Redis or the PostgreSQL
     * version counter; with PGlite no server can run alongside the CLI).
     */
    services: Pick<AppContext, "db" | "keyEvents" | "log">;
    args: string[];
    print: (line: string) => void;
    /** All of standard input (e.g. a password piped in). */
    readInput: () => Promise<string>;
  }): Promise<number>;
}

export const commands: CliCommand[] = [
  createOperatorCommand,
  listUsersCommand,
  listOrgsCommand,
  demoKeyCommand,
  setOrgLimitsCommand,
  confirmPaymentCommand,
  voucherCodesCommand,
  riddlesCommand,
  verificationQueueCommand,
  approveVerificationCommand,
  rejectVerificationCommand,
  invoiceQueueCommand,
  issueInvoiceCommand,
  failInvoiceCommand,
  startRedLetterCommand,
  confirmRedLetterCommand,
  denyRedLetterCommand,
  withdrawRedLetterCommand,
  completeRedLetterCommand,
  importInvoiceCommand,
  refundQueueCommand,
  approveRefundCommand,
  rejectRefundCommand,
];
