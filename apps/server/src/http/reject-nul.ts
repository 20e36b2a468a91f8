import { findNulCharacter } from "@moonport/contracts";
import { AppError } from "../lib/app-error.ts";
import type { FastifyRequest } from "./route.ts";

/**
 * preValidation hook of the console API: PostgreSQL text cannot hold NUL, so a NUL anywhere in the path
 * parameters, the query or the JSON body (values or keys, at any depth) is a 400 naming the field, for every route
 * at once rather than per schema.
 */
export async function rejectNulCharacters(req: FastifyRequest): Promise<void> {
  for (const [where, value] of [
    ["params", req.params],
    ["query", req.query],
    ["body", req.body],
  ] as const) {
    const path = findNulCharacter(value);
    if (path !== undefined) {
      throw new AppError("validation_failed", { details: [{ path: path || where, message: "nul_character" }] });
    }
  }
}
