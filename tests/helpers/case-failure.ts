/**
 * Runs one case of an exported conformance suite (`resultStoreCases`, `workQueueCases`) by name, for the tests that
 * show a suite failing a broken implementation.
 */
import assert from "node:assert/strict";

/**
 * Runs the case whose name matches `name`.
 *
 * @param cases The suite's cases.
 * @param name Which case.
 * @returns What the case threw, or `undefined` when it passed.
 */
export async function failureOfCase(
  cases: readonly { readonly name: string; run(): unknown }[],
  name: RegExp,
): Promise<unknown> {
  const found = cases.find((c) => name.test(c.name));
  assert.ok(found, `a case matching ${name}`);
  try {
    await found.run();
    return undefined;
  } catch (error) {
    return error;
  }
}
