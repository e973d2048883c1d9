/**
 * The error family of the SDK: one code set, three classes.
 *
 * The core only ever speaks in {@link ErrorCode}s; each binding maps them to its own wire
 * (JSON-RPC code and HTTP status, gRPC status, Webtools code) in its `status.ts`.
 *
 * @module
 */

/** The protocol-independent error codes the core and bindings use. */
export const ErrorCode = {
  /** The body is not valid JSON. */
  ParseError: "parse_error",
  /** The message is not a valid request (JSON-RPC shape, missing fields). */
  InvalidRequest: "invalid_request",
  /** The method (not the tool) does not exist on this wire. */
  MethodNotFound: "method_not_found",
  /** No tool of that name is registered. */
  UnknownTool: "unknown_tool",
  /** The tool's arguments do not match its input schema. */
  InvalidArguments: "invalid_arguments",
  /** The protocol envelope (MCP's per-request `_meta`) is missing or malformed. */
  InvalidEnvelope: "invalid_envelope",
  /** Some other parameter of the request is invalid. */
  InvalidParams: "invalid_params",
  /** The configuration the caller supplied (Webtools `config`) does not match the tool's `.config()` schema. */
  InvalidConfig: "invalid_config",
  /** The request body is larger than the configured limit. */
  PayloadTooLarge: "payload_too_large",
  /** The request body did not arrive within the configured time (a slow or stalled sender). */
  RequestTimeout: "request_timeout",
  /** The request's content type is not JSON. */
  UnsupportedMediaType: "unsupported_media_type",
  /** The HTTP method is not allowed on this path. */
  MethodNotAllowed: "method_not_allowed",
  /** The request's Origin or Host is not allowed (DNS-rebinding protection). */
  Forbidden: "forbidden",
  /** The caller is not authenticated (set by middleware). */
  Unauthenticated: "unauthenticated",
  /** The caller may not do this (set by middleware). */
  PermissionDenied: "permission_denied",
  /** A protocol header disagrees with the body or is malformed. */
  HeaderMismatch: "header_mismatch",
  /** The request needs a client capability that it did not declare. */
  MissingCapability: "missing_capability",
  /** The requested protocol version is not served. */
  UnsupportedVersion: "unsupported_version",
  /** The named resource does not exist. */
  ResourceNotFound: "resource_not_found",
  /** The caller has sent too many requests. */
  RateLimited: "rate_limited",
  /** The operation ran out of time. */
  DeadlineExceeded: "deadline_exceeded",
  /**
   * A service the server depends on (an issuer's keys, its shared result store) is out of reach for
   * now: retryable, never the caller's fault nor a business failure; `data.retryAfterMs` says when to
   * try again (503 with `Retry-After` on HTTP, `UNAVAILABLE` on gRPC). The service's own error goes to
   * `onError` only.
   */
  Unavailable: "unavailable",
  /** The server failed; details go to `onError` only. */
  Internal: "internal",
} as const;

/** One of the {@link ErrorCode} values. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Options shared by the SDK's error constructors. */
export interface McpliteErrorOptions {
  /** Structured details that are safe to send to the caller. */
  data?: unknown;
  /** The underlying error; kept for logs, never sent over the wire. */
  cause?: unknown;
}

/** The base class of every error the SDK raises on purpose. */
export class McpliteError extends Error {
  /** The protocol-independent error code. */
  readonly code: ErrorCode;
  /** Structured details that are safe to send to the caller. */
  readonly data: unknown;

  /**
   * Creates an error with a code and a message that is safe to show to the caller.
   *
   * @param code The error code.
   * @param message The message, sent over the wire as is.
   * @param options The details and the cause.
   */
  constructor(code: ErrorCode, message: string, options: McpliteErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "McpliteError";
    this.code = code;
    this.data = options.data;
  }
}

/**
 * A wire-level failure: a malformed request, an unknown tool or method, a bad header.
 * Bindings turn it into the wire's error (a JSON-RPC error, a gRPC status, an HTTP status).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ErrorCode, ProtocolError } from "./error.ts";
 * const error = new ProtocolError(ErrorCode.Unauthenticated, "a bearer token is required");
 * assert.equal(error.code, "unauthenticated"); // 401 on HTTP, UNAUTHENTICATED on gRPC
 * ```
 */
export class ProtocolError extends McpliteError {
  /**
   * Creates a protocol error.
   *
   * @param code The error code.
   * @param message The message, sent over the wire as is.
   * @param options The details and the cause.
   */
  constructor(code: ErrorCode, message: string, options?: McpliteErrorOptions) {
    super(code, message, options);
    this.name = "ProtocolError";
  }
}

/**
 * A business failure thrown by a tool handler. The call still succeeds at the protocol level:
 * MCP sees `isError: true`, MCP-lite sees `response_type: "failure"`, both with this message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ToolError } from "./error.ts";
 * function reserve(quota: number): string {
 *   if (quota === 0) throw new ToolError("quota exceeded, try again tomorrow");
 *   return "reserved";
 * }
 * assert.throws(() => reserve(0), ToolError);
 * ```
 */
export class ToolError extends McpliteError {
  /**
   * Creates a tool failure.
   *
   * @param message The message shown to the caller (and the model).
   * @param options Structured details (sent as `structuredContent`) and the cause.
   */
  constructor(message: string, options?: McpliteErrorOptions) {
    super(ErrorCode.Internal, message, options);
    this.name = "ToolError";
  }
}

/**
 * Tells whether a value is a {@link ToolError}.
 *
 * @param error The value to test.
 * @returns `true` for a tool failure.
 */
export function isToolError(error: unknown): error is ToolError {
  return error instanceof ToolError;
}

/**
 * Tells whether a value is a {@link ProtocolError}.
 *
 * @param error The value to test.
 * @returns `true` for a protocol error.
 */
export function isProtocolError(error: unknown): error is ProtocolError {
  return error instanceof ProtocolError;
}
