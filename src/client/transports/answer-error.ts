/**
 * The error a client answers a server's request with when it cannot answer it (an MCP 2025 session's requests on
 * its streams): loaded with that session, not with a client's first call.
 *
 * @module
 */
import { messageOf } from "../http.ts";

/**
 * Builds the JSON-RPC error a client sends back for a server request it cannot answer: -32601 (Method not
 * found), as MCP 2025-11-25 asks of a client without the capability (Roots: Error Handling), or -32602 (Invalid
 * params) for a part of one it lacks (a URL elicitation, sampling with tools), as the official SDK's client answers;
 * a `missing_capability` error (a gateway's caller that did not declare it) says which.
 *
 * @param error Why.
 * @returns The error object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerError } from "./answer-error.ts";
 * assert.equal(answerError(new Error("no handler")).code, -32601);
 * const url = { code: "missing_capability", data: { requiredCapabilities: { elicitation: { url: {} } } } };
 * assert.equal(answerError(Object.assign(new Error("no URL mode"), url)).code, -32602);
 * ```
 */
export function answerError(error: unknown): { code: number; message: string } {
  return { code: lacksPart(error) ? -32602 : -32601, message: messageOf(error) };
}

/** Whether an error is a `missing_capability` naming a part of a capability (`elicitation.url`, `sampling.tools`). */
function lacksPart(error: unknown): boolean {
  const { code, data } = (error ?? {}) as { code?: unknown; data?: { requiredCapabilities?: Record<string, unknown> } };
  const required = code === "missing_capability" ? data?.requiredCapabilities : undefined;
  const part = required?.elicitation ?? required?.sampling;
  return typeof part === "object" && part !== null && Object.keys(part).length > 0;
}
