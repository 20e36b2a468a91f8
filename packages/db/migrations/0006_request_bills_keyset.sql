DROP INDEX "request_bills_org_time_idx";--> statement-breakpoint
CREATE INDEX "request_bills_org_time_idx" ON "request_bills" USING btree ("org_id","created_at","id");