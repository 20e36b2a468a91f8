CREATE TABLE "context_cache_tags" (
	"org_id" text NOT NULL,
	"tag" text NOT NULL,
	"cache_id" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "context_cache_tags_org_id_tag_pk" PRIMARY KEY("org_id","tag")
);
--> statement-breakpoint
CREATE TABLE "context_caches" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"project_id" text NOT NULL,
	"api_key_id" text NOT NULL,
	"model" text NOT NULL,
	"name" text,
	"description" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"messages" jsonb NOT NULL,
	"tools" jsonb,
	"content_hash" text NOT NULL,
	"tokens" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" jsonb,
	"expired_at" timestamp with time zone NOT NULL,
	"ready_at" timestamp with time zone,
	"storage_minutes_billed" integer DEFAULT 0 NOT NULL,
	"creation_billed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "request_bills_org_time_idx";--> statement-breakpoint
ALTER TABLE "payment_cards" ADD COLUMN "provider_customer" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "provider_checkout" text;--> statement-breakpoint
ALTER TABLE "request_bills" ADD COLUMN "context_cache_id" text;--> statement-breakpoint
ALTER TABLE "context_cache_tags" ADD CONSTRAINT "context_cache_tags_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "context_cache_tags" ADD CONSTRAINT "context_cache_tags_cache_id_context_caches_id_fk" FOREIGN KEY ("cache_id") REFERENCES "public"."context_caches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "context_caches" ADD CONSTRAINT "context_caches_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "context_caches_org_created_idx" ON "context_caches" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "context_caches_status_idx" ON "context_caches" USING btree ("status");--> statement-breakpoint
CREATE INDEX "request_bills_context_cache_idx" ON "request_bills" USING btree ("context_cache_id") WHERE context_cache_id is not null;--> statement-breakpoint
CREATE INDEX "request_bills_org_time_idx" ON "request_bills" USING btree ("org_id","created_at","id");