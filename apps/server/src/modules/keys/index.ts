/** What other parts of the server use of modules/keys; anything else in the folder is internal to it. */
export { createApiKey } from "./create-api-key.ts";
export { disableApiKeys } from "./disable-api-keys.ts";
export { API_KEY_PATTERN, hashApiKey } from "./key-format.ts";
