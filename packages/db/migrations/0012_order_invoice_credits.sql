CREATE TABLE "order_invoice_credits" (
	"refund_id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"org_id" text NOT NULL,
	"kind" text NOT NULL,
	"credit_no" text,
	"amount" bigint NOT NULL,
	"net" bigint NOT NULL,
	"tax" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "order_invoice_credits_credit_no_unique" UNIQUE("credit_no")
);
--> statement-breakpoint
ALTER TABLE "order_invoice_credits" ADD CONSTRAINT "order_invoice_credits_payment_id_order_invoices_payment_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."order_invoices"("payment_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_invoice_credits_payment_idx" ON "order_invoice_credits" USING btree ("payment_id");
--> statement-breakpoint
-- Card orders refunded before refunds undid their invoices: a refund of the whole order voids the invoice, a
-- partial one gets its credit note, numbered like new ones (CN-<date of the refund, UTC>-<6 characters of the
-- refund id's hash>), with the GST split of contracts' splitTax (net = gross / (1 + rate) half up to the cent).
INSERT INTO "order_invoice_credits"
	("refund_id", "payment_id", "org_id", "kind", "credit_no", "amount", "net", "tax", "created_at")
SELECT s."refund_id", s."payment_id", s."org_id", s."kind",
	CASE WHEN s."kind" = 'void' THEN NULL
		ELSE 'CN-' || to_char(s."at" AT TIME ZONE 'UTC', 'YYYYMMDD') || '-' || upper(substr(md5(s."refund_id"), 1, 6))
	END,
	s."amount", s."net", s."amount" - s."net", s."at"
FROM (
	SELECT r."id" AS "refund_id", r."payment_id", r."org_id", r."amount",
		coalesce(r."finished_at", now()) AS "at",
		CASE WHEN r."amount" = p."amount" THEN 'void' ELSE 'credit_note' END AS "kind",
		CASE WHEN r."amount" = p."amount" THEN oi."net"
			ELSE ((2 * (r."amount" / 10000000) * 10000 + (10000 + oi."tax_rate_bp"))
				/ (2 * (10000 + oi."tax_rate_bp"))) * 10000000
		END AS "net"
	FROM "refunds" r
	JOIN "payments" p ON p."id" = r."payment_id"
	JOIN "order_invoices" oi ON oi."payment_id" = r."payment_id"
	WHERE r."status" = 'refunded'
) s;
