import { Ajv, type ValidateFunction } from "ajv";
import { type Formula, type FormulaCaller, type OfficialFunction, ToolFailure } from "./formula.ts";
import {
  codeRunnerFormula,
  excelFormula,
  fetchFormula,
  memoryFormula,
  quickjsFormula,
  webSearchFormula,
} from "./io-tools.ts";
import {
  base64Formula,
  convertFormula,
  dateFormula,
  mewFormula,
  randomChoiceFormula,
  rethinkFormula,
} from "./simple-tools.ts";

/** The official tools of docs/api-compat.md §9, in the order the playground's picker lists them. */
export const FORMULAS: readonly Formula[] = [
  webSearchFormula,
  dateFormula,
  convertFormula,
  randomChoiceFormula,
  base64Formula,
  fetchFormula,
  rethinkFormula,
  memoryFormula,
  excelFormula,
  quickjsFormula,
  codeRunnerFormula,
  mewFormula,
];

/** "moonshot/date:latest" or "moonshot/date" → the formula; other versions are not published. */
export function findFormula(uri: string): Formula | undefined {
  const full = uri.includes(":") ? uri : `${uri}:latest`;
  return FORMULAS.find((f) => f.uri === full);
}

/** The OpenAI tool definitions of a formula: what `GET /v1/formulas/{uri}/tools` returns. */
export function formulaTools(f: Formula): { type: "function"; function: OfficialFunction }[] {
  return f.functions.map((fn) => ({ type: "function", function: fn }));
}

const ajv = new Ajv({ strict: false, allErrors: false });
const validators = new Map<string, ValidateFunction>();

function validatorOf(f: Formula, fn: OfficialFunction): ValidateFunction {
  const id = `${f.uri}#${fn.name}`;
  let v = validators.get(id);
  if (!v) {
    v = ajv.compile(fn.parameters);
    validators.set(id, v);
  }
  return v;
}

export type FiberResult = { status: "succeeded"; output: string } | { status: "failed"; error: string };

/**
 * Runs one function of a formula with the arguments as the model wrote them (a JSON string): parsed, checked
 * against the function's schema, run. A tool's own failure is a `failed` result with the reason, which the caller
 * hands back to the model like any tool output.
 */
export async function runFormula(
  f: Formula,
  name: string,
  argumentsJson: string,
  caller: FormulaCaller,
): Promise<FiberResult> {
  const fn = f.functions.find((x) => x.name === name);
  if (!fn) {
    return {
      status: "failed",
      error: `${f.uri} has no function "${name}"; it has ${f.functions.map((x) => x.name).join(", ")}`,
    };
  }
  let args: unknown;
  try {
    args = argumentsJson.trim() === "" ? {} : JSON.parse(argumentsJson);
  } catch {
    return { status: "failed", error: "the arguments are not valid JSON" };
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return { status: "failed", error: "the arguments must be a JSON object" };
  }
  const validate = validatorOf(f, fn);
  if (!validate(args)) {
    const e = validate.errors?.[0];
    return { status: "failed", error: `invalid arguments: ${e?.instancePath || "/"} ${e?.message ?? ""}`.trim() };
  }
  try {
    return { status: "succeeded", output: await f.run(name, args as Record<string, unknown>, caller) };
  } catch (e) {
    if (e instanceof ToolFailure) return { status: "failed", error: e.message };
    throw e;
  }
}
