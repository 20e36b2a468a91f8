import { checkRiddlePrompt, findModel, LOCALES } from "@moonport/contracts";
import { type Db, schema } from "@moonport/db";
import { and, asc, eq, isNull, max, sql } from "drizzle-orm";
import { withTransaction } from "../../lib/transaction.ts";
import { RiddleDefinition } from "./catalog.ts";
import { ensureRiddleCatalog, type RiddleRow, rowDefinition, rowValues } from "./riddle-rows.ts";

/**
 * Operators' catalog changes (CLI `riddles …`; back-office screens later call the same functions). Every change is
 * checked as a whole definition: the schema, a known model, and stored solutions (when given) that keep the
 * prompt rules.
 * Results are `{ok: true, …}` or `{ok: false, problem}` with a sentence for the operator.
 */
export type ManageResult<T = object> = ({ ok: true } & T) | { ok: false; problem: string };

function validate(input: unknown): ManageResult<{ def: RiddleDefinition }> {
  const parsed = RiddleDefinition.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      problem: parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; "),
    };
  }
  const def = parsed.data;
  if (!findModel(def.model)) return { ok: false, problem: `model: unknown model ${JSON.stringify(def.model)}` };
  for (const locale of def.solutions ? LOCALES : []) {
    const problems = checkRiddlePrompt(def.rules.prompt, def.solutions![locale], "en-US");
    if (problems.length) {
      return { ok: false, problem: `solutions.${locale}: ${problems.map((p) => p.message).join(" ")}` };
    }
  }
  return { ok: true, def };
}

async function find(db: Db, id: string): Promise<RiddleRow | undefined> {
  const [row] = await db.select().from(schema.riddles).where(eq(schema.riddles.id, id));
  return row;
}

/** Adds a riddle at the end of its track. */
export async function addRiddle(db: Db, input: unknown): Promise<ManageResult<{ id: string; position: number }>> {
  await ensureRiddleCatalog(db);
  const v = validate(input);
  if (!v.ok) return v;
  if (await find(db, v.def.id)) return { ok: false, problem: `a riddle with id ${v.def.id} exists; use edit` };
  const [last] = await db
    .select({ p: max(schema.riddles.position) })
    .from(schema.riddles)
    .where(eq(schema.riddles.difficulty, v.def.difficulty));
  const position = (last?.p ?? 0) + 1;
  await db.insert(schema.riddles).values(rowValues(v.def, position));
  return { ok: true, id: v.def.id, position };
}

/**
 * Changes a riddle: `patch` is a partial definition merged over the current one (`content` per locale). The id
 * stays; a new difficulty moves it to the end of that track. Players' solves and claims are kept.
 */
export async function editRiddle(db: Db, id: string, patch: Record<string, unknown>): Promise<ManageResult> {
  await ensureRiddleCatalog(db);
  const row = await find(db, id);
  if (!row) return { ok: false, problem: `no riddle ${id}` };
  if ("id" in patch && patch.id !== id) return { ok: false, problem: "id: a riddle's id cannot change" };
  const current = rowDefinition(row);
  const content = patch.content as Record<string, object> | undefined;
  const merged = {
    ...current,
    ...patch,
    content: content
      ? {
          "en-US": { ...current.content["en-US"], ...(content["en-US"] ?? {}) },
          "zh-CN": { ...current.content["zh-CN"], ...(content["zh-CN"] ?? {}) },
        }
      : current.content,
  };
  const v = validate(merged);
  if (!v.ok) return v;
  let position = row.position;
  if (v.def.difficulty !== row.difficulty) {
    const [last] = await db
      .select({ p: max(schema.riddles.position) })
      .from(schema.riddles)
      .where(eq(schema.riddles.difficulty, v.def.difficulty));
    position = (last?.p ?? 0) + 1;
  }
  await db
    .update(schema.riddles)
    .set({ ...rowValues(v.def, position), updatedAt: new Date() })
    .where(eq(schema.riddles.id, id));
  return { ok: true };
}

/** Moves an active riddle to `position` (1-based) in its track and renumbers the track 1…n. */
export async function moveRiddle(db: Db, id: string, position: number): Promise<ManageResult<{ order: string[] }>> {
  await ensureRiddleCatalog(db);
  const row = await find(db, id);
  if (!row) return { ok: false, problem: `no riddle ${id}` };
  if (row.retiredAt) return { ok: false, problem: `${id} is retired; restore it first` };
  return withTransaction({ db }, async (tx) => {
    const track = await tx
      .select({ id: schema.riddles.id })
      .from(schema.riddles)
      .where(and(eq(schema.riddles.difficulty, row.difficulty), isNull(schema.riddles.retiredAt)))
      .orderBy(asc(schema.riddles.position), asc(schema.riddles.createdAt), asc(schema.riddles.id))
      .for("update");
    if (!Number.isInteger(position) || position < 1 || position > track.length) {
      return { ok: false as const, problem: `position must be 1 to ${track.length}` };
    }
    const order = track.map((r) => r.id).filter((r) => r !== id);
    order.splice(position - 1, 0, id);
    for (const [i, rid] of order.entries()) {
      await tx
        .update(schema.riddles)
        .set({ position: i + 1, updatedAt: sql`now()` })
        .where(eq(schema.riddles.id, rid));
    }
    return { ok: true as const, order };
  });
}

/** Retires a riddle (hidden from players, no longer blocking its track; solves and claims stay) or restores it. */
export async function setRiddleRetired(db: Db, id: string, retired: boolean): Promise<ManageResult> {
  await ensureRiddleCatalog(db);
  const row = await find(db, id);
  if (!row) return { ok: false, problem: `no riddle ${id}` };
  await db
    .update(schema.riddles)
    .set({ retiredAt: retired ? (row.retiredAt ?? new Date()) : null, updatedAt: new Date() })
    .where(eq(schema.riddles.id, id));
  return { ok: true };
}

/** Every riddle, active ones first in track order. */
export async function listAllRiddles(db: Db): Promise<RiddleRow[]> {
  await ensureRiddleCatalog(db);
  return db
    .select()
    .from(schema.riddles)
    .orderBy(
      sql`${schema.riddles.retiredAt} is not null`,
      asc(schema.riddles.difficulty),
      asc(schema.riddles.position),
    );
}

export { rowDefinition };
