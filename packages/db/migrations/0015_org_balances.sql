CREATE TABLE "org_balances" (
	"org_id" text PRIMARY KEY NOT NULL,
	"cash_balance" bigint DEFAULT 0 NOT NULL,
	"cumulative_recharge" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "org_balances" ADD CONSTRAINT "org_balances_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written data copy (keep it between the table's creation and the columns' drop): every existing
-- organization gets its balance row with the cash and cumulative recharge it had, so balances, tiers and the
-- ledger invariant (Σ cash_delta = cash_balance) carry over unchanged.
INSERT INTO "org_balances" ("org_id", "cash_balance", "cumulative_recharge")
SELECT "id", "cash_balance", "cumulative_recharge" FROM "organizations";
--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "cash_balance";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "cumulative_recharge";