/** What other parts of the server use of modules/alerts; anything else in the folder is internal to it. */
export { evaluateAlerts } from "./evaluate-alerts.ts";
