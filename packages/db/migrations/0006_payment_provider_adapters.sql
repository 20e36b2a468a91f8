ALTER TABLE "payment_cards" ADD COLUMN "provider_customer" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "provider_checkout" text;