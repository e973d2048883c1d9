/**
 * Validation of a value a handler holds (`ctx.validate()`), as the arguments were validated.
 *
 * @module
 */
import { ToolError } from "../../errors/error.ts";
import type { InferSchemaOutput, StandardSchemaV1 } from "../schema.ts";
import { formatIssues, validateStandard } from "../definitions/standard-result.ts";

/**
 * Validates a value a handler holds against a synchronous schema (`ctx.validate()`): the value as the
 * schema outputs it, or a `ToolError` (the call's failure, which the model sees) naming each failing path.
 *
 * @param schema A synchronous Standard Schema.
 * @param value The value.
 * @returns The value, as the schema outputs it.
 * @throws {ToolError} When the value does not match: `Invalid value: path: message; …`, the issues in its data.
 * @throws {TypeError} For an async schema.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { validateValue } from "./validate-value.ts";
 * assert.deepEqual(validateValue(v.object({ id: v.number() }), { id: 7 }), { id: 7 });
 * ```
 */
export function validateValue<S extends StandardSchemaV1>(schema: S, value: unknown): InferSchemaOutput<S> {
  const checked = validateStandard(schema, value);
  if (checked instanceof Promise) {
    checked.catch(() => {});
    throw new TypeError("ctx.validate() takes a synchronous schema; use valibot's parseAsync for an async one");
  }
  if (!checked.ok) {
    throw new ToolError(`Invalid value: ${formatIssues(checked.issues)}`, { data: { issues: checked.issues } });
  }
  return checked.value as InferSchemaOutput<S>;
}
