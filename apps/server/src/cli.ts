/**
 * Operator command line: `npm run moonport -- <command> [args]`. With the embedded database it opens DATA_DIR
 * itself, so the server must be stopped; it says so when the server holds the directory.
 */
import { DataDirLockedError } from "@moonport/db";
import { Redis } from "ioredis";
import pino from "pino";
import { commands } from "./cli/commands.ts";
import { openConfiguredDatabase } from "./db.ts";
import { EnvError, readEnv } from "./env.ts";
import { createKeyEvents } from "./metering/key-events.ts";

async function run(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = commands.find((c) => c.name === name);
  if (!command) {
    console.log("Usage: npm run moonport -- <command> [options]\n\nCommands:");
    for (const c of commands) console.log(`  ${c.name.padEnd(18)} ${c.summary}`);
    return name && name !== "help" && name !== "--help" ? 2 : 0;
  }
  let config: ReturnType<typeof readEnv>;
  try {
    config = readEnv();
  } catch (e) {
    if (e instanceof EnvError) {
      console.error(e.message);
      return 1;
    }
    throw e;
  }
  let database: Awaited<ReturnType<typeof openConfiguredDatabase>>;
  try {
    database = await openConfiguredDatabase(config, `moonport cli (pid ${process.pid})`);
  } catch (e) {
    if (e instanceof DataDirLockedError) {
      console.error(
        `${e.message}\nThe embedded database can be opened by one process at a time: stop the server (Ctrl+C) and run this command again.`,
      );
      return 3;
    }
    throw e;
  }
  // The CLI only publishes invalidations (a running gateway subscribes); it never starts listening itself.
  const log = pino({ level: config.logLevel }, pino.destination(2));
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false })
    : undefined;
  redis?.on("error", (err) => log.warn({ err: err.message }, "redis error"));
  const keyEvents = createKeyEvents({ config, database, db: database.db, log, redis });
  try {
    return await command.run({
      config,
      db: database.db,
      services: { db: database.db, keyEvents, log },
      args,
      print: (line) => console.log(line),
      readInput: readStdin,
    });
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    return 1;
  } finally {
    await keyEvents.close();
    await redis?.quit().catch(() => redis.disconnect());
    await database.close();
  }
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    process.stderr.write("Password (input is visible; prefer piping it in): ");
    for await (const line of (await import("node:readline")).createInterface({ input: process.stdin })) return line;
    return "";
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

run(process.argv.slice(2)).then((code) => process.exit(code));
