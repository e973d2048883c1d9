/**
 * The errors the client makes and reads: the SDK's one family (`McpliteError`, `ProtocolError`, `ToolError`,
 * one `ErrorCode`), read off every wire. A refusal the server answered is a `ProtocolError` with the server's
 * code; a tool's failure a `ToolError`; a condition only a client meets (`transport`, `timeout`, `cancelled`,
 * `input_required`, `unsupported`) an `McpliteError` with that code. Every error made here is marked as the
 * client's, so that a server a handler lets it through does not answer it as one it raised on purpose.
 *
 * @module
 */
import { codeOfJsonRpc } from "../errors/jsonrpc-codes.ts";
import { codeOfHttpStatus } from "../errors/http-status.ts";
import { sentErrorCode } from "../errors/sent-code.ts";
import {
  byClient,
  type ErrorCode,
  McpliteError,
  type McpliteErrorOptions,
  ProtocolError,
  ToolError,
} from "../errors/error.ts";
import { RESULT_ERROR_CODE } from "../internal/mcp-wire.ts";

/**
 * An error of a condition only a client meets, or one an HTTP status names.
 *
 * @param code What went wrong.
 * @param message What happened.
 * @param options The HTTP status, data and cause.
 * @returns The error, marked as the client's.
 */
export function clientError(code: ErrorCode, message: string, options?: McpliteErrorOptions): McpliteError {
  return byClient(new McpliteError(code, message, options));
}

/**
 * The request never got a readable answer: its code is `transport`, or the condition an HTTP status names
 * without a body the client can read (401 `unauthenticated`, 403 `permission_denied`, 429 `rate_limited`,
 * 503 `unavailable`, …).
 *
 * @param message What happened.
 * @param options The HTTP status and the cause.
 * @returns The error.
 */
export function transportError(message: string, options?: McpliteErrorOptions): McpliteError {
  return clientError(codeOfHttpStatus(options?.status) ?? "transport", message, options);
}

/**
 * Tells whether an error is the client's own `transport` condition or an HTTP status without a reply.
 *
 * @param error The value to test.
 * @returns `true` for an error {@link transportError} made.
 */
export function isTransportError(error: unknown): error is McpliteError {
  return error instanceof McpliteError && !(error instanceof ProtocolError) && !(error instanceof ToolError) &&
    !isAuthorizationFailure(error) && (error.code === "transport" || codeOfHttpStatus(error.status) === error.code);
}

/** Marks the client's own authorization failing (a symbol-keyed property: JSON leaves it behind). */
const AUTHORIZATION = /* @__PURE__ */ Symbol();

/**
 * The client could not authorize: discovery, registration, consent or the token request failed, or the server
 * wants a kind of token the client cannot give. Code `unauthenticated`, as the server's refusal is.
 *
 * @param message What failed, never a token or secret.
 * @param options The HTTP status and cause.
 * @returns The error, marked as the client's.
 */
export function authorizationError(message: string, options?: McpliteErrorOptions): McpliteError {
  const error = clientError("unauthenticated", message, options);
  (error as { [AUTHORIZATION]?: true })[AUTHORIZATION] = true;
  return error;
}

/**
 * The server answered with a protocol error (a JSON-RPC error, a gRPC status, a Webtools error envelope), or
 * with a reply the client cannot read (`protocol`).
 *
 * @param message The server's message.
 * @param options The JSON-RPC code, HTTP status and data.
 * @param code The server's code (default `protocol`: a reply the client cannot read).
 * @returns The error, marked as the client's.
 */
export function rpcError(message: string, options?: McpliteErrorOptions, code: ErrorCode = "protocol"): ProtocolError {
  return byClient(new ProtocolError(code, message, options));
}

/** A failed result's code: the server's, when it answered a refusal as a result, else `tool_error`. */
export function failureCodeOf(result: Record<string, unknown>): ErrorCode {
  const meta = result._meta as Record<string, unknown> | undefined;
  return sentErrorCode(typeof meta === "object" && meta !== null ? meta[RESULT_ERROR_CODE] : undefined) ??
    "tool_error";
}

/**
 * A tool's failure as the client reads it: a {@link ToolError} with the tool's name and the whole result.
 *
 * @param tool The tool name.
 * @param message The failure's text.
 * @param result The whole result.
 * @returns The error, marked as the client's.
 */
export function toolFailure(tool: string, message: string, result: Record<string, unknown>): ToolError {
  return byClient(new ToolError(message, { data: result.structuredContent, tool, result }));
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
 * Turns a JSON-RPC error into a {@link ProtocolError} that keeps the code and data. The code is the server's
 * `data.code` when a server of ours sent it; from another server, the nearest to its JSON-RPC code and HTTP
 * status. MCP 2026-07-28 answers an unknown tool -32602 and MCP-lite -32601 (MCP-lite spec v0.042 A.5): both
 * are `unknown_tool`.
 *
 * @param error The JSON-RPC error.
 * @param context The method, wire and HTTP status.
 * @returns The error.
 */
export function errorFromRpc(error: RpcErrorBody, context: ErrorContext): ProtocolError {
  const options: McpliteErrorOptions = { rpcCode: error.code, status: context.status, data: error.data };
  const message = typeof error.message === "string" && error.message !== ""
    ? error.message
    : `JSON-RPC error ${error.code}`;
  const data = error.data as Record<string, unknown> | undefined;
  const code = sentErrorCode(typeof data === "object" && data !== null ? data.code : undefined) ??
    foreignCodeOf(error.code, message, data, context);
  return rpcError(message, options, code);
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

/**
 * Tells whether an error is the client's own authorization failing (discovery, registration, consent or the
 * token request), not a server's refusal of the request.
 *
 * @param error The value to test.
 * @returns `true` for such a failure.
 */
export function isAuthorizationFailure(error: unknown): boolean {
  return error instanceof McpliteError && (error as { [AUTHORIZATION]?: true })[AUTHORIZATION] === true;
}
