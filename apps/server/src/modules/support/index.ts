/** What other parts of the server use of modules/support; anything else in the folder is internal to it. */
export { toFeedbackItem } from "./list-feedback.ts";
