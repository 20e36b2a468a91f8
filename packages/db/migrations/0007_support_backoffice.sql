CREATE TABLE "feedback" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"user_id" text NOT NULL,
	"type" text NOT NULL,
	"model" text,
	"description" text NOT NULL,
	"contact" text,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"locale" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"replied_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_leads" (
	"id" text PRIMARY KEY NOT NULL,
	"topic" text NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"email" text NOT NULL,
	"company" text NOT NULL,
	"industry" text NOT NULL,
	"stage" text NOT NULL,
	"enterprise_certified" boolean NOT NULL,
	"organization_id" text,
	"tier5" boolean DEFAULT false NOT NULL,
	"expected_tpm" bigint,
	"background" text NOT NULL,
	"problem" text NOT NULL,
	"additional_info" text,
	"locale" text NOT NULL,
	"user_id" text,
	"status" text DEFAULT 'new' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operator_actions" ADD COLUMN "before" jsonb;--> statement-breakpoint
ALTER TABLE "operator_actions" ADD COLUMN "after" jsonb;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "suspend_reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "feedback_org_time_idx" ON "feedback" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "feedback_status_time_idx" ON "feedback" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "sales_leads_status_time_idx" ON "sales_leads" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "request_bills_time_brin" ON "request_bills" USING brin ("created_at");