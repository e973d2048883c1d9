/** The code of the error a call rejects with, asserting it is one of the SDK's family (`McpliteError`). */
import assert from "node:assert/strict";
import { McpliteError } from "../../src/errors/mod.ts";

/**
 * Awaits a call that must fail and returns its error's `code`.
 *
 * @param promise The call.
 * @returns The code (`invalid_params`, `method_not_found`, …).
 */
export async function errorCodeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof McpliteError, String(error));
    return error.code;
  }
  assert.fail("expected a failure");
}
