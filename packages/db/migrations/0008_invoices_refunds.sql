CREATE TABLE "invoice_infos" (
	"org_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"tax_id" text,
	"street" text NOT NULL,
	"address_line1" text,
	"address_line2" text,
	"city" text NOT NULL,
	"state" text,
	"postal_code" text NOT NULL,
	"country_code" text NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_payments" (
	"invoice_id" text NOT NULL,
	"payment_id" text NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "invoice_payments_invoice_id_payment_id_pk" PRIMARY KEY("invoice_id","payment_id")
);
--> statement-breakpoint
CREATE TABLE "invoice_titles" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"title_type" text NOT NULL,
	"title" text NOT NULL,
	"uscc" text,
	"bank_name" text,
	"bank_account" text,
	"company_address" text,
	"company_phone" text,
	"status" text DEFAULT 'normal' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"title_id" text,
	"method" text NOT NULL,
	"title_type" text NOT NULL,
	"invoice_type" text NOT NULL,
	"title" text NOT NULL,
	"uscc" text,
	"bank_name" text,
	"bank_account" text,
	"company_address" text,
	"company_phone" text,
	"email" text NOT NULL,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"net" bigint NOT NULL,
	"tax" bigint NOT NULL,
	"tax_rate_bp" integer NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"invoice_no" text,
	"fail_reason" text,
	"pdf_key" text,
	"red_invoice_no" text,
	"locale" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"issued_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "order_invoices" (
	"payment_id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"invoice_no" text NOT NULL,
	"bill_to" jsonb NOT NULL,
	"net" bigint NOT NULL,
	"tax" bigint NOT NULL,
	"tax_rate_bp" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_invoices_invoice_no_unique" UNIQUE("invoice_no")
);
--> statement-breakpoint
CREATE TABLE "red_letter_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"org_id" text NOT NULL,
	"initiator" text NOT NULL,
	"state" text NOT NULL,
	"reason" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"payment_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"reason" text,
	"reject_reason" text,
	"failure_reason" text,
	"provider_ref" text,
	"transfer_reference" text,
	"requested_by" text NOT NULL,
	"email" text NOT NULL,
	"locale" text NOT NULL,
	"decided_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "invoiced_amount" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_amount" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_infos" ADD CONSTRAINT "invoice_infos_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_titles" ADD CONSTRAINT "invoice_titles_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_invoices" ADD CONSTRAINT "order_invoices_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "red_letter_requests" ADD CONSTRAINT "red_letter_requests_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_payments_payment_idx" ON "invoice_payments" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "invoice_titles_org_idx" ON "invoice_titles" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "invoices_org_time_idx" ON "invoices" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "invoices_status_time_idx" ON "invoices" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_invoice_no_uq" ON "invoices" USING btree ("invoice_no");--> statement-breakpoint
CREATE INDEX "red_letter_requests_invoice_idx" ON "red_letter_requests" USING btree ("invoice_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "red_letter_requests_open_uq" ON "red_letter_requests" USING btree ("invoice_id") WHERE state in ('01', '02', '03', '04');--> statement-breakpoint
CREATE INDEX "red_letter_requests_expiry_idx" ON "red_letter_requests" USING btree ("expires_at") WHERE state in ('02', '03');--> statement-breakpoint
CREATE INDEX "refunds_org_time_idx" ON "refunds" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "refunds_payment_idx" ON "refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "refunds_open_idx" ON "refunds" USING btree ("status","created_at") WHERE status in ('requested', 'refunding', 'failed');