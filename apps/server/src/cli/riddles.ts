import { readFile } from "node:fs/promises";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import {
  addRiddle,
  editRiddle,
  listAllRiddles,
  moveRiddle,
  rowDefinition,
  setRiddleRetired,
} from "../modules/riddles/index.ts";
import type { CliCommand } from "./command.ts";

const USAGE = `Usage: npm run moonport -- riddles <command>
  list                      every riddle: id, difficulty, position, model, status, title
  show <id>                 the riddle's full definition as JSON (the shape add and edit read)
  add <file.json>           add a riddle (a full definition) at the end of its track
  edit <id> <file.json>     merge a partial definition into the riddle (content per locale)
  move <id> <position>      move the riddle to a 1-based position in its track
  retire <id>               hide it from players (solves and claims are kept)
  restore <id>              bring a retired riddle back`;

async function readJson(path: string, print: (l: string) => void): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as unknown;
  } catch (e) {
    print(`cannot read ${path}: ${(e as Error).message}`);
    return undefined;
  }
}

export const riddlesCommand: CliCommand = {
  name: "riddles",
  summary: "Manage riddle challenges: list, show, add, edit, move (reorder), retire, restore",
  async run({ db, args, print }) {
    const [sub, a, b] = args;
    const done = (r: { ok: true } | { ok: false; problem: string }, message: string) => {
      print(r.ok ? message : `refused: ${r.problem}`);
      return r.ok ? 0 : 1;
    };
    switch (sub) {
      case "list": {
        const rows = await listAllRiddles(db);
        for (const r of rows) {
          const title = (r.content as Record<string, { title: string }>)["en-US"]?.title ?? "";
          print(
            [
              r.id.padEnd(22),
              r.difficulty.padEnd(9),
              String(r.position).padEnd(3),
              r.model.padEnd(22),
              r.retiredAt ? "retired" : "active ",
              title,
            ].join(" "),
          );
        }
        print(`${rows.length} riddle(s)`);
        return 0;
      }
      case "show": {
        if (!a) break;
        await listAllRiddles(db);
        const [row] = await db.select().from(schema.riddles).where(eq(schema.riddles.id, a));
        if (!row) {
          print(`no riddle ${a}`);
          return 1;
        }
        print(JSON.stringify(rowDefinition(row), null, 2));
        return 0;
      }
      case "add": {
        if (!a) break;
        const input = await readJson(a, print);
        if (input === undefined) return 1;
        const r = await addRiddle(db, input);
        return done(r, r.ok ? `Added ${r.id} at position ${r.position} of its track.` : "");
      }
      case "edit": {
        if (!a || !b) break;
        const input = await readJson(b, print);
        if (input === undefined) return 1;
        if (!input || typeof input !== "object" || Array.isArray(input)) {
          print("refused: the file must hold a JSON object");
          return 1;
        }
        return done(await editRiddle(db, a, input as Record<string, unknown>), `Updated ${a}.`);
      }
      case "move": {
        if (!a || !b) break;
        const r = await moveRiddle(db, a, Number(b));
        return done(r, r.ok ? `Track order: ${r.order.join(", ")}` : "");
      }
      case "retire":
      case "restore": {
        if (!a) break;
        return done(
          await setRiddleRetired(db, a, sub === "retire"),
          `${sub === "retire" ? "Retired" : "Restored"} ${a}.`,
        );
      }
    }
    print(USAGE);
    return 2;
  },
};
