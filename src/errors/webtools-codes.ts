/**
 * The REST wires' table from error codes to Webtools' error codes and HTTP statuses: Webtools sends
 * both, OpenAPI's problem details (RFC 9457) the status.
 *
 * @module
 */
import { ErrorCode, servedCode } from "./error.ts";
import { codeOfHttpStatus } from "./http-status.ts";
import { assertNever } from "../internal/assert-never.ts";

/**
 * The Webtools error codes: the five the spec defines, then this SDK's own for the cases the spec
 * leaves open (webtools "MAY define their own custom error codes").
 */
export const WebtoolsCode = {
  /** The webtool, the version or the action does not exist (spec). */
  NotFound: "WEBTOOL_NOT_FOUND",
  /** The request does not match the action's `requestSchema` (spec). */
  SchemaError: "SCHEMA_ERROR",
  /** The configuration does not match the webtool's `configSchema` (spec). */
  ConfigError: "CONFIG_ERROR",
  /** Too many requests (spec). */
  RateLimit: "RATE_LIMIT",
  /** An unrecoverable server error; details never leave the server (spec). */
  InternalError: "INTERNAL_ERROR",
  /** The body is not JSON, or not a `{ action, request }` envelope. */
  InvalidRequest: "INVALID_REQUEST",
  /** The tool ran and reported a business failure. */
  ToolError: "TOOL_ERROR",
  /** The caller is not authenticated. */
  Unauthenticated: "UNAUTHENTICATED",
  /** The caller may not do this. */
  PermissionDenied: "PERMISSION_DENIED",
  /** The body is over the server's limit. */
  PayloadTooLarge: "PAYLOAD_TOO_LARGE",
  /** The body is not `application/json`. */
  UnsupportedMediaType: "UNSUPPORTED_MEDIA_TYPE",
  /** The HTTP method is not served on this path. */
  MethodNotAllowed: "METHOD_NOT_ALLOWED",
  /** The tool needs something this wire cannot give (asking the client for input). */
  Unsupported: "UNSUPPORTED",
  /** The call ran out of time. */
  Timeout: "TIMEOUT",
  /** A service the server depends on is out of reach for now: send again after `Retry-After`. */
  Unavailable: "UNAVAILABLE",
  /** An error code of the application's own (`new ProtocolError(-32001, …)`); `details.jsonrpcCode` holds it. */
  CustomError: "CUSTOM_ERROR",
} as const;

/** One of the {@link WebtoolsCode} values. */
export type WebtoolsCode = (typeof WebtoolsCode)[keyof typeof WebtoolsCode];

/** A Webtools error code with the HTTP status that carries it. */
export interface WebtoolsStatus {
  /** The `error.code` of the envelope. */
  readonly code: WebtoolsCode;
  /** The HTTP status. */
  readonly status: number;
}

/**
 * Maps an error code to the Webtools error code and HTTP status.
 *
 * @param code The error code.
 * @returns The Webtools code and HTTP status.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ErrorCode } from "./error.ts";
 * import { errorCodeToWebtools } from "./webtools-codes.ts";
 * assert.deepEqual(errorCodeToWebtools(ErrorCode.RateLimited), { code: "RATE_LIMIT", status: 429 });
 * ```
 */
export function errorCodeToWebtools(code: ErrorCode): WebtoolsStatus {
  const served = servedCode(code); // a client-only code a handler threw: its nearest served one
  switch (served) {
    case "parse_error": // the body is not JSON
    case "invalid_request": // the envelope lacks `action` or has fields of the wrong type
    case "invalid_params": // some other field of the envelope is wrong
    case "invalid_envelope": // no per-request envelope on this wire; kept for middleware that raises it
    case "header_mismatch": // a header disagrees with the body
      return { code: WebtoolsCode.InvalidRequest, status: 400 };
    case "method_not_found": // no such path under the base
    case "unknown_tool": // no such action
    case "unsupported_version": // no such version of the tool set
    case "resource_not_found": // something the action names does not exist
      return { code: WebtoolsCode.NotFound, status: 404 };
    case "invalid_arguments": // `request` does not match the action's requestSchema
      return { code: WebtoolsCode.SchemaError, status: 400 };
    case "invalid_config": // `config` does not match the action's configSchema
      return { code: WebtoolsCode.ConfigError, status: 400 };
    case "rate_limited": // raised by rate-limit middleware
      return { code: WebtoolsCode.RateLimit, status: 429 };
    case "payload_too_large":
      return { code: WebtoolsCode.PayloadTooLarge, status: 413 };
    case "request_timeout": // RFC 9110 §15.5.9: the body did not arrive in time
      return { code: WebtoolsCode.Timeout, status: 408 };
    case "unsupported_media_type": // the spec: all requests MUST be application/json
      return { code: WebtoolsCode.UnsupportedMediaType, status: 415 };
    case "method_not_allowed":
      return { code: WebtoolsCode.MethodNotAllowed, status: 405 };
    case "forbidden": // DNS-rebinding guard; the server answers it before the binding
    case "permission_denied": // raised by authorisation middleware
      return { code: WebtoolsCode.PermissionDenied, status: 403 };
    case "unauthenticated": // raised by authentication middleware
      return { code: WebtoolsCode.Unauthenticated, status: 401 };
    case "missing_capability": // a handler asked for elicitation, sampling or roots: no channel here
      return { code: WebtoolsCode.Unsupported, status: 501 };
    case "deadline_exceeded":
      return { code: WebtoolsCode.Timeout, status: 504 };
    case "unavailable": // RFC 9110 §15.6.4: temporary, with `Retry-After`
      return { code: WebtoolsCode.Unavailable, status: 503 };
    case "internal": // the server's own failure: the message is masked unless raised on purpose
      return { code: WebtoolsCode.InternalError, status: 500 };
    case "custom": // the application's JSON-RPC code, kept in details.jsonrpcCode
      return { code: WebtoolsCode.CustomError, status: 500 };
    default:
      return assertNever(served);
  }
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
