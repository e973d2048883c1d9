/**
 * The error family of the SDK, one for server and client alike: one code set, three classes. A server raises
 * them; a client reads the same classes and codes off every wire (the server's code travels with the error),
 * and adds the conditions only a client meets (`transport`, `timeout`, …) as codes, not classes.
 *
 * The core only ever speaks in {@link ErrorCode}s; each wire's table (`src/errors/`) maps them to the wire's own
 * (JSON-RPC code and HTTP status, gRPC status, Webtools code) and back.
 *
 * @module
 */

/**
 * The protocol-independent error codes, on both sides: what a server raises, and what a client reads (the
 * server's code, or one of the conditions only a client meets, listed last). `otel()` and `otelClient()`
 * record the same string as `error.type`.
 */
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
  /**
   * A JSON-RPC code of the application's own (`new ProtocolError(-32001, …)`), in the error's `rpcCode`:
   * sent as is on MCP and MCP-lite; on gRPC and Webtools, mapped with the code kept in the details.
   */
  Custom: "custom",
  /** A tool ran and failed: MCP's `isError: true`, MCP-lite's `response_type: "failure"` ({@link ToolError}). */
  ToolFailed: "tool_error",
  /** Client only: the server answered with a reply this client cannot read. */
  Protocol: "protocol",
  /** Client only: no readable answer (a network failure, an HTTP error without a reply, a cut stream). */
  Transport: "transport",
  /** Client only: nothing (no result, no progress) arrived within the client's own limit. */
  Timeout: "timeout",
  /** Client only: the server cancelled the work (a task that ended `cancelled`). */
  Cancelled: "cancelled",
  /** Client only: the server needs input (elicitation, sampling, roots) no handler of the client gives. */
  InputRequired: "input_required",
  /** Client only: the transport cannot do this (tasks over MCP-lite, say). */
  Unsupported: "unsupported",
} as const;

/** One of the {@link ErrorCode} values. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The codes a server answers with: a condition only a client meets is answered as the nearest of these. */
export type ServedErrorCode = Exclude<
  ErrorCode,
  "tool_error" | "protocol" | "transport" | "timeout" | "cancelled" | "input_required" | "unsupported"
>;

/**
 * The code a server answers an error with: its own, or for a condition only a client meets (a handler threw
 * one on purpose) the nearest a server has.
 *
 * @param code The error's code.
 * @returns The code the wire's table maps.
 */
export function servedCode(code: ErrorCode): ServedErrorCode {
  switch (code) {
    case "timeout":
      return "deadline_exceeded";
    case "transport":
      return "unavailable";
    case "input_required":
    case "unsupported":
      return "missing_capability";
    case "tool_error":
    case "protocol":
    case "cancelled":
      return "internal";
    default:
      return code;
  }
}

/** Options shared by the SDK's error constructors. */
export interface McpliteErrorOptions {
  /** Structured details that are safe to send to the caller. */
  data?: unknown;
  /** The underlying error; kept for logs, never sent over the wire. */
  cause?: unknown;
  /** The HTTP status of the response the error was read from (set by the client). */
  status?: number;
  /** The JSON-RPC code the error was read with (set by the client; a server sends a custom one as the code). */
  rpcCode?: number;
}

/**
 * The base class of every error the SDK raises on purpose, on the server and in the client. Catch it and
 * read `code`: the subclasses are the two conditions a caller handles apart, a refusal at the protocol level
 * ({@link ProtocolError}) and a tool's own failure ({@link ToolError}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ErrorCode, McpliteError } from "./error.ts";
 * const error = new McpliteError(ErrorCode.Timeout, "no answer within 30000 ms");
 * assert.ok(error instanceof McpliteError && error.code === "timeout");
 * ```
 */
export class McpliteError extends Error {
  /** The protocol-independent error code. */
  declare readonly code: ErrorCode;
  /** Structured details that are safe to send to the caller. */
  declare readonly data: unknown;
  /** The HTTP status of the response it was read from, when a client read it from one. */
  declare readonly status: number | undefined;
  /** The JSON-RPC code: the one it was raised with as a number, or the one a client read it with. */
  declare readonly rpcCode: number | undefined;

