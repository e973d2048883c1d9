/**
 * A step's value as the journal keeps it: its JSON form (ECMA-262 §25.5.2, `JSON.stringify`), which every start of
 * the job gets back, the one that ran the step too. `Jsonify` says so in types (`src/core/long-running/jsonify.ts`);
 * {@link stepJson} refuses at record time a value that has no JSON form, naming the step.
 *
 * @module
 */

/**
 * A step's value as JSON, `undefined` for none (a step that returns nothing): the form the journal keeps. A value
 * that has no JSON form (a function, a symbol, a BigInt anywhere in it, a cycle) is refused rather than kept as
 * nothing, or as part of itself.
 *
 * @param name The step's name, for the error.
 * @param value The step's value.
 * @returns Its JSON text, or `undefined` for `undefined`.
 * @throws {TypeError} For a value with no JSON form, naming the step.
 */
export function stepJson(name: string, value: unknown): string | undefined {
  let json: string | undefined, cause: unknown;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    cause = error;
  }
  if (json === undefined && value !== undefined) {
    throw new TypeError(`work.step(): "${name}" has no JSON form (${cause ?? typeof value})`, { cause });
  }
  return json;
}
