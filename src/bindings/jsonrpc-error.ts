/**
 * Turns any error into a JSON-RPC error response, through a wire's status table. Errors the SDK did
 * not raise on purpose are masked as "internal error"; the original goes to `onError` only.
 *
 * @module
 */
import { type McpliteError, ProtocolError, raisedHere, servedCode, type ServedErrorCode } from "../errors/error.ts";
import { wireErrors } from "../core/mod.ts";
import { isObject } from "../internal/is-object.ts";
import type { StatusTable, WireError } from "../errors/jsonrpc-codes.ts";
import { errorMessage, type JsonRpcId } from "./jsonrpc.ts";
import { answersRefusal, errorHeaders, JSON_HEADERS, retryAfterOf } from "../server/mod.ts";

/** An error in its wire form. */
export interface JsonRpcErrorParts extends WireError {
  /** The message. */
  readonly message: string;
  /** The details, if any. */
  readonly data: unknown;
}

/**
 * Converts an error to its wire form.
 *
 * @param error What was thrown.
 * @param table The wire's status table.
 * @param onError Receives errors that get masked.
 * @returns The code, status, message and data.
 */
export function errorToWire(
  error: unknown,
  table: StatusTable,
  onError?: (error: unknown) => unknown,
): JsonRpcErrorParts {
  wireErrors.reportDetail(error, onError); // the detail an error keeps for logs (a proxy's remote failure)
  if (!raisedHere(error)) {
    // The reporter may recognise the error and name the one to answer (`onError`'s `{ code, message, data }`).
    const replaced = wireErrors.replacementError(error, onError?.(error));
    if (replaced === undefined) return { ...table("internal"), message: "Internal error", data: INTERNAL_DATA };
    error = replaced;
  }
  const { message, data } = error as McpliteError;
  const code = servedCode((error as McpliteError).code);
  const wire = table(code);
  // A JSON-RPC code raised as a number travels as is (the status stays the table's), its data as raised.
  const rpcCode = error instanceof ProtocolError ? error.rpcCode : undefined;
  return {
    code: rpcCode ?? wire.code,
    status: wire.status,
    message,
    data: code === "custom" ? data : withCode(code, data),
  };
}

const INTERNAL_DATA = Object.freeze({ code: "internal" });

/**
 * The error's data with its wire-neutral code as `code`, so that a client reads the same code from any
 * JSON-RPC wire of ours (MCP answers an unknown tool -32602, MCP-lite -32601: both say `unknown_tool`).
 * Data that is not an object, or has a `code` of its own, travels as it is.
 */
function withCode(code: ServedErrorCode, data: unknown): unknown {
  if (data === undefined) return { code };
  if (!isObject(data) || "code" in data) return data;
  return { code, ...data };
}

/**
 * Serialises any error as a JSON-RPC error response message.
 *
 * @param id The request id (`null` when unknown).
 * @param error What was thrown.
 * @param table The wire's status table.
 * @param onError Receives errors that get masked; may return the error to answer instead.
 * @returns The JSON text.
 */
export function jsonRpcErrorMessage(
  id: JsonRpcId | undefined,
  error: unknown,
  table: StatusTable,
  onError?: (error: unknown) => unknown,
): string {
  const wire = errorToWire(error, table, onError);
  return errorMessage(id, wire.code, wire.message, wire.data);
}

/**
 * Creates a JSON-RPC error response.
 *
 * @param id The request id (`null` when unknown).
 * @param error What was thrown.
 * @param table The wire's status table.
 * @param onError Receives errors that get masked.
 * @param headers Extra response headers.
 * @returns The response.
 */
export function jsonRpcErrorResponse(
  id: JsonRpcId | undefined,
  error: unknown,
  table: StatusTable,
  onError?: (error: unknown) => unknown,
  headers?: Record<string, string>,
): Response {
  const wire = errorToWire(error, table, onError);
  const retry = retryHeaders(wire);
  if (retry !== undefined) headers = { ...headers, ...retry };
  const response = wireErrorResponse(errorMessage(id, wire.code, wire.message, wire.data), wire.status, headers);
  return answersRefusal(response, error); // a refusal for a scope: the edge adds its step-up challenge
}

/**
 * The `Retry-After` header of an error in its wire form: a 503 or 429 tells when to come back (RFC 9110
 * §15.6.4, §10.2.3), from the error's `data.retryAfterMs`; on 200 the data says it.
 *
 * @param wire The error in its wire form.
 * @returns `{ "retry-after": seconds }`, or `undefined` when the status or the error names no delay.
 */
export function retryHeaders(wire: JsonRpcErrorParts): Record<string, string> | undefined {
  const retryAfter = wire.status === 200 ? undefined : retryAfterOf(wire);
  return retryAfter === undefined ? undefined : { "retry-after": retryAfter };
}

/**
 * Creates the HTTP response of a serialised JSON-RPC error.
 *
 * @param message The serialised error response.
 * @param status Its HTTP status.
 * @param headers Extra response headers.
 * @returns The response.
 */
export function wireErrorResponse(message: string, status: number, headers?: Record<string, string>): Response {
  return new Response(message, {
    status,
    headers: errorHeaders(status, headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS),
  });
}
