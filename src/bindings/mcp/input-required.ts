/**
 * Input-required results (SEP-2322, "multi round-trip requests") on the 2026-07-28 revision: a
 * handler's `ctx.elicit()`, `ctx.sample()` or `ctx.roots()` that the request did not answer ends the
 * request with `resultType: "input_required"`, every outstanding question in `inputRequests` and a
 * signed `requestState`; the client sends the same request again with `inputResponses` and the state.
 * The same `InputRound` drives MCP-lite's `elicitation` responses. Only `tools/call`, `prompts/get`
 * and `resources/read` answer this way, and such a result is never cached.
 *
 * @module
 */
import type { CallOutcome } from "../../core/mod.ts";
import type { McpRequest } from "./mcp-request.ts";
import { roundParams } from "../round-params.ts";

type InputRequiredOutcome = Extract<CallOutcome, { kind: "input_required" }>;

/**
 * The input round a request carries, for the call pipeline: on 2026-07-28, its `inputResponses` and
 * `requestState`; the 2025 revisions ask over the stream instead and get none.
 *
 * @param request The request.
 * @returns The round, or `undefined` on the 2025 revisions.
 */
export function roundOf(request: McpRequest): { inputResponses: unknown; requestState: unknown } | undefined {
  return request.envelope.era === "modern" ? roundParams(request.rpc.params) : undefined;
}

/**
 * Translates an input-required outcome into the revision's `InputRequiredResult`.
 *
 * @param outcome The outcome.
 * @returns The result (`resultType`, `inputRequests`, `requestState`).
 */
export function inputRequiredResult(outcome: InputRequiredOutcome): Record<string, unknown> {
  return { resultType: "input_required", inputRequests: outcome.requests, requestState: outcome.requestState };
}
