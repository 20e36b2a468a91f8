-- Project names become unique per organization in any letter case (archived projects included). Rows that already
-- clash keep their data; all but the oldest of each clash (the default project first) get a suffix from their id.
UPDATE "projects" AS p
SET "name" = left(p."name", 13) || '-' || right(p."id", 6)
FROM (
  SELECT "id", row_number() OVER (
    PARTITION BY "org_id", lower("name") ORDER BY "is_default" DESC, "created_at", "id"
  ) AS rn
  FROM "projects"
) AS d
WHERE p."id" = d."id" AND d.rn > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "projects_org_name_lower_uq" ON "projects" USING btree ("org_id",lower("name"));
