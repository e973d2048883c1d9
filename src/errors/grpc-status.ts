/**
 * gRPC status codes (gRPC, doc/statuscodes.md) without Connect: the binding's table from error codes to
 * them (MCP-lite spec v0.042 §5.5), and their names, which `otel()` records (OpenTelemetry semantic
 * conventions for gRPC: `rpc.response.status_code`) without loading Connect.
 *
 * @module
 */
import { ErrorCode, servedCode } from "./error.ts";
import { assertNever } from "../internal/assert-never.ts";

/** The gRPC status codes by name; Connect's `Code` has the same numbers. */
export const GrpcStatus = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

/** A gRPC status code. */
export type GrpcStatus = typeof GrpcStatus[keyof typeof GrpcStatus];

const NAMES = Object.fromEntries(Object.entries(GrpcStatus).map(([name, code]) => [code, name]));

/**
 * A status code's name, as gRPC's documentation writes it (`NOT_FOUND`).
 *
 * @param code The status code.
 * @returns The name; `UNKNOWN` for a number gRPC does not define.
 */
export function grpcStatusName(code: number): string {
  return NAMES[code] ?? "UNKNOWN";
}

/**
 * The gRPC status the binding answers an error code with.
 *
 * @param code The error code.
 * @returns The status code.
 */
export function grpcStatusOf(code: ErrorCode): GrpcStatus {
  const served = servedCode(code); // a client-only code a handler threw: its nearest served one
  switch (served) {
    case "parse_error": // a body that does not decode
    case "invalid_request": // a malformed request, e.g. no tool name
    case "invalid_arguments": // §5.5: invalid parameters
    case "invalid_envelope":
    case "invalid_params":
    case "invalid_config":
    case "header_mismatch":
      return GrpcStatus.INVALID_ARGUMENT;
    case "method_not_found": // the RPC (not the tool) does not exist
    case "method_not_allowed":
    case "unsupported_media_type":
      return GrpcStatus.UNIMPLEMENTED;
    case "unknown_tool": // §5.5: tool not found
    case "resource_not_found":
      return GrpcStatus.NOT_FOUND;
    case "payload_too_large": // gRPC's own answer to an oversized message
    case "rate_limited":
      return GrpcStatus.RESOURCE_EXHAUSTED;
    case "forbidden":
    case "permission_denied": // from authorization middleware
      return GrpcStatus.PERMISSION_DENIED;
    case "unauthenticated": // from authentication middleware
      return GrpcStatus.UNAUTHENTICATED;
    case "missing_capability": // the call needs something this wire cannot do (e.g. ask the client)
    case "unsupported_version":
      return GrpcStatus.FAILED_PRECONDITION;
    case "request_timeout": // the request's body did not arrive in time
    case "deadline_exceeded": // §5.5: timeout (before a promise)
      return GrpcStatus.DEADLINE_EXCEEDED;
    case "unavailable": // gRPC status codes: "most likely a transient condition", safe to retry
      return GrpcStatus.UNAVAILABLE;
    case "internal": // §5.5: server error
      return GrpcStatus.INTERNAL;
    case "custom": // the application's JSON-RPC code, kept in ErrorInfo.metadata.jsonrpcCode
      return GrpcStatus.UNKNOWN;
    default:
      return assertNever(served);
  }
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
