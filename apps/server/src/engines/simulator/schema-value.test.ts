import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../chat/types.ts";
import { createRng } from "./rng.ts";
import { valueFromSchema } from "./schema-value.ts";

const ajv = new Ajv({ strict: false, logger: false });

const schemas: [string, JsonSchema][] = [
  [
    "bounds, lengths and formats",
    {
      type: "object",
      properties: {
        n: { type: "integer", minimum: 50, maximum: 60, multipleOf: 5 },
        x: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
        short: { type: "string", maxLength: 3 },
        long: { type: "string", minLength: 400 },
        day: { type: "string", format: "date" },
      },
      required: ["n", "x", "short", "long", "day"],
    },
  ],
  [
    "arrays: minimum, maximum, unique, tuples",
    {
      type: "object",
      properties: {
        many: { type: "array", items: { type: "string" }, minItems: 12 },
        none: { type: "array", items: { type: "integer" }, maxItems: 0 },
        unique: { type: "array", items: { type: "string" }, minItems: 3, uniqueItems: true },
        pair: { type: "array", prefixItems: [{ type: "integer" }, { type: "boolean" }], minItems: 2, maxItems: 2 },
      },
      required: ["many", "none", "unique", "pair"],
      additionalProperties: false,
    },
  ],
  [
    "allOf, oneOf with null, const, definitions",
    {
      type: "object",
      allOf: [
        { properties: { a: { const: "fixed" } }, required: ["a"] },
        { properties: { b: { oneOf: [{ type: "null" }, { $ref: "#/definitions/point" }] } }, required: ["b"] },
      ],
      definitions: {
        point: {
          type: "object",
          properties: { x: { type: "number" }, y: { type: "number" } },
          required: ["x", "y"],
          additionalProperties: false,
        },
      },
    },
  ],
  [
    "a recursive list",
    {
      type: "object",
      properties: { head: { $ref: "#/$defs/cell" } },
      required: ["head"],
      $defs: {
        cell: {
          type: "object",
          properties: { value: { type: "string" }, next: { anyOf: [{ $ref: "#/$defs/cell" }, { type: "null" }] } },
          required: ["value", "next"],
        },
      },
    },
  ],
];

describe("valueFromSchema", () => {
  it.each(schemas)("answers what the schema accepts: %s", (_name, schema) => {
    for (const question of ["", "Give me 7 of them, in 2025-03-04, please.", "请给出 3 个例子"]) {
      const value = valueFromSchema(schema, { question, answer: "An answer.", rng: createRng(1) });
      const validate = ajv.compile(schema);
      expect(validate(value), `${JSON.stringify(value)} ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});
