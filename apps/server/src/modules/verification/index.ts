/** What other parts of the server use of modules/verification; anything else in the folder is internal to it. */
export { decideVerification, listPendingVerifications } from "./decide-verification.ts";