  /**
   * Creates an error with a code and a message that is safe to show to the caller.
   *
   * @param code The error code.
   * @param message The message, sent over the wire as is.
   * @param options The details and the cause.
   */
  constructor(code: ErrorCode, message: string, options: McpliteErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.data = options.data;
    this.status = options.status;
    this.rpcCode = options.rpcCode;
    this.name = "McpliteError";
  }
}

/** Marks an error a client made or read (a symbol-keyed property: JSON leaves it behind). */
const BY_CLIENT = /* @__PURE__ */ Symbol();

/**
 * Marks an error as made or read by a client: a server that meets it (a handler let a client's error
 * through) treats it as any other unexpected error, never as one it raised on purpose, so a message that may
 * quote a URL or a body is not answered as is.
 *
 * @param error The error the client read.
 * @returns `error`.
 */
export function byClient<E extends McpliteError>(error: E): E {
  (error as { [BY_CLIENT]?: true })[BY_CLIENT] = true;
  return error;
}

/**
 * Tells whether a value is an error a client made or read ({@link byClient}).
 *
 * @param error The value to test.
 * @returns `true` for such an error.
 */
export function madeByClient(error: unknown): error is McpliteError {
  return error instanceof McpliteError && (error as { [BY_CLIENT]?: true })[BY_CLIENT] === true;
}

/**
 * Tells whether a value is an error a server raised on purpose (not one a client made or read).
 *
 * @param error The value to test.
 * @returns `true` for an {@link McpliteError} raised here.
 */
export function raisedHere(error: unknown): error is McpliteError {
  return error instanceof McpliteError && (error as { [BY_CLIENT]?: true })[BY_CLIENT] !== true;
}

/**
 * The codes JSON-RPC 2.0 names (§5.1), as the SDK's own. Written as strings: a bundler keeps a table that
 * reads `ErrorCode.X`, and with it `ErrorCode`, in a client that imports this module for the type alone.
 */
export const NAMED_RPC_CODES: ReadonlyMap<number, ErrorCode> = new Map<number, ErrorCode>([
  [-32700, "parse_error"],
  [-32600, "invalid_request"],
  [-32601, "method_not_found"],
  [-32602, "invalid_params"],
  [-32603, "internal"],
]);

/**
 * A wire-level failure: a malformed request, an unknown tool or method, a bad header, or an error code
 * of the application's own. Bindings turn it into the wire's error (a JSON-RPC error, a gRPC status,
 * an HTTP status).
 *
 * A number gives the JSON-RPC code itself: the five JSON-RPC 2.0 names (§5.1: -32700, -32600 to
 * -32603) stand for their {@link ErrorCode}s; any other integer outside the range JSON-RPC reserves
 * (-32768 to -32100; the server-error range -32099 to -32000 is the application's) is a custom code,
 * `ErrorCode.Custom` with the number in `rpcCode`: sent as is on MCP and MCP-lite, `UNKNOWN` on gRPC
 * and `CUSTOM_ERROR` (500) on Webtools, the number kept as `jsonrpcCode` in `ErrorInfo` and `details`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ErrorCode, ProtocolError } from "./error.ts";
 * const error = new ProtocolError(ErrorCode.Unauthenticated, "a bearer token is required");
 * assert.equal(error.code, "unauthenticated"); // 401 on HTTP, UNAUTHENTICATED on gRPC
 * const custom = new ProtocolError(-32001, "Custom error", { data: { retry: false } });
 * assert.equal(custom.code, ErrorCode.Custom);
 * assert.equal(custom.rpcCode, -32001); // on MCP and MCP-lite: { code: -32001, message: "Custom error", data }
 * ```
 */
