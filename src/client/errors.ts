/**
 * The client's error family: one base class with the server's `ErrorCode` (or a condition only a client
 * meets), the JSON-RPC code, the HTTP status and the error's data, and one subclass per thing a caller may
 * want to catch.
 *
 * @module
 */
import { ErrorCode } from "../core/error.ts";
import { RESULT_ERROR_CODE } from "../internal/mcp-wire.ts";
import { codeOfHttpStatus, codeOfJsonRpc, sentErrorCode } from "./error-codes.ts";

/**
 * What went wrong, as a stable string (the discriminant of {@link ClientError}): the server's
 * {@link ErrorCode} for every condition a server names (`unknown_tool`, `invalid_arguments`,
 * `unauthenticated`, `permission_denied`, …, read from the wire: see {@link RpcError}), then the
 * conditions only a client meets. `otelClient()` records the same string as `error.type`, and so does
 * the server's `otel()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ClientErrorCode } from "./errors.ts";
 * import { ErrorCode } from "../core/error.ts";
 * assert.equal(ClientErrorCode.UnknownTool, ErrorCode.UnknownTool); // one vocabulary
 * ```
 */
// Made by a call marked pure: a spread is not side-effect free to a bundler, and a client that names no
// code by this object then bundles neither it nor `ErrorCode` (−0.9 KB minified). The type is written out
// for the API's documentation, which cannot read a call's result.
export const ClientErrorCode: typeof ErrorCode & {
  /** The tool ran and failed (`isError: true`, MCP-lite `response_type: "failure"`). */
  readonly ToolFailed: "tool_error";
  /** The server answered with a reply this client cannot read. */
  readonly Protocol: "protocol";
  /** The request never got a readable answer: network failure, an HTTP error without JSON-RPC, a cut stream. */
  readonly Transport: "transport";
  /** Nothing (no result, no progress) arrived in time, or the total time ran out. */
  readonly Timeout: "timeout";
  /** The server cancelled the work (a task that ended `cancelled`). */
  readonly Cancelled: "cancelled";
  /** The server needs input (elicitation, sampling, roots) that no handler of this client can give. */
  readonly InputRequired: "input_required";
  /** The transport cannot do this (e.g. tasks over MCP-lite). */
  readonly Unsupported: "unsupported";
} = /* @__PURE__ */ (() => ({
  ...ErrorCode,
  ToolFailed: "tool_error",
  Protocol: "protocol",
  Transport: "transport",
  Timeout: "timeout",
  Cancelled: "cancelled",
  InputRequired: "input_required",
  Unsupported: "unsupported",
} as const))();

/** One of the {@link ClientErrorCode} values: an {@link ErrorCode}, or a condition only a client meets. */
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];

/** Options shared by the client's error constructors. */
export interface ClientErrorOptions {
  /** The JSON-RPC error code, when the server sent one. */
  rpcCode?: number;
  /** The HTTP status of the response, when there was one. */
  status?: number;
  /** The error's `data`, or other structured details. */
  data?: unknown;
  /** The underlying error. */
  cause?: unknown;
}

/** The base class of every error the client raises. */
export class ClientError extends Error {
  /** What went wrong. */
  readonly code: ClientErrorCode;
  /** The JSON-RPC error code, when the server sent one. */
  readonly rpcCode: number | undefined;
  /** The HTTP status of the response, when there was one. */
  readonly status: number | undefined;
  /** The error's `data`, or other structured details. */
  readonly data: unknown;

  /**
   * Creates a client error.
   *
   * @param code What went wrong.
   * @param message A human-readable message.
   * @param options The JSON-RPC code, HTTP status, data and cause.
   */
  constructor(code: ClientErrorCode, message: string, options: ClientErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ClientError";
    this.code = code;
    this.rpcCode = options.rpcCode;
    this.status = options.status;
    this.data = options.data;
  }
}

/** The client could not authorize: discovery, registration, consent or the token request failed. */
export class AuthorizationError extends ClientError {
  /**
   * Creates the error.
   *
   * @param message What failed, never a token or secret.
   * @param options The HTTP status and cause.
   */
  constructor(message: string, options?: ClientErrorOptions) {
    super("unauthenticated", message, options);
    this.name = "AuthorizationError";
  }
}

