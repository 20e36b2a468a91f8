import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Database, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commands } from "../src/cli/commands.ts";
import { buildConfig } from "../src/env.ts";
import { createKeyEvents } from "../src/metering/key-events.ts";
import { BUILT_IN_RIDDLES } from "../src/modules/riddles/catalog.ts";
import { openMemoryDatabase } from "./helpers.ts";

let database: Database;
let dir: string;
beforeEach(async () => {
  database = await openMemoryDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "riddles-cli-"));
});
afterEach(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function run(args: string[]) {
  const command = commands.find((c) => c.name === "riddles")!;
  const lines: string[] = [];
  const config = buildConfig({ NODE_ENV: "test" });
  const log = pino({ level: "silent" });
  const keyEvents = createKeyEvents({ config, database, db: database.db, log });
  const code = await command.run({
    config,
    db: database.db,
    services: { db: database.db, keyEvents, log },
    args,
    print: (l) => lines.push(l),
    readInput: async () => "",
  });
  return { code, out: lines.join("\n") };
}
const file = (name: string, value: unknown) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, typeof value === "string" ? value : JSON.stringify(value));
  return p;
};
const track = async (difficulty: string) =>
  (
    await database.db
      .select()
      .from(schema.riddles)
      .where(eq(schema.riddles.difficulty, difficulty as "beginner"))
  )
    .filter((r) => !r.retiredAt)
    .sort((a, b) => a.position - b.position)
    .map((r) => r.id);

describe("riddles CLI", () => {
  it("lists and shows the built-in catalog", async () => {
    const list = await run(["list"]);
    expect(list.code).toBe(0);
    expect(list.out).toContain(`${BUILT_IN_RIDDLES.length} riddle(s)`);
    const show = await run(["show", "first-word"]);
    expect(JSON.parse(show.out)).toMatchObject({ id: "first-word", difficulty: "beginner", maxTokens: 2 });
    expect((await run(["show", "nope"])).code).toBe(1);
    expect((await run(["frobnicate"])).code).toBe(2);
  });

  it("adds a riddle at the end of its track and refuses invalid ones", async () => {
    const def = { ...BUILT_IN_RIDDLES[1]!, id: "times-table-2" };
    const added = await run(["add", file("new.json", def)]);
    expect(added.out).toBe("Added times-table-2 at position 6 of its track.");
    expect((await track("beginner")).at(-1)).toBe("times-table-2");
    expect((await run(["add", file("dup.json", def)])).out).toContain("exists");
    expect((await run(["add", file("model.json", { ...def, id: "x-model", model: "gpt-9" })])).out).toContain(
      "unknown model",
    );
    const breaks = { ...def, id: "x-solution", solutions: { "en-US": "What is 56?", "zh-CN": "56" } };
    expect((await run(["add", file("sol.json", breaks)])).out).toContain("The prompt uses a banned word: 56.");
    const badRule = {
      ...def,
      id: "x-regex",
      rules: { prompt: [], answer: [{ kind: "matches", pattern: "(", label: { "en-US": "a", "zh-CN": "a" } }] },
    };
    expect((await run(["add", file("re.json", badRule)])).out).toContain("not a valid regular expression");
    expect((await run(["add", file("bad.json", "{not json")])).out).toContain("cannot read");
    expect((await database.db.select().from(schema.riddles)).length).toBe(BUILT_IN_RIDDLES.length + 1);
  });

  it("edits, moves, retires and restores", async () => {
    const edit = await run([
      "edit",
      "first-word",
      file("p.json", { content: { "en-US": { title: "Say hello" } }, maxTokens: 3 }),
    ]);
    expect(edit.code, edit.out).toBe(0);
    const [row] = await database.db.select().from(schema.riddles).where(eq(schema.riddles.id, "first-word"));
    expect(row!.maxTokens).toBe(3);
    expect((row!.content as Record<string, { title: string; story: string }>)["en-US"]).toMatchObject({
      title: "Say hello",
      story: BUILT_IN_RIDDLES[0]!.content["en-US"].story,
    });
    expect((await run(["edit", "first-word", file("id.json", { id: "other" })])).out).toContain("cannot change");
    expect((await run(["edit", "first-word", file("n.json", { maxTokens: 0 })])).code).toBe(1);

    const moved = await run(["move", "name-the-cat", "1"]);
    expect(moved.code, moved.out).toBe(0);
    expect(await track("beginner")).toEqual([
      "name-the-cat",
      "first-word",
      "times-table",
      "hours-in-a-week",
      "short-answer",
    ]);
    expect((await run(["move", "name-the-cat", "9"])).out).toBe("refused: position must be 1 to 5");

    expect((await run(["retire", "first-word"])).code).toBe(0);
    expect(await track("beginner")).toEqual(["name-the-cat", "times-table", "hours-in-a-week", "short-answer"]);
    expect((await run(["move", "first-word", "1"])).out).toContain("retired");
    expect((await run(["restore", "first-word"])).code).toBe(0);
    expect(await track("beginner")).toHaveLength(5);
  });
});
