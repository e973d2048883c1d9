/**
 * The params that answer an input round, read alike by MCP-lite's `tools/call` and MCP 2026-07-28's requests
 * (SEP-2322): `inputResponses`, the answers by key, and `requestState`, the echoed state.
 *
 * @module
 */

/** The param that answers a round: the answers by key. */
export const INPUT_RESPONSES_PARAM = "inputResponses";

/**
 * What a request's params carry for an input round: the answers, and the echoed state.
 *
 * @param params The request's params.
 * @returns The round.
 */
export function roundParams(
  params: Readonly<Record<string, unknown>>,
): { inputResponses: unknown; requestState: unknown } {
  return { inputResponses: params[INPUT_RESPONSES_PARAM], requestState: params.requestState };
}