export class ProtocolError extends McpliteError {
  /**
   * Creates a protocol error.
   *
   * @param code The error code, or a JSON-RPC code (an integer outside -32768 to -32100, or one of the
   *   five JSON-RPC 2.0 names).
   * @param message The message, sent over the wire as is.
   * @param options The details and the cause.
   * @throws {RangeError} For a number that is not an integer, or one JSON-RPC reserves without naming it.
   */
  constructor(code: ErrorCode | number, message: string, options?: McpliteErrorOptions) {
    super(
      typeof code === "number" ? errorCodeOf(code) : code,
      message,
      typeof code === "number" ? { ...options, rpcCode: code } : options,
    );
    this.name = "ProtocolError";
  }
}

function errorCodeOf(rpcCode: number): ErrorCode {
  const named = NAMED_RPC_CODES.get(rpcCode);
  if (named !== undefined) return named;
  if (!Number.isSafeInteger(rpcCode) || (rpcCode >= -32768 && rpcCode <= -32100)) {
    throw new RangeError(
      `ProtocolError: ${rpcCode} is reserved by JSON-RPC 2.0 (§5.1); a custom code is an integer outside -32768..-32100`,
    );
  }
  return "custom";
}

/**
 * The details a wire without JSON-RPC codes (gRPC's `ErrorInfo.metadata`, Webtools' `details`) sends
 * for an error: its data, plus `jsonrpcCode` for a custom JSON-RPC code, which that wire cannot carry.
 *
 * @param error The error.
 * @returns The details.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detailsOf, ProtocolError } from "./error.ts";
 * assert.deepEqual(detailsOf(new ProtocolError(-32001, "Custom error", { data: { id: 7 } })), { id: 7, jsonrpcCode: -32001 });
 * ```
 */
export function detailsOf(error: McpliteError): unknown {
  if (!(error instanceof ProtocolError) || error.code !== "custom") return error.data;
  const data = error.data;
  const own = typeof data === "object" && data !== null && !Array.isArray(data)
    ? data
    : data === undefined
    ? {}
    : { data };
  return { ...own, jsonrpcCode: error.rpcCode };
}

/** What `onError` may return to answer an error it recognises instead of the masked internal error. */
export interface ErrorReplacement {
  /** The JSON-RPC code (as `new ProtocolError(code, …)` takes it), or an {@link ErrorCode}. */
  readonly code: number | ErrorCode;
  /** The message, sent as is. */
  readonly message: string;
  /** Details sent with it. */
  readonly data?: unknown;
}

/**
 * Turns what an error reporter returned into the error to answer, when it returned a replacement.
 *
 * @param error The error reported.
 * @param returned What the reporter returned.
 * @returns The protocol error to answer, or `undefined` for the default (the reporter returned nothing,
 *   or something that is not a valid replacement).
 */
export function replacementError(error: unknown, returned: unknown): ProtocolError | undefined {
  if (typeof returned !== "object" || returned === null) return undefined;
  const { code, message, data } = returned as Partial<ErrorReplacement>;
  if (typeof message !== "string" || (typeof code !== "number" && typeof code !== "string")) return undefined;
  try {
    return new ProtocolError(code as ErrorCode | number, message, { data, cause: error });
  } catch {
    return undefined; // a reserved number: the default answer stands
  }
}

/**
 * A tool's own failure: thrown by a handler, and thrown by the client when a tool it called failed. The call
 * still succeeds at the protocol level: MCP sees `isError: true`, MCP-lite sees `response_type: "failure"`,
 * both with this message; the client reads it back as a `ToolError` with the same message, `data` (the
 * structured content), the tool's name and the whole result.
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
  /** The tool that failed, when a client read the failure. */
  declare readonly tool: string | undefined;
  /** The whole failed result (its content and structured content), when a client read the failure. */
  declare readonly result: Readonly<Record<string, unknown>> | undefined;

  /**
   * Creates a tool failure.
   *
   * @param message The message shown to the caller (and the model).
   * @param options Structured details (sent as `structuredContent`) and the cause; a client adds the tool's
   *   name and the result it read.
   */
  constructor(
    message: string,
    options?: McpliteErrorOptions & { tool?: string; result?: Readonly<Record<string, unknown>> },
  ) {
    super("tool_error", message, options); // a literal: a client that names no code bundles no ErrorCode
    this.name = "ToolError";
    this.tool = options?.tool;
    this.result = options?.result;
  }
}
