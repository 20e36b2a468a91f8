import type { Db } from "@moonport/db";
import type { AppContext } from "../context.ts";
import type { Config } from "../env.ts";

/** One `moonport <name>` command; commands.ts lists them all. */
export interface CliCommand {
  name: string;
  summary: string;
  run(opts: {
    config: Config;
    db: Db;
    /**
     * What the billing core needs to tell running gateways about a change (through Redis or the PostgreSQL
     * version counter; with PGlite no server can run alongside the CLI).
     */
    services: Pick<AppContext, "db" | "keyEvents" | "log">;
    args: string[];
    print: (line: string) => void;
    /** All of standard input (e.g. a password piped in). */
    readInput: () => Promise<string>;
  }): Promise<number>;
}
