-- Every index of request_bills is written on the gateway's batch commit. The organization's timeline
-- becomes the primary key (it was a separate index beside a primary key on id), and budgets read daily project
-- totals instead of a project index.
CREATE TABLE "project_spend_days" (
	"project_id" text NOT NULL,
	"day" text NOT NULL,
	"consumption" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "project_spend_days_project_id_day_pk" PRIMARY KEY("project_id","day")
);
--> statement-breakpoint
-- The bills so far, per project and local day of their organization's edition (cn: Asia/Shanghai, global: UTC,
-- as EDITION_TIME_ZONE has them when this was written).
INSERT INTO "project_spend_days" ("project_id", "day", "consumption")
SELECT rb."project_id",
	to_char(rb."created_at" AT TIME ZONE (CASE o."edition" WHEN 'cn' THEN 'Asia/Shanghai' ELSE 'UTC' END), 'YYYY-MM-DD'),
	sum(rb."consumption")::bigint
FROM "request_bills" rb JOIN "organizations" o ON o."id" = rb."org_id"
GROUP BY 1, 2;
--> statement-breakpoint
ALTER TABLE "request_bills" DROP CONSTRAINT "request_bills_pkey";--> statement-breakpoint
ALTER TABLE "request_bills" ADD CONSTRAINT "request_bills_pkey" PRIMARY KEY("org_id","created_at","id");--> statement-breakpoint
DROP INDEX "request_bills_org_time_idx";--> statement-breakpoint
DROP INDEX "request_bills_project_time_idx";
