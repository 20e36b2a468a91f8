// expect: money-tables-via-billing
import "@moonport/db/money-schema";
