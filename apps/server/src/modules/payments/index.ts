/** What other parts of the server use of modules/payments; anything else in the folder is internal to it. */
export { describePaymentMethods } from "./payment-methods.ts";
export { providerNamed } from "./providers/index.ts";
export type { RefundOutcome } from "./providers/provider.ts";
export { receiveNotification } from "./receive-notification.ts";
export { NOTIFY_JOB, SANDBOX, SIGNATURE_HEADER } from "./sandbox-psp.ts";
export { loadSandboxSecret } from "./sandbox-secret.ts";
