/** Types of schema-check-core.mjs (plain JavaScript, shared with the schema-check worker). */
export type CoreCheckResult = { ok: true } | { ok: false; path: "parameters" | "exampleInput"; reason: string };

export function checkSchema(
  parameters: Record<string, unknown>,
  exampleInput: Record<string, unknown> | undefined,
): CoreCheckResult;
