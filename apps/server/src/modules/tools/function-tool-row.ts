import type { FunctionTool } from "@moonport/contracts";
import { vmsg } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { Ajv, type ErrorObject } from "ajv";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import type { OrgAccess, ProjectAccess } from "../orgs/access.ts";

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

/** "/city must be string" — ajv's own short words, with the place in the input they refer to. */
function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`)
    .join("; ");
}

/**
 * §5: the parameters must be a valid JSON Schema (checked against its meta-schema and compiled), describing an
 * object (OpenAI function parameters are one); the example input must be a JSON object that the schema accepts
 * (required fields present, types matching). Returns the parsed schema, for the run and the tool definition.
 */
export function checkFunctionToolDefinition(def: { parameters: string; exampleInput: string }): {
  parameters: Record<string, unknown>;
  exampleInput: Record<string, unknown>;
} {
  const parameters = parseJson(def.parameters, "parameters");
  if (!isObject(parameters)) throw schemaError(vmsg("json_object_required"));
  if (parameters.type !== undefined && parameters.type !== "object") {
    throw schemaError(
      vmsg("json_schema_invalid", { reason: 'the parameters must describe an object ("type": "object")' }),
    );
  }
  // Not strict: unknown keywords (title, examples, x-…) are common in hand-written schemas and harmless.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  if (!ajv.validateSchema(parameters)) {
    throw schemaError(vmsg("json_schema_invalid", { reason: describeErrors(ajv.errors) }));
  }
  let validate: ReturnType<Ajv["compile"]>;
  try {
    validate = ajv.compile(parameters);
  } catch (e) {
    throw schemaError(vmsg("json_schema_invalid", { reason: e instanceof Error ? e.message : String(e) }));
  }
  const exampleInput = parseJson(def.exampleInput, "exampleInput");
  if (!isObject(exampleInput)) {
    throw new AppError("validation_failed", {
      details: [{ path: "exampleInput", message: vmsg("json_object_required") }],
    });
  }
  if (!validate(exampleInput)) {
    throw new AppError("validation_failed", {
      details: [
        { path: "exampleInput", message: vmsg("example_schema_mismatch", { reason: describeErrors(validate.errors) }) },
      ],
    });
  }
  return { parameters, exampleInput };
}

function schemaError(message: string): AppError {
  return new AppError("validation_failed", { details: [{ path: "parameters", message }] });
}
