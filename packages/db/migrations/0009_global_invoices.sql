ALTER TABLE "invoices" ADD COLUMN "bill_to" jsonb;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "void_pdf_key" text;