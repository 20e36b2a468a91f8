import { EDITION_LOCALE, Password, translateValidation, Username } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { AppError } from "../lib/app-error.ts";
import { createOperator, operatorExists } from "../modules/auth/index.ts";
import type { CliCommand } from "./command.ts";

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i !== -1) return args[i + 1];
  const eqArg = args.find((a) => a.startsWith(`${name}=`));
  return eqArg?.slice(name.length + 1);
}

export const createOperatorCommand: CliCommand = {
  name: "create-operator",
  summary: "Create the platform operator: --username <name>, password on stdin (--password-stdin)",
  async run({ config, db, args, print, readInput }) {
    const username = option(args, "--username");
    if (!username) {
      print("Usage: echo '<password>' | npm run moonport -- create-operator --username <name> [--password-stdin]");
      return 2;
    }
    const nameCheck = Username.safeParse(username);
    if (!nameCheck.success) {
      print(`Invalid username: ${translateValidation(nameCheck.error.issues[0]!.message, "en-US")}`);
      return 2;
    }
    if (await operatorExists(db)) {
      const [op] = await db
        .select({ username: schema.users.username })
        .from(schema.users)
        .where(eq(schema.users.role, "operator"));
      print(`An operator account already exists (${op?.username ?? "?"}); there can be only one. Nothing changed.`);
      return 1;
    }
    // The password comes from stdin so it never shows in the process list or shell history.
    const password = (await readInput()).replace(/\r?\n$/, "");
    const passCheck = Password.safeParse(password);
    if (!passCheck.success) {
      print(`Invalid password: ${translateValidation(passCheck.error.issues[0]!.message, "en-US")}`);
      return 2;
    }
    try {
      const { userId } = await db.transaction((tx) =>
        createOperator({
          tx,
          username,
          password,
          edition: config.defaultEdition,
          locale: EDITION_LOCALE[config.defaultEdition],
          now: new Date(),
          via: "cli:create-operator",
        }),
      );
      print(`Created operator ${username} (${userId}). Sign in to the console with this username.`);
      return 0;
    } catch (e) {
      if (e instanceof AppError && (e.code === "username_taken" || e.code === "operator_exists")) {
        print(
          e.code === "username_taken" ? `The username ${username} is already taken.` : "An operator already exists.",
        );
        return 1;
      }
      throw e;
    }
  },
};
