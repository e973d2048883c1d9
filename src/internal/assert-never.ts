/**
 * Exhaustiveness checks for `switch` statements over unions.
 *
 * @module
 */

/**
 * Fails at compile time when a union has a case the `switch` forgot, and at run time if one slips by.
 *
 * @param value The value no case handled.
 * @returns Never.
 */
export function assertNever(value: never): never {
  throw new Error(`unhandled case ${String(value)}`);
}
