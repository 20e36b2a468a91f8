// expect: module-entry-via-index
import "../modules/billing/credit.ts";
