ALTER TABLE "organizations" ADD COLUMN "tier_floor" integer;
--> statement-breakpoint
-- A redeemed voucher code's minimum tier becomes a floor: the tier is the higher of the floor and the tier earned
-- by cumulative recharge. Each organization's floor is the highest minimum tier among the codes it redeemed.
UPDATE "organizations" o SET "tier_floor" = rc."min_tier"
FROM (
	SELECT "redeemed_by_org" AS "org_id", max("min_tier") AS "min_tier"
	FROM "redemption_codes"
	WHERE "redeemed_by_org" IS NOT NULL AND "min_tier" IS NOT NULL
	GROUP BY 1
) rc
WHERE o."id" = rc."org_id";
--> statement-breakpoint
-- Until now a redemption raised the tier by writing "tier_override", the operator's column, so the column holds
-- both. The source can be told apart: a redemption wrote it when it equals the minimum tier of a code the
-- organization redeemed and no operator set the tier at or after that redemption (operator_actions
-- "org.set_limits" from the back office, "org.set_tier" from the CLI's demo-key). Those overrides are cleared (the
-- floor above keeps their meaning, and later recharges count again); every other override is an operator's and
-- stays.
UPDATE "organizations" o SET "tier_override" = NULL
WHERE o."tier_override" IS NOT NULL
	AND EXISTS (
		SELECT 1 FROM "redemption_codes" rc
		WHERE rc."redeemed_by_org" = o."id"
			AND rc."min_tier" = o."tier_override"
			AND NOT EXISTS (
				SELECT 1 FROM "operator_actions" a
				WHERE a."target" = o."id"
					AND a."action" IN ('org.set_limits', 'org.set_tier')
					AND a."created_at" >= rc."redeemed_at"
			)
	);
