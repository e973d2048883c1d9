/**
 * The checks every kit of conformance cases (`sharedStoreCases()`, `resultStoreCases()`, `journalStoreCases()`) fails a
 * case with: values compared as JSON, and a write refused for its size.
 *
 * @module
 */
import { canonicalJson } from "../../internal/canonical-json.ts";

/**
 * Fails the case when `actual` is not `expected`, as JSON (what a store keeps is JSON).
 *
 * @param actual What the store answered.
 * @param expected What the contract says.
 * @param what What was read, for the message.
 */
export function same(actual: unknown, expected: unknown, what: string): void {
  const [a, e] = [actual, expected].map((value) => value === undefined ? "undefined" : canonicalJson(value));
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

/**
 * Fails the case unless `promise` rejects with a `RangeError`.
 *
 * @param promise The write.
 * @param what What was written, for the message.
 */
export async function refusedWithRangeError(promise: Promise<unknown>, what: string): Promise<void> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RangeError) return;
    throw new Error(`${what}: expected a RangeError, got ${error}`);
  }
  throw new Error(`${what}: expected a RangeError, but it was written`);
}
