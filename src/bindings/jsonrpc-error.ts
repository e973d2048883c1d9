/**
 * Turns any error into a JSON-RPC error response, through a wire's status table. Errors the SDK did
 * not raise on purpose are masked as "internal error"; the original goes to `onError` only.
 *
 * @module
 */
import { ErrorCode, McpliteError, ProtocolError, wireErrors } from "../core/mod.ts";
import { McpErrorCode } from "../internal/mcp-wire.ts";
import { errorMessage, type JsonRpcId } from "./jsonrpc.ts";
import { answersRefusal, errorHeaders, JSON_HEADERS, retryAfterOf } from "../server/mod.ts";

/** A JSON-RPC error code with the HTTP status that carries it. */
export interface WireError {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The HTTP status. */
  readonly status: number;
}

/** A wire's table from error codes to JSON-RPC codes and HTTP statuses. */
export type StatusTable = (code: ErrorCode) => WireError;

/** A JSON-RPC code and HTTP status for every error code. */
export type WireErrorRows = Readonly<Record<ErrorCode, WireError>>;

/** The rows as written: `[JSON-RPC code, HTTP status]` for each error code (made {@link WireError}s once, at load). */
export type WireRows = Readonly<Record<ErrorCode, readonly [code: number, status: number]>>;

/**
 * The rows the JSON-RPC wires (MCP-lite, MCP in both eras) share: errors of the HTTP envelope carry a
 * 4xx status, errors of the call itself travel with 200, as JSON-RPC intends (JSON-RPC 2.0 §5.1 for the
 * codes). Each wire's `status.ts` overrides the rows its spec assigns otherwise.
 */
const SHARED_ROWS: WireRows = {
  [ErrorCode.ParseError]: [-32700, 400],
  [ErrorCode.InvalidRequest]: [-32600, 400],
  [ErrorCode.MethodNotFound]: [-32601, 200],
  [ErrorCode.UnknownTool]: [-32602, 200], // MCP: invalid params, not an unknown method
  [ErrorCode.InvalidArguments]: [-32602, 200], // the failing paths go in data
  [ErrorCode.InvalidParams]: [-32602, 200],
  [ErrorCode.InvalidConfig]: [-32602, 200],
  [ErrorCode.InvalidEnvelope]: [-32602, 200],
  [ErrorCode.ResourceNotFound]: [-32602, 200],
  [ErrorCode.RequestTimeout]: [-32600, 408], // RFC 9110 §15.5.9: the body did not arrive in time
  [ErrorCode.PayloadTooLarge]: [-32600, 413],
  [ErrorCode.UnsupportedMediaType]: [-32600, 415],
  [ErrorCode.MethodNotAllowed]: [-32600, 405],
  [ErrorCode.Forbidden]: [-32000, 403],
  [ErrorCode.Unauthenticated]: [-32001, 401], // implementation-defined server error range
  [ErrorCode.PermissionDenied]: [-32003, 403],
  [ErrorCode.RateLimited]: [-32029, 200], // raised by middleware; the client keeps the code
  [ErrorCode.HeaderMismatch]: [McpErrorCode.HeaderMismatch, 400],
  [ErrorCode.MissingCapability]: [McpErrorCode.MissingCapability, 400],
  [ErrorCode.UnsupportedVersion]: [McpErrorCode.UnsupportedVersion, 400],
  [ErrorCode.DeadlineExceeded]: [-32603, 200],
  [ErrorCode.Internal]: [-32603, 200], // the MCP reference servers answer 200; clients surface -32603
  // A dependency of ours is down (an issuer's keys, the shared store): JSON-RPC 2.0 §5.1 "Internal error", the
  // fault being ours (MCP 2026-07-28, Basic: -32000..-32019 are old implementation-defined codes, -32020..-32099
  // the spec's), told apart by `data.reason: "unavailable"`; 503 with `Retry-After` (RFC 9110 §15.6.4) says retry.
  [ErrorCode.Unavailable]: [-32603, 503],
  // The application's own code: `errorToWire` sends the error's `rpcCode` in place of this one, on 200 as the
  // call's error (JSON-RPC 2.0 §5.1 leaves -32099..-32000 and codes outside -32768..-32000 to the application).
  [ErrorCode.Custom]: [-32000, 200],
};

/**
 * A wire's rows: the shared JSON-RPC rows with the wire's own overrides, frozen once at load so a
 * lookup allocates nothing.
 *
 * @param overrides The rows where the wire's spec differs from the shared ones.
 * @returns Every error code's JSON-RPC code and HTTP status.
 */
export function wireErrorRows(overrides: Partial<WireRows>): WireErrorRows {
  const rows: Record<string, WireError> = {};
  for (const [name, [code, status]] of Object.entries({ ...SHARED_ROWS, ...overrides })) {
    rows[name] = Object.freeze({ code, status });
  }
  return Object.freeze(rows) as WireErrorRows;
}

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
  if (!(error instanceof McpliteError)) {
    // The reporter may recognise the error and name the one to answer (`onError`'s `{ code, message, data }`).
    const replaced = wireErrors.replacementError(error, onError?.(error));
    if (replaced === undefined) return { ...table(ErrorCode.Internal), message: "Internal error", data: INTERNAL_DATA };
    error = replaced;
  }
  const { code, message, data } = error as McpliteError;
  const wire = table(code);
  // A JSON-RPC code raised as a number travels as is (the status stays the table's), its data as raised.
  const rpcCode = error instanceof ProtocolError ? error.rpcCode : undefined;
  return {
    code: rpcCode ?? wire.code,
    status: wire.status,
    message,
    data: code === ErrorCode.Custom ? data : withCode(code, data),
  };
}

const INTERNAL_DATA = Object.freeze({ code: ErrorCode.Internal });

/**
 * The error's data with its wire-neutral code as `code`, so that a client reads the same code from any
 * JSON-RPC wire of ours (MCP answers an unknown tool -32602, MCP-lite -32601: both say `unknown_tool`).
 * Data that is not an object, or has a `code` of its own, travels as it is.
 */
function withCode(code: ErrorCode, data: unknown): unknown {
  if (data === undefined) return { code };
  if (typeof data !== "object" || data === null || Array.isArray(data) || "code" in data) return data;
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
