/** What other parts of the server use of modules/bills; anything else in the folder is internal to it. */
export { dayGroups, pad2 } from "./bill-days.ts";
export { EXPORT_JOB } from "./exports.ts";
export { finalizeBillDays } from "./finalize-bill-days.ts";
export { runBillExport } from "./run-bill-export.ts";
export { summarizeBillRanges } from "./summarize-bill-ranges.ts";
