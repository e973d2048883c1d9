/**
 * What a caller gets of a promise whose work ended, however the promise is read (redeem, or an MCP call held or an
 * MCP-lite stream that follows it as a task): its result, its failure thrown as the protocol error it ended with, or
 * the failure a cancelled promise answers.
 *
 * @module
 */
import { type ErrorCode, ProtocolError } from "../errors/error.ts";
import { failureResult, type ToolResult } from "../core/results/result.ts";

/**
 * The answer of a promise whose work ended.
 *
 * @param ended Its entry, or its task as a client sees it: completed, failed or cancelled.
 * @returns Its result, or the failure of a cancelled promise.
 * @throws {ProtocolError} The one its work failed with.
 */
export function endedAnswer(ended: {
  readonly status: string;
  readonly result?: ToolResult;
  readonly error?: { readonly code: ErrorCode | number; readonly message: string; readonly data?: unknown };
}): ToolResult {
  const { status, result, error } = ended;
  if (status === "failed") throw new ProtocolError(error!.code, error!.message, { data: error!.data });
  return status === "cancelled" ? failureResult("This promise was cancelled") : result!;
}
