CREATE TABLE "alert_settings" (
	"org_id" text PRIMARY KEY NOT NULL,
	"balance_enabled" boolean DEFAULT false NOT NULL,
	"balance_threshold" bigint DEFAULT 0 NOT NULL,
	"recipients" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"locale" text DEFAULT 'zh-CN' NOT NULL,
	"armed" boolean DEFAULT true NOT NULL,
	"last_sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bill_exports" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"month" text NOT NULL,
	"format" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"file_name" text NOT NULL,
	"storage_key" text,
	"size_bytes" bigint,
	"row_count" bigint,
	"total_consumption" bigint,
	"error" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "bill_states" (
	"org_id" text PRIMARY KEY NOT NULL,
	"closed_through" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "daily_bills" (
	"org_id" text NOT NULL,
	"day" text NOT NULL,
	"project_id" text NOT NULL,
	"model" text NOT NULL,
	"product_name" text NOT NULL,
	"product_type" text NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"cached_tokens" bigint DEFAULT 0 NOT NULL,
	"consumption" bigint DEFAULT 0 NOT NULL,
	"cash_deduction" bigint DEFAULT 0 NOT NULL,
	"voucher_deduction" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_bills_org_id_day_project_id_model_product_name_product_type_pk" PRIMARY KEY("org_id","day","project_id","model","product_name","product_type")
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"project_id" text,
	"uploaded_by" text,
	"api_key_id" text,
	"filename" text NOT NULL,
	"bytes" bigint NOT NULL,
	"purpose" text NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"status_details" text DEFAULT '' NOT NULL,
	"blob_key" text NOT NULL,
	"content_key" text,
	"content_chars" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"to" jsonb NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_actions" (
	"id" text PRIMARY KEY NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"target" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_cards" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"provider" text NOT NULL,
	"token" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"customer" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"payment_id" text NOT NULL,
	"outcome" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"pay_type" text NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"provider_ref" text,
	"transfer_reference" text,
	"card_id" text,
	"failure_reason" text,
	"flag" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"viewed_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "playground_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"org_id" text NOT NULL,
	"project_id" text NOT NULL,
	"title" text NOT NULL,
	"mode" text NOT NULL,
	"state" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_alert_sends" (
	"project_id" text NOT NULL,
	"kind" text NOT NULL,
	"period" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_alert_sends_project_id_kind_period_pk" PRIMARY KEY("project_id","kind","period")
);
--> statement-breakpoint
CREATE TABLE "redemption_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"batch_id" text NOT NULL,
	"edition" text NOT NULL,
	"amount" bigint NOT NULL,
	"voucher_type" text NOT NULL,
	"voucher_days" integer NOT NULL,
	"min_tier" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"redeemed_by_org" text,
	"redeemed_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "request_bills_request_idx";--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_cards" ADD CONSTRAINT "payment_cards_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playground_sessions" ADD CONSTRAINT "playground_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playground_sessions" ADD CONSTRAINT "playground_sessions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bill_exports_org_time_idx" ON "bill_exports" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "files_org_created_idx" ON "files" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_time_idx" ON "mail_outbox" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "operator_actions_time_idx" ON "operator_actions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "payment_cards_org_idx" ON "payment_cards" USING btree ("org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_cards_token_uq" ON "payment_cards" USING btree ("provider","token");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_events_provider_event_uq" ON "payment_events" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "payments_org_time_idx" ON "payments" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_waiting_idx" ON "payments" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_ref_uq" ON "payments" USING btree ("provider","provider_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_transfer_reference_uq" ON "payments" USING btree ("transfer_reference");--> statement-breakpoint
CREATE INDEX "playground_sessions_owner_idx" ON "playground_sessions" USING btree ("user_id","project_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "redemption_codes_hash_uq" ON "redemption_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "redemption_codes_batch_idx" ON "redemption_codes" USING btree ("batch_id");