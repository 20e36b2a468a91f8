/** What other parts of the server use of modules/admin; anything else in the folder is internal to it. */
export { recordOperatorAction } from "./record-operator-action.ts";
