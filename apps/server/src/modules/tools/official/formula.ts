import type { AppContext } from "../../../context.ts";

/** An OpenAI function definition's JSON Schema (the shape `GET /v1/formulas/{uri}/tools` returns). */
export type JsonSchemaObject = Record<string, unknown>;

export interface OfficialFunction {
  name: string;
  description: string;
  parameters: JsonSchemaObject;
}

/** Who runs a tool: the organization and project its effects (memory, files) and fee belong to. */
export interface FormulaCaller {
  ctx: AppContext;
  orgId: string;
  projectId: string;
  signal?: AbortSignal;
}

/**
 * One official tool ("formula", docs/api-compat.md §9): its URI, the functions it offers and how they run. `run`
 * returns the tool result as text (usually JSON), exactly what goes back to the model; bad arguments or a failure throw
 * `ToolFailure` with a reason the model can act on.
 */
export interface Formula {
  uri: string;
  functions: OfficialFunction[];
  /** Billed per call (web-search); every other official tool is free. */
  billed?: boolean;
  run(name: string, args: Record<string, unknown>, caller: FormulaCaller): Promise<string>;
}

export class ToolFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolFailure";
  }
}
