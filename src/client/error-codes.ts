/**
 * Which {@link ErrorCode} a server's error names: the one a server of ours sends (JSON-RPC `error.data.code`,
 * gRPC `google.rpc.ErrorInfo.reason`, the Webtools envelope's `error.reason`), else the nearest to the
 * wire's own code, one small table per wire, for servers that send none.
 *
 * @module
 */
import type { ErrorCode } from "../core/error.ts";

// The values as one string, not `Object.values(ErrorCode)`, so that the client bundles no `ErrorCode`
// object; `satisfies Listed` fails to type-check when the list and the type differ.
type Words<S extends string> = S extends `${infer W} ${infer R}` ? W | Words<R> : S;
type Listed<S extends string> = [Exclude<ErrorCode, Words<S>> | Exclude<Words<S>, ErrorCode>] extends [never] ? S
  : never;
const LIST =
  "parse_error invalid_request method_not_found unknown_tool invalid_arguments invalid_envelope invalid_params invalid_config payload_too_large request_timeout unsupported_media_type method_not_allowed forbidden unauthenticated permission_denied header_mismatch missing_capability unsupported_version resource_not_found rate_limited deadline_exceeded unavailable internal custom";
const KNOWN: ReadonlySet<string> = new Set((LIST satisfies Listed<typeof LIST>).split(" "));

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
  [401, "unauthenticated"],
  [403, "permission_denied"],
  [405, "method_not_allowed"],
  [408, "request_timeout"],
  [413, "payload_too_large"],
  [415, "unsupported_media_type"],
  [429, "rate_limited"],
  [503, "unavailable"],
  [504, "deadline_exceeded"],
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
  [-32700, "parse_error"],
  [-32600, "invalid_request"],
  [-32601, "method_not_found"],
  [-32602, "invalid_params"],
  [-32603, "internal"],
  [-32002, "resource_not_found"], // MCP 2025-11-25, Resources: error handling
  [-32020, "header_mismatch"],
  [-32021, "missing_capability"],
  [-32022, "unsupported_version"],
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
  return codeOfHttpStatus(status) ?? BY_JSONRPC_CODE.get(code) ?? "custom";
}

/** gRPC status codes (gRPC, doc/statuscodes.md) by number, as Connect's `Code` numbers them. */
const BY_GRPC_STATUS: readonly (ErrorCode | undefined)[] = [
  undefined, // OK
  undefined, // CANCELLED: the client's own condition
  "internal", // UNKNOWN
  "invalid_params", // INVALID_ARGUMENT
  "deadline_exceeded", // DEADLINE_EXCEEDED
  "resource_not_found", // NOT_FOUND
  "invalid_request", // ALREADY_EXISTS
  "permission_denied", // PERMISSION_DENIED
  "rate_limited", // RESOURCE_EXHAUSTED
  "missing_capability", // FAILED_PRECONDITION
  "internal", // ABORTED
  "invalid_params", // OUT_OF_RANGE
  "method_not_found", // UNIMPLEMENTED
  "internal", // INTERNAL
  "unavailable", // UNAVAILABLE
  "internal", // DATA_LOSS
  "unauthenticated", // UNAUTHENTICATED
];

/**
 * The nearest error code to a gRPC status without `ErrorInfo`.
 *
 * @param status The gRPC status code.
 * @returns The error code (`internal` for a number gRPC does not define).
 */
export function codeOfGrpcStatus(status: number): ErrorCode {
  return BY_GRPC_STATUS[status] ?? "internal";
}

/** Webtools' error codes (the spec's five, then this SDK's), where they name one condition. */
const BY_WEBTOOLS_CODE: Readonly<Record<string, ErrorCode>> = {
  WEBTOOL_NOT_FOUND: "unknown_tool",
  SCHEMA_ERROR: "invalid_arguments",
  CONFIG_ERROR: "invalid_config",
  RATE_LIMIT: "rate_limited",
  INTERNAL_ERROR: "internal",
  INVALID_REQUEST: "invalid_request",
  UNAUTHENTICATED: "unauthenticated",
  PERMISSION_DENIED: "permission_denied",
  PAYLOAD_TOO_LARGE: "payload_too_large",
  UNSUPPORTED_MEDIA_TYPE: "unsupported_media_type",
  METHOD_NOT_ALLOWED: "method_not_allowed",
  UNSUPPORTED: "missing_capability",
  TIMEOUT: "deadline_exceeded",
  UNAVAILABLE: "unavailable",
  CUSTOM_ERROR: "custom",
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
    "internal";
}
