/**
 * project_spend_days, the running total of what each project spent per local day of its organization's edition
 * (schema.ts): whoever writes request_bills adds the same amounts here in the same statement or transaction, so
 * budgets read what the bill rows hold. The bill writer is the only writer under traffic.
 */
import { EDITION_TIME_ZONE, type Edition } from "@moonport/contracts";
import { type Db, schema } from "@moonport/db";
import { type SQL, sql } from "drizzle-orm";
import { periodStarts } from "../../lib/edition-time.ts";

/** Amounts summed per project and local day, written as one upsert. */
export class ProjectSpend {
  private readonly sums = new Map<string, { projectId: string; day: string; amount: bigint }>();

  add(projectId: string, createdAt: number, edition: Edition | undefined, amount: bigint) {
    if (amount === 0n) return;
    // Callers know the organization (the bill writer has locked it): a missing edition is a bug, not a default.
    if (!edition) throw new Error(`no edition for the organization of project ${projectId}`);
    const day = periodStarts(createdAt, EDITION_TIME_ZONE[edition]).date;
    const key = `${projectId} ${day}`;
    const sum = this.sums.get(key);
    if (sum) sum.amount += amount;
    else this.sums.set(key, { projectId, day, amount });
  }

  /** The upsert, or nothing when nothing was added (a data-modifying CTE of the bill writer's statement). */
  upsert(): SQL[] {
    if (!this.sums.size) return [];
    const values = sql.join(
      [...this.sums.values()].map((s) => sql`(${s.projectId}, ${s.day}, ${s.amount.toString()}::bigint)`),
      sql`, `,
    );
    return [
      sql`insert into ${schema.projectSpendDays} (project_id, day, consumption) values ${values}
        on conflict (project_id, day) do update set consumption = ${schema.projectSpendDays.consumption} + excluded.consumption`,
    ];
  }
}

/**
 * Bill rows written outside the bill writer (a development seam, tests), with their spend, in one transaction:
 * the rows of organizations of one edition.
 */
export async function insertBillRows(
  db: Db,
  // The time is the caller's: a database default could fall on another local day than the spend it adds to.
  rows: (typeof schema.requestBills.$inferInsert & { createdAt: Date })[],
  edition: Edition | undefined,
): Promise<void> {
  const spend = new ProjectSpend();
  for (const r of rows) {
    spend.add(r.projectId, r.createdAt.getTime(), edition, r.consumption ?? 0n);
  }
  await db.transaction(async (tx) => {
    await tx.insert(schema.requestBills).values(rows);
    for (const upsert of spend.upsert()) await tx.execute(upsert);
  });
}
