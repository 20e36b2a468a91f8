import { errorMessage, translateValidation } from "@moonport/contracts";
import { AppError } from "../lib/app-error.ts";
import type { CliCommand } from "./command.ts";

type RunOptions = Parameters<CliCommand["run"]>[0];

/** What an operator's decision command was given: the id, the `--reason` text and the positional arguments. */
interface Decision {
  id: string;
  reason: string | undefined;
  /** The arguments after the id that are not `--reason "…"` (e.g. an invoice number). */
  rest: string[];
}

/**
 * The `<id> [more] [--reason "…"]` arguments of a decision command; null when the id is missing or a required
 * reason is (the command then prints its usage).
 */
function readDecisionArgs(args: string[], reasonRequired: boolean): Decision | null {
  const id = args[0];
  const at = args.indexOf("--reason");
  const reason = at > 0 ? args[at + 1]?.trim() || undefined : undefined;
  if (!id || id.startsWith("--") || (reasonRequired && !reason)) return null;
  const rest = args.slice(1).filter((_, i) => at < 0 || (i + 1 !== at && i + 1 !== at + 1));
  return { id, reason, rest };
}

/**
 * One operator decision on one record (approve / reject a verification or a refund, issue / fail an invoice, the
 * seller's red-letter moves): the shape every such command shares. `decide` returns the line to print, or null
 * when its own arguments are wrong (the usage is printed, exit 2). A refusal by the domain (an AppError) changes
 * nothing and prints its English message (exit 1): the operator sees what a console user would.
 */
export function decisionCommand(def: {
  name: string;
  summary: string;
  /** What comes after the command's name in the usage line. */
  usage: string;
  /** What the id names ("refund", "invoice"), for "No refund "…"." */
  noun: string;
  reasonRequired?: boolean;
  decide: (opts: RunOptions, decision: Decision) => Promise<string | null>;
}): CliCommand {
  const usage = `Usage: npm run moonport -- ${def.name} ${def.usage}`;
  return {
    name: def.name,
    summary: def.summary,
    async run(opts) {
      const parsed = readDecisionArgs(opts.args, def.reasonRequired ?? false);
      if (!parsed) {
        opts.print(usage);
        return 2;
      }
      try {
        const line = await def.decide(opts, parsed);
        if (line === null) {
          opts.print(usage);
          return 2;
        }
        opts.print(line);
        return 0;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        if (err.code === "not_found") opts.print(`No ${def.noun} ${JSON.stringify(parsed.id)}.`);
        else printRefusal(opts.print, err, `The ${def.noun} ${parsed.id} was not changed.`);
        return 1;
      }
    },
  };
}

/** A domain refusal in English, with its field problems one a line, and what it means for the operator. */
export function printRefusal(print: (line: string) => void, err: AppError, outcome: string): void {
  print(`Refused: ${errorMessage(err.code, "en-US", err.params)} ${outcome}`);
  for (const d of err.details ?? []) print(`    ${d.path}: ${translateValidation(d.message, "en-US")}`);
}