/**
 * The server answered with a protocol error (a JSON-RPC error, a gRPC status, a Webtools error
 * envelope), or with a reply the client cannot read (`protocol`). Its `code` is the server's
 * {@link ErrorCode}: the one a server of ours sends (JSON-RPC `error.data.code`, gRPC
 * `google.rpc.ErrorInfo.reason`, Webtools `error.reason`), else the nearest to the wire's own code.
 */
export class RpcError extends ClientError {
  /**
   * Creates the error.
   *
   * @param message The server's message.
   * @param options The JSON-RPC code, HTTP status and data.
   * @param code The server's code (default `protocol`: a reply the client cannot read).
   */
  constructor(message: string, options?: ClientErrorOptions, code: ClientErrorCode = "protocol") {
    super(code, message, options);
    this.name = "RpcError";
  }
}

/** The server has no tool of that name; `data` often lists the tools it has and a suggestion. */
export class ToolNotFoundError extends RpcError {
  /**
   * Creates the error.
   *
   * @param message The server's message.
   * @param options The JSON-RPC code, HTTP status and data.
   */
  constructor(message: string, options?: ClientErrorOptions) {
    super(message, options, "unknown_tool");
    this.name = "ToolNotFoundError";
  }
}

/** The server rejected the arguments; `data.issues` names the fields when the server says. */
export class InvalidArgumentsError extends RpcError {
  /**
   * Creates the error.
   *
   * @param message The server's message.
   * @param options The JSON-RPC code, HTTP status and data.
   */
  constructor(message: string, options?: ClientErrorOptions) {
    super(message, options, "invalid_arguments");
    this.name = "InvalidArgumentsError";
  }
}

/**
 * The request never got a readable answer. Its `code` is `transport`, or the condition an HTTP status
 * names without a body the client can read (401 `unauthenticated`, 403 `permission_denied`, 429
 * `rate_limited`, 503 `unavailable`, …).
 */
export class TransportError extends ClientError {
  /**
   * Creates a transport error.
   *
   * @param message What happened.
   * @param options The HTTP status and the cause.
   */
  constructor(message: string, options?: ClientErrorOptions) {
    super(codeOfHttpStatus(options?.status) ?? "transport", message, options);
    this.name = "TransportError";
  }
}

/**
 * Nothing arrived in time. Its `code` says whose limit ran out: `timeout` for the client's own
 * (`timeoutMs`), `deadline_exceeded` for a deadline the server reported (gRPC `DEADLINE_EXCEEDED`), the
 * code the server's span names it by.
 */
export class TimeoutError extends ClientError {
  /**
   * Creates a timeout error.
   *
   * @param message Which limit ran out.
   * @param options The limit, as data.
   * @param code `timeout` (the client's own limit, the default) or `deadline_exceeded` (the server's).
   */
  constructor(message: string, options?: ClientErrorOptions, code: "timeout" | "deadline_exceeded" = "timeout") {
    super(code, message, options);
    this.name = "TimeoutError";
  }
}

/** The server cancelled the work. */
export class CancelledError extends ClientError {
  /**
   * Creates the error.
   *
   * @param message What was cancelled.
   * @param options Details.
   */
  constructor(message: string, options?: ClientErrorOptions) {
    super("cancelled", message, options);
    this.name = "CancelledError";
  }
}

/** The server needs input that no handler of this client can give; `data` holds the requests. */
export class InputRequiredError extends ClientError {
  /**
   * Creates the error.
   *
   * @param message What is missing (e.g. "no onElicit handler").
   * @param options The input requests, as data.
   */
  constructor(message: string, options?: ClientErrorOptions) {
    super("input_required", message, options);
    this.name = "InputRequiredError";
  }
}

/**
 * A tool ran and failed: MCP's `isError: true` or MCP-lite's `response_type: "failure"`. Thrown by
 * default; returned as a value with `{ failure: "value" }`.
 */
export class ToolFailedError extends ClientError {
  /** The tool that failed. */
  readonly tool: string;
  /** The whole result: its content (the message) and structured content, if any. */
  readonly result: Readonly<Record<string, unknown>>;

