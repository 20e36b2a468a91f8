ALTER TABLE "request_bills" DROP CONSTRAINT "request_bills_pkey";--> statement-breakpoint
ALTER TABLE "request_bills" ADD COLUMN "id" text PRIMARY KEY NOT NULL;--> statement-breakpoint
ALTER TABLE "request_bills" ADD COLUMN "tool_calls" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "request_bills_request_idx" ON "request_bills" USING btree ("request_id");
