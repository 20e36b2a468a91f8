CREATE TABLE "org_verifications" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"details" jsonb NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"reject_reason" text,
	"created_by" text NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "org_verifications" ADD CONSTRAINT "org_verifications_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "org_verifications_org_idx" ON "org_verifications" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "org_verifications_pending_uq" ON "org_verifications" USING btree ("org_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "org_verifications_pending_idx" ON "org_verifications" USING btree ("created_at") WHERE status = 'pending';