// expect: server-leaves
import "../modules/billing/index.ts";
