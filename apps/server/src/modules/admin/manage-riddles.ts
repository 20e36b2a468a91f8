import type { AdminRiddleRow } from "@moonport/contracts";
import { type Db, schema } from "@moonport/db";
import { count, eq } from "drizzle-orm";
import { AppError } from "../../lib/app-error.ts";
import {
  addRiddle,
  editRiddle,
  listAllRiddles,
  type ManageResult,
  moveRiddle,
  riddleContent,
  rowDefinition,
  setRiddleRetired,
} from "../riddles/index.ts";
import { recordOperatorAction } from "./record-operator-action.ts";

/** Every riddle (active first, in track order) with how often it was tried and solved. */
export async function listAdminRiddles(db: Db): Promise<{ items: AdminRiddleRow[] }> {
  const [rows, solves, attempts] = await Promise.all([
    listAllRiddles(db),
    db
      .select({ id: schema.riddleSolves.riddleId, n: count() })
      .from(schema.riddleSolves)
      .groupBy(schema.riddleSolves.riddleId),
    db
      .select({ id: schema.riddleAttempts.riddleId, n: count() })
      .from(schema.riddleAttempts)
      .groupBy(schema.riddleAttempts.riddleId),
  ]);
  const solved = new Map(solves.map((s) => [s.id, s.n]));
  const tried = new Map(attempts.map((a) => [a.id, a.n]));
  return {
    items: rows.map((r) => {
      const d = rowDefinition(r);
      const c = riddleContent(r);
      return {
        id: r.id,
        difficulty: r.difficulty,
        position: r.position,
        model: d.model,
        title: { "en-US": c["en-US"].title, "zh-CN": c["zh-CN"].title },
        reward: d.reward,
        retired: r.retiredAt !== null,
        solves: solved.get(r.id) ?? 0,
        attempts: tried.get(r.id) ?? 0,
      };
    }),
  };
}

async function definitionOf(db: Db, id: string) {
  const [row] = await db.select().from(schema.riddles).where(eq(schema.riddles.id, id));
  return row ? rowDefinition(row) : undefined;
}

export async function getRiddleDefinition(db: Db, id: string) {
  const d = await definitionOf(db, id);
  if (!d) throw new AppError("not_found");
  return d;
}

/** A refused change carries the catalog's own sentence (which field, why) for the operator. */
function orThrow<T>(r: ManageResult<T>): asserts r is { ok: true } & T {
  if (!r.ok) throw new AppError("validation_failed", { details: [{ path: "definition", message: r.problem }] });
}

/**
 * Catalog changes from the back office, through the same checks as the CLI (`riddles …`): a whole valid
 * definition, a known model, stored solutions (if any) that keep the prompt rules. The audit line records the definition
 * before and after.
 */
export async function changeRiddle(opts: {
  db: Db;
  operator: string;
  riddleId?: string;
  change:
    | { kind: "add"; definition: Record<string, unknown> }
    | { kind: "edit"; patch: Record<string, unknown> }
    | { kind: "move"; position: number }
    | { kind: "retire" | "restore" };
}) {
  const { db, change } = opts;
  const id = opts.riddleId ?? String((change as { definition?: { id?: unknown } }).definition?.id ?? "");
  const before = opts.riddleId ? await definitionOf(db, opts.riddleId) : undefined;
  if (opts.riddleId && !before) throw new AppError("not_found");
  const [row] = opts.riddleId
    ? await db
        .select({ position: schema.riddles.position, retiredAt: schema.riddles.retiredAt })
        .from(schema.riddles)
        .where(eq(schema.riddles.id, opts.riddleId))
    : [];
  if (change.kind === "add") orThrow(await addRiddle(db, change.definition));
  else if (change.kind === "edit") orThrow(await editRiddle(db, id, change.patch));
  else if (change.kind === "move") orThrow(await moveRiddle(db, id, change.position));
  else orThrow(await setRiddleRetired(db, id, change.kind === "retire"));
  const after = await definitionOf(db, id);
  await db.transaction((tx) =>
    recordOperatorAction(tx, {
      actor: opts.operator,
      action: `riddle.${change.kind}`,
      target: id,
      before:
        change.kind === "move"
          ? { position: row?.position }
          : change.kind === "retire" || change.kind === "restore"
            ? { retired: row?.retiredAt != null }
            : (before ?? null),
      after:
        change.kind === "move"
          ? { position: change.position }
          : change.kind === "retire" || change.kind === "restore"
            ? { retired: change.kind === "retire" }
            : after,
    }),
  );
}
