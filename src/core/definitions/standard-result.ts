/**
 * Standard Schema v1 results as the SDK reads them (issues with dotted paths), and validation of a
 * value against any Standard Schema (valibot's schemas are ones) without loading a schema library:
 * what `ctx.validate()` needs.
 *
 * @module
 */

/** The result of a Standard Schema validation. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
    readonly issues: ReadonlyArray<
      { readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> }
    >;
  };

/** One validation problem, with the dotted path of the failing property. */
export interface ValidationIssue {
  /** The dotted path, e.g. `items.0.id`; empty for the root. */
  path: string;
  /** What is wrong. */
  message: string;
}

/** The outcome of a validation. */
export type ValidationResult = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

/** The part of a Standard Schema v1 this module reads. */
interface StandardValidator {
  /** The Standard Schema properties. */
  readonly "~standard": {
    /** Validates a value. */
    readonly validate: (value: unknown) => StandardResult<unknown> | Promise<StandardResult<unknown>>;
  };
}

/**
 * Reads a Standard Schema result as the SDK's validation outcome.
 *
 * @param result The result.
 * @returns The outcome, issues with dotted paths.
 */
export function fromStandard(result: StandardResult<unknown>): ValidationResult {
  return result.issues
    ? { ok: false, issues: result.issues.map((i) => ({ path: standardPath(i.path), message: i.message })) }
    : { ok: true, value: result.value };
}

/**
 * Validates a value against a Standard Schema (a valibot schema is one).
 *
 * @param schema The schema.
 * @param value The value.
 * @returns The outcome; a promise for an async schema.
 * @throws {TypeError} For something that is not a Standard Schema.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { validateStandard } from "./standard-result.ts";
 * assert.deepEqual(validateStandard(v.object({ n: v.number() }), { n: 1 }), { ok: true, value: { n: 1 } });
 * ```
 */
export function validateStandard(
  schema: StandardValidator,
  value: unknown,
): ValidationResult | Promise<ValidationResult> {
  const standard = (schema as Partial<StandardValidator> | null)?.["~standard"];
  if (typeof standard?.validate !== "function") throw new TypeError("expected a valibot schema or a Standard Schema");
  return settle(standard.validate(value), fromStandard);
}

/**
 * Reads a validator's answer with `read`: at once when it is synchronous, once it settles when it is a promise.
 *
 * @param result The validator's answer.
 * @param read What to make of it.
 * @returns What `read` made, or the promise of it.
 */
export function settle<T, R>(result: T | Promise<T>, read: (result: T) => R): R | Promise<R> {
  return result instanceof Promise ? result.then(read) : read(result);
}

function standardPath(path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined): string {
  if (!path) return "";
  return path.map((part) => String(typeof part === "object" ? part.key : part)).join(".");
}

/**
 * Formats validation issues as `path: message; …`, for error messages.
 *
 * @param issues The issues.
 * @returns One line.
 */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
}
