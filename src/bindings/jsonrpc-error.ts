/**
 * Turns any error into a JSON-RPC error response, through a wire's status table. Errors the SDK did
 * not raise on purpose are masked as "internal error"; the original goes to `onError` only.
 *
 * @module
 */
import { ErrorCode, McpliteError, ProtocolError, replacementError } from "../core/mod.ts";
import { errorMessage, type JsonRpcId } from "./jsonrpc.ts";
import { JSON_HEADERS } from "../server/responses.ts";

/** A JSON-RPC error code with the HTTP status that carries it. */
export interface WireError {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The HTTP status. */
  readonly status: number;
}

/** A wire's table from error codes to JSON-RPC codes and HTTP statuses. */
export type StatusTable = (code: ErrorCode) => WireError;

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
  if (!(error instanceof McpliteError)) {
    // The reporter may recognise the error and name the one to answer (`onError`'s `{ code, message, data }`).
    const replaced = replacementError(error, onError?.(error));
    if (replaced === undefined) return { ...table(ErrorCode.Internal), message: "Internal error", data: undefined };
    error = replaced;
  }
  const wire = table((error as McpliteError).code);
  const { message, data } = error as McpliteError;
  // A JSON-RPC code raised as a number travels as is (the status stays the table's).
  const rpcCode = error instanceof ProtocolError ? error.rpcCode : undefined;
  return { code: rpcCode ?? wire.code, status: wire.status, message, data };
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
  return wireErrorResponse(errorMessage(id, wire.code, wire.message, wire.data), wire.status, headers);
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
    headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS,
  });
}
