/** What other parts of the server use of modules/auth; anything else in the folder is internal to it. */
export { rateLimited } from "./limits.ts";
export { createOperator, isOperator, issueSetupToken, operatorExists } from "./operator.ts";
export { createSmsProvider, type SmsProvider } from "./sms/provider.ts";
