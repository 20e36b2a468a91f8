/** What other parts of the server use of modules/usage; anything else in the folder is internal to it. */
export { spendBy, spendSeries, sumSpend } from "./bill-queries.ts";
