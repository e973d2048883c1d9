/**
 * The refusal a response answers, handed back with it: a binding that answers a call refused for a
 * scope its caller lacks returns its response marked with that refusal, and the server's edge maps it to
 * the step-up challenge (MCP 2025-11-25, Authorization, Scope Challenge Handling; RFC 6750 §3.1).
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";

/** Where a response that answers a refusal for a scope carries that refusal: a value on it, not a table beside it. */
const ANSWERED = /* @__PURE__ */ Symbol();

/**
 * Marks a response as the answer to a refusal, when the error is one for a missing scope
 * (`permission_denied`); any other error leaves it as it is.
 *
 * @param response The response the binding made for the error.
 * @param error What the call was refused with.
 * @returns The response.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ErrorCode, ProtocolError } from "../errors/error.ts";
 * import { answersRefusal, refusalAnswered } from "./answered-refusal.ts";
 *
 * const refusal = new ProtocolError(ErrorCode.PermissionDenied, "Insufficient scope", {
 *   data: { requiredScopes: ["docs:admin"] },
 * });
 * const response = answersRefusal(new Response(null, { status: 403 }), refusal);
 * assert.equal(refusalAnswered(response), refusal);
 * assert.equal(refusalAnswered(answersRefusal(new Response(), new Error("boom"))), undefined);
 * ```
 */
export function answersRefusal(response: Response, error: unknown): Response {
  if (error instanceof ProtocolError && error.code === "permission_denied") {
    (response as { [ANSWERED]?: ProtocolError })[ANSWERED] = error;
  }
  return response;
}

/**
 * The refusal a response answers, for the edge's step-up challenge.
 *
 * @param response What a route answered.
 * @returns The refusal, or `undefined` when the response answers none.
 */
export function refusalAnswered(response: Response): ProtocolError | undefined {
  return (response as { [ANSWERED]?: ProtocolError })[ANSWERED];
}
