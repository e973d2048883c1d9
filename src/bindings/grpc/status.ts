/**
 * The gRPC binding's table from error codes to gRPC status codes (MCP-lite spec v0.042 §5.5; the table
 * itself is in ../grpc-status.ts, free of Connect), and the conversion of any error into the `ConnectError`
 * the wire carries: the code, the safe message and structured details (`google.rpc.ErrorInfo`, plus
 * `google.rpc.BadRequest` for invalid arguments). Never a stack.
 *
 * @module
 */
// Connect documents its own types; `@ignore` tells `deno doc --lint` they are not ours to export.
/** @ignore */
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorCode, type McpliteError, raisedHere, servedCode } from "../../errors/error.ts";
import { type ValidationIssue, wireErrors } from "../../core/mod.ts";
import { grpcStatusOf } from "../../errors/grpc-status.ts";
import { BadRequestSchema, ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.ts";

/** The `ErrorInfo.domain` of every error this binding sends. */
export const ERROR_DOMAIN = "mcplite";

/**
 * Maps an error code to its gRPC status code.
 *
 * @param code The error code.
 * @returns The gRPC status code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Code } from "@connectrpc/connect";
 * import { ErrorCode } from "../../errors/error.ts";
 * import { errorCodeToGrpc } from "./status.ts";
 * assert.equal(errorCodeToGrpc(ErrorCode.UnknownTool), Code.NotFound);
 * ```
 */
export function errorCodeToGrpc(code: ErrorCode): Code {
  return grpcStatusOf(code) as number as Code; // Connect's Code numbers are gRPC's
}

/**
 * Converts anything thrown while serving a call into the error the wire carries. A `ConnectError`
 * (a deadline, a cancellation, Connect's own decoding errors) passes through; an SDK error keeps its
 * safe message and gets its data as details; anything else is masked as `internal error`, the
 * original going to `onError` only (unless it returns the error to answer instead).
 *
 * @param error What was thrown.
 * @param onError Receives errors that get masked; may return `{ code, message, data }` to answer instead.
 * @returns The error to throw to Connect.
 */
export function errorToConnectError(error: unknown, onError?: (error: unknown) => unknown): ConnectError {
  if (error instanceof ConnectError) return error;
  wireErrors.reportDetail(error, onError); // the detail an error keeps for logs (a proxy's remote failure)
  // Not raised on purpose: masked, unless `onError` names the error to answer (`{ code, message, data }`).
  const known = raisedHere(error) ? error : wireErrors.replacementError(error, onError?.(error));
  return known === undefined ? new ConnectError("internal error", Code.Internal) : connectErrorOf(known);
}

/**
 * Runs one method's work; what it throws is thrown as {@link errorToConnectError} makes it, `onError` told first.
 *
 * @param work The method's work.
 * @param onError Receives errors that get masked (the server's `onError`).
 * @returns What the work returned.
 */
export async function asConnectErrors<T>(
  work: () => T | Promise<T>,
  onError?: (error: unknown) => unknown,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw errorToConnectError(error, onError);
  }
}

function connectErrorOf(error: McpliteError): ConnectError {
  const details: ConstructorParameters<typeof ConnectError>[3] = [{
    desc: ErrorInfoSchema,
    value: {
      reason: servedCode(error.code).toUpperCase(), // the code the status says, as every wire sends it
      domain: ERROR_DOMAIN,
      metadata: metadataFromData(wireErrors.detailsOf(error)),
    },
  }];
  const issues = issuesOf(error);
  if (issues !== undefined) {
    details.push({
      desc: BadRequestSchema,
      value: {
        fieldViolations: issues.map((i) => ({
          field: i.path ? `arguments.${i.path}` : "arguments",
          description: i.message,
        })),
      },
    });
  }
  // The error stays its cause: the edge derives a refusal's step-up challenge from it.
  return new ConnectError(error.message, errorCodeToGrpc(error.code), undefined, details, error);
}

/** Flattens an error's data into `ErrorInfo.metadata` (string values): lists are comma-joined, objects JSON. */
function metadataFromData(data: unknown): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (typeof data !== "object" || data === null || Array.isArray(data)) return metadata;
  for (const [key, value] of Object.entries(data)) {
    if (key === "issues" || value === undefined) continue; // issues travel as BadRequest
    metadata[key] = typeof value === "string"
      ? value
      : Array.isArray(value) && value.every((v) => typeof v === "string")
      ? value.join(",")
      : JSON.stringify(value);
  }
  return metadata;
}

function issuesOf(error: McpliteError): ValidationIssue[] | undefined {
  const data = error.data as { issues?: unknown } | undefined;
  return error.code === "invalid_arguments" && Array.isArray(data?.issues)
    ? data.issues as ValidationIssue[]
    : undefined;
}
