// expect: money-tables-via-billing
import "../../../packages/db/src/money-schema.ts";
