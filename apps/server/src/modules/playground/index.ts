/** What other parts of the server use of modules/playground; anything else in the folder is internal to it. */
export { playgroundKeyId } from "./get-playground-run-bill.ts";
export { playgroundError } from "./playground-error.ts";
