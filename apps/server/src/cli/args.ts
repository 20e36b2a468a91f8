/**
 * The `<id> [--reason "…"]` arguments of the operator's decision commands; null when the id is missing or a
 * required reason is (the command then prints its usage).
 */
export function readDecisionArgs(
  args: string[],
  reasonRequired: boolean,
): { id: string; reason: string | undefined } | null {
  const id = args[0];
  const at = args.indexOf("--reason");
  const reason = at > 0 ? args[at + 1]?.trim() || undefined : undefined;
  if (!id || id.startsWith("--") || (reasonRequired && !reason)) return null;
  return { id, reason };
}
