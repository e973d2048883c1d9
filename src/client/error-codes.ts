/**
 * Which {@link ErrorCode} a server's error names: the one a server of ours sends (JSON-RPC `error.data.code`,
 * gRPC `google.rpc.ErrorInfo.reason`, the Webtools envelope's `error.reason`), else the nearest to the
 * wire's own code, one small table per wire, for servers that send none.
 *
 * @module
 */
import { ErrorCode } from "../core/error.ts";

const KNOWN: ReadonlySet<string> = new Set(Object.values(ErrorCode));

/**
 * Reads an error code a server of ours sent.
 *
 * @param value The field that carries it (`data.code`, `ErrorInfo.reason` in either case, `error.reason`).
 * @returns The code, or `undefined` when the value is not one.
 */
export function sentErrorCode(value: unknown): ErrorCode | undefined {
  if (typeof value !== "string") return undefined;
  const code = value.toLowerCase();
  return KNOWN.has(code) ? code as ErrorCode : undefined;
}

/** HTTP statuses that name a condition whatever the wire (RFC 9110 §15; RFC 6750 §3.1 for 401 and 403). */
const BY_HTTP_STATUS: ReadonlyMap<number, ErrorCode> = new Map([
  [401, ErrorCode.Unauthenticated],
  [403, ErrorCode.PermissionDenied],
  [405, ErrorCode.MethodNotAllowed],
  [408, ErrorCode.RequestTimeout],
  [413, ErrorCode.PayloadTooLarge],
  [415, ErrorCode.UnsupportedMediaType],
  [429, ErrorCode.RateLimited],
  [503, ErrorCode.Unavailable],
  [504, ErrorCode.DeadlineExceeded],
]);

/**
 * The nearest error code to an HTTP status.
 *
 * @param status The HTTP status.
 * @returns The code, or `undefined` for a status that names none.
 */
export function codeOfHttpStatus(status: number | undefined): ErrorCode | undefined {
  return status === undefined ? undefined : BY_HTTP_STATUS.get(status);
}

/** JSON-RPC 2.0 §5.1's named codes, and the ones MCP 2026-07-28 (Basic: error codes) adds. */
const BY_JSONRPC_CODE: ReadonlyMap<number, ErrorCode> = new Map([
  [-32700, ErrorCode.ParseError],
  [-32600, ErrorCode.InvalidRequest],
  [-32601, ErrorCode.MethodNotFound],
  [-32602, ErrorCode.InvalidParams],
  [-32603, ErrorCode.Internal],
  [-32002, ErrorCode.ResourceNotFound], // MCP 2025-11-25, Resources: error handling
  [-32020, ErrorCode.HeaderMismatch],
  [-32021, ErrorCode.MissingCapability],
  [-32022, ErrorCode.UnsupportedVersion],
]);

/**
 * The nearest error code to a JSON-RPC error without `data.code`: the HTTP status where it names a
 * condition (a 401 carries -32001 on our servers, another code elsewhere), else the code; any other
 * number is the server application's own (`custom`).
 *
 * @param code The JSON-RPC code.
 * @param status The HTTP status that carried it, if any.
 * @returns The error code.
 */
export function codeOfJsonRpc(code: number, status?: number): ErrorCode {
  return codeOfHttpStatus(status) ?? BY_JSONRPC_CODE.get(code) ?? ErrorCode.Custom;
}

/** gRPC status codes (gRPC, doc/statuscodes.md) by number, as Connect's `Code` numbers them. */
const BY_GRPC_STATUS: readonly (ErrorCode | undefined)[] = [
  undefined, // OK
  undefined, // CANCELLED: the client's own condition
  ErrorCode.Internal, // UNKNOWN
  ErrorCode.InvalidParams, // INVALID_ARGUMENT
  ErrorCode.DeadlineExceeded, // DEADLINE_EXCEEDED
  ErrorCode.ResourceNotFound, // NOT_FOUND
  ErrorCode.InvalidRequest, // ALREADY_EXISTS
  ErrorCode.PermissionDenied, // PERMISSION_DENIED
  ErrorCode.RateLimited, // RESOURCE_EXHAUSTED
  ErrorCode.MissingCapability, // FAILED_PRECONDITION
  ErrorCode.Internal, // ABORTED
  ErrorCode.InvalidParams, // OUT_OF_RANGE
  ErrorCode.MethodNotFound, // UNIMPLEMENTED
  ErrorCode.Internal, // INTERNAL
  ErrorCode.Unavailable, // UNAVAILABLE
  ErrorCode.Internal, // DATA_LOSS
  ErrorCode.Unauthenticated, // UNAUTHENTICATED
];

/**
 * The nearest error code to a gRPC status without `ErrorInfo`.
 *
 * @param status The gRPC status code.
 * @returns The error code (`internal` for a number gRPC does not define).
 */
export function codeOfGrpcStatus(status: number): ErrorCode {
  return BY_GRPC_STATUS[status] ?? ErrorCode.Internal;
}

/** Webtools' error codes (the spec's five, then this SDK's), where they name one condition. */
const BY_WEBTOOLS_CODE: Readonly<Record<string, ErrorCode>> = {
  WEBTOOL_NOT_FOUND: ErrorCode.UnknownTool,
  SCHEMA_ERROR: ErrorCode.InvalidArguments,
  CONFIG_ERROR: ErrorCode.InvalidConfig,
  RATE_LIMIT: ErrorCode.RateLimited,
  INTERNAL_ERROR: ErrorCode.Internal,
  INVALID_REQUEST: ErrorCode.InvalidRequest,
  UNAUTHENTICATED: ErrorCode.Unauthenticated,
  PERMISSION_DENIED: ErrorCode.PermissionDenied,
  PAYLOAD_TOO_LARGE: ErrorCode.PayloadTooLarge,
  UNSUPPORTED_MEDIA_TYPE: ErrorCode.UnsupportedMediaType,
  METHOD_NOT_ALLOWED: ErrorCode.MethodNotAllowed,
  UNSUPPORTED: ErrorCode.MissingCapability,
  TIMEOUT: ErrorCode.DeadlineExceeded,
  UNAVAILABLE: ErrorCode.Unavailable,
  CUSTOM_ERROR: ErrorCode.Custom,
};

/**
 * The nearest error code to a Webtools error without `error.reason`.
 *
 * @param code The envelope's `error.code`.
 * @param status The HTTP status.
 * @returns The error code.
 */
export function codeOfWebtools(code: unknown, status: number): ErrorCode {
  return (typeof code === "string" ? BY_WEBTOOLS_CODE[code] : undefined) ?? codeOfHttpStatus(status) ??
    ErrorCode.Internal;
}
