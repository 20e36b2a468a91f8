import type { CliCommand } from "./command.ts";
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

// Command files import the interface from command.ts, so that this list of them is not imported back.
export type { CliCommand };

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