  /**
   * Creates the failure.
   *
   * @param tool The tool name.
   * @param message The failure's text.
   * @param result The whole result.
   */
  constructor(tool: string, message: string, result: Record<string, unknown>) {
    super(failureCodeOf(result), message, { data: result.structuredContent });
    this.name = "ToolFailedError";
    this.tool = tool;
    this.result = result;
  }
}

/** A failed result's code: the server's, when it answered an error as a result, else `tool_error`. */
function failureCodeOf(result: Record<string, unknown>): ClientErrorCode {
  const meta = result._meta as Record<string, unknown> | undefined;
  return sentErrorCode(typeof meta === "object" && meta !== null ? meta[RESULT_ERROR_CODE] : undefined) ??
    "tool_error";
}

/**
 * Tells whether a value is one of the client's errors.
 *
 * @param error The value to test.
 * @returns `true` for a {@link ClientError}.
 */
export function isClientError(error: unknown): error is ClientError {
  return error instanceof ClientError;
}

/** A JSON-RPC error object as it came off the wire. */
export interface RpcErrorBody {
  /** The JSON-RPC code. */
  code: number;
  /** The message. */
  message: string;
  /** The data, if any. */
  data?: unknown;
}

/** Where an error came from, for classifying it. */
export interface ErrorContext {
  /** The JSON-RPC method. */
  method: string;
  /** The wire: on MCP-lite, -32601 on `tools/call` means "tool not found" (MCP-lite spec v0.042 A.5). */
  wire: string;
  /** The HTTP status. */
  status?: number;
}

const TOOL_NOT_FOUND = /\btool\b[^.]*\bnot found\b|\bunknown tool\b|\bno such tool\b/i;

/**
 * Turns a JSON-RPC error into the matching client error: unknown tool, invalid arguments, or a
 * protocol error that keeps the code and data. The code is the server's `data.code` when a server of
 * ours sent it; from another server, the nearest to its JSON-RPC code and HTTP status. MCP 2026-07-28
 * answers an unknown tool -32602 and MCP-lite -32601 (MCP-lite spec v0.042 A.5): both are `unknown_tool`.
 *
 * @param error The JSON-RPC error.
 * @param context The method, wire and HTTP status.
 * @returns The client error.
 */
export function errorFromRpc(error: RpcErrorBody, context: ErrorContext): ClientError {
  const options: ClientErrorOptions = { rpcCode: error.code, status: context.status, data: error.data };
  const message = typeof error.message === "string" && error.message !== ""
    ? error.message
    : `JSON-RPC error ${error.code}`;
  const data = error.data as Record<string, unknown> | undefined;
  const code = sentErrorCode(typeof data === "object" && data !== null ? data.code : undefined) ??
    foreignCodeOf(error.code, message, data, context);
  if (code === "unknown_tool") return new ToolNotFoundError(message, options);
  if (code === "invalid_arguments") return new InvalidArgumentsError(message, options);
  return new RpcError(message, options, code);
}

/** The nearest code to a JSON-RPC error from a server that sends no `data.code`. */
function foreignCodeOf(
  rpcCode: number,
  message: string,
  data: Record<string, unknown> | undefined,
  context: ErrorContext,
): ErrorCode {
  if (context.method === "tools/call") {
    const namesTool = TOOL_NOT_FOUND.test(message) ||
      (typeof data === "object" && data !== null && "requested_tool" in data);
    if ((rpcCode === -32601 || rpcCode === -32602) && namesTool) return "unknown_tool";
    if (rpcCode === -32601 && context.wire === "mcp-lite") return "unknown_tool";
    const isState = typeof data === "object" && data !== null && data.reason === "invalid_request_state";
    if (rpcCode === -32602 && !isState) return "invalid_arguments";
  }
  return codeOfJsonRpc(rpcCode, context.status);
}

/**
 * Reads a JSON-RPC error object, tolerating servers that omit fields.
 *
 * @param value The `error` member of a response.
 * @returns The error, with a code and a message.
 */
export function rpcErrorOf(value: unknown): RpcErrorBody {
  const e = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const body: RpcErrorBody = {
    code: typeof e.code === "number" ? e.code : -32603,
    message: typeof e.message === "string" ? e.message : "unknown error",
  };
  if (e.data !== undefined) body.data = e.data;
  return body;
}
