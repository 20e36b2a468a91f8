import type { FunctionTool } from "@moonport/contracts";
import { vmsg } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { checkToolSchema, SCHEMA_CHECK_DEADLINE_MS } from "../../tools/check-tool-schema.ts";

type Row = typeof schema.functionTools.$inferSelect;

export function toFunctionTool(r: Row): FunctionTool {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    parameters: r.parameters,
    exampleInput: r.exampleInput,
    code: r.code,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Function tools are private: only their author sees them, in the project they were made in. */
export function ownTool(access: OrgAccess, project: ProjectAccess, toolId: string) {
  const t = schema.functionTools;
  return and(eq(t.id, toolId), eq(t.userId, access.userId), eq(t.projectId, project.project.id));
}

export async function findOwnTool(ctx: AppContext, access: OrgAccess, project: ProjectAccess, toolId: string) {
  const [row] = await ctx.db
    .select()
    .from(schema.functionTools)
    .where(ownTool(access, project, toolId));
  if (!row) throw new AppError("not_found");
  return row;
}

/** Archived projects are read-only: their tools can be read, not changed or run. */
export function assertWritable(project: ProjectAccess): void {
  if (project.project.status !== "active") throw new AppError("project_archived");
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    throw new AppError("validation_failed", { details: [{ path, message: vmsg("json_invalid", { reason }) }] });
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * §5: the parameters must be a valid JSON Schema (checked against its meta-schema and compiled), describing an
 * object (OpenAI function parameters are one); the example input must be a JSON object that the schema accepts
 * (required fields present, types matching). Returns the parsed schema, for the run and the tool definition.
 * Ajv runs in a worker with a deadline (tools/check-tool-schema.ts): a user's `pattern` may backtrack for minutes.
 */
export async function checkFunctionToolDefinition(def: { parameters: string; exampleInput: string }): Promise<{
  parameters: Record<string, unknown>;
  exampleInput: Record<string, unknown>;
}> {
  const parameters = parseJson(def.parameters, "parameters");
  if (!isObject(parameters)) throw schemaError(vmsg("json_object_required"));
  if (parameters.type !== undefined && parameters.type !== "object") {
    throw schemaError(
      vmsg("json_schema_invalid", { reason: 'the parameters must describe an object ("type": "object")' }),
    );
  }
  let exampleInput: unknown;
  let exampleError: AppError | undefined;
  try {
    exampleInput = parseJson(def.exampleInput, "exampleInput");
  } catch (e) {
    exampleError = e as AppError;
  }
  // One worker checks the schema and, when the example is an object, the example against it.
  const checked = await checkToolSchema(parameters, isObject(exampleInput) ? exampleInput : undefined);
  const slow = `${SCHEMA_CHECK_DEADLINE_MS / 1000} s`;
  if (!checked.ok && checked.path === "parameters")
    throw schemaError(vmsg("json_schema_invalid", { reason: checked.reason }));
  if (!checked.ok && checked.path === "timeout" && !isObject(exampleInput)) {
    throw schemaError(vmsg("json_schema_invalid", { reason: `checking the schema took longer than ${slow}` }));
  }
  if (exampleError) throw exampleError;
  if (!isObject(exampleInput)) {
    throw new AppError("validation_failed", {
      details: [{ path: "exampleInput", message: vmsg("json_object_required") }],
    });
  }
  if (!checked.ok) {
    const reason =
      checked.path === "timeout"
        ? `matching the example took longer than ${slow} (a pattern that backtracks?)`
        : checked.reason;
    throw new AppError("validation_failed", {
      details: [{ path: "exampleInput", message: vmsg("example_schema_mismatch", { reason }) }],
    });
  }
  return { parameters, exampleInput };
}

function schemaError(message: string): AppError {
  return new AppError("validation_failed", { details: [{ path: "parameters", message }] });
}
