import { ProtocolError } from "../errors/error.ts";
import { isObject } from "../internal/is-object.ts";
/**
 * JSON-RPC 2.0 message shapes, shared by the MCP-lite and MCP bindings.
 *
 * @module
 */

/** A JSON-RPC id. */
export type JsonRpcId = string | number | null;

/** A decoded JSON-RPC request or notification. */
export interface JsonRpcRequest {
  /** The id; absent for a notification. */
  id?: JsonRpcId;
  /** The method. */
  method: string;
  /** The params, always an object (absent params become `{}`). */
  params: Record<string, unknown>;
}

/**
 * Checks the shape of a JSON-RPC request: `jsonrpc: "2.0"`, a string `method`, `params` an object if
 * present, an `id` that is a string, a number or null.
 *
 * @param message The parsed body.
 * @returns The request.
 * @throws {ProtocolError} `invalid_request`; read the id for the error response with {@link idOf}.
 */
export function parseJsonRpcRequest(message: unknown): JsonRpcRequest {
  if (!isObject(message)) throw invalid("Invalid Request: expected a JSON-RPC request object");
  const m = message;
  const id = m.id;
  const hasId = "id" in m;
  if (hasId && id !== null && typeof id !== "string" && typeof id !== "number") {
    throw invalid("Invalid Request: id must be a string, a number or null");
  }
  if (m.jsonrpc !== "2.0") throw invalid('Invalid Request: jsonrpc must be "2.0"');
  if (typeof m.method !== "string" || m.method === "") throw invalid("Invalid Request: method is missing");
  const params = m.params;
  if (params !== undefined && !isObject(params)) {
    throw invalid("Invalid Request: params must be an object");
  }
  const request: JsonRpcRequest = { method: m.method, params: (params ?? {}) as Record<string, unknown> };
  if (hasId) request.id = id as JsonRpcId;
  return request;
}

function invalid(message: string): ProtocolError {
  return new ProtocolError("invalid_request", message);
}

/**
 * Reads the id a request carried, for error responses, without trusting the shape.
 *
 * @param message The parsed body, if any.
 * @returns The id, or `null`.
 */
export function idOf(message: unknown): JsonRpcId {
  if (typeof message !== "object" || message === null) return null;
  const id = (message as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** The `jsonrpc` member every message carries (JSON-RPC 2.0 §4, §5). */
const VERSION = "2.0";

/**
 * Builds a JSON-RPC success response as an object, for `Response.json` (which serialises straight
 * into the body) or for {@link resultMessage}.
 *
 * @param id The request id.
 * @param result The result.
 * @returns The response object.
 */
export function resultEnvelope(id: JsonRpcId | undefined, result: unknown): Record<string, unknown> {
  return { jsonrpc: VERSION, id: id ?? null, result };
}

/**
 * Serialises a JSON-RPC success response.
 *
 * @param id The request id.
 * @param result The result.
 * @returns The JSON text.
 */
export function resultMessage(id: JsonRpcId | undefined, result: unknown): string {
  // One stringify of one object: cheaper than splicing strings (a rope the Response must flatten).
  return JSON.stringify(resultEnvelope(id, result));
}

/**
 * Serialises the head of a success response, up to its result: `{"jsonrpc":"2.0","id":…,"result":`.
 * A result serialised once and kept (a list, `server/discover`) is spliced after it, then `}`.
 *
 * @param id The request id.
 * @returns The JSON text of the head.
 */
export function resultHead(id: JsonRpcId | undefined): string {
  // The one hand-built envelope: a cached result is spliced as text rather than parsed and serialised again.
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id ?? null)},"result":`;
}

/**
 * Serialises a success response around a result that is already JSON text.
 *
 * @param id The request id.
 * @param result The serialised result.
 * @returns The JSON text.
 */
export function serialisedResultMessage(id: JsonRpcId | undefined, result: string): string {
  return `${resultHead(id)}${result}}`;
}

/**
 * Serialises a JSON-RPC error response.
 *
 * @param id The request id.
 * @param code The JSON-RPC error code.
 * @param message The message.
 * @param data Optional details.
 * @returns The JSON text.
 */
export function errorMessage(id: JsonRpcId | undefined, code: number, message: string, data?: unknown): string {
  return JSON.stringify({ jsonrpc: VERSION, id: id ?? null, error: { code, message, data } }); // no data: no key
}

/**
 * Serialises a JSON-RPC notification (a request without an id, JSON-RPC 2.0 §4.1).
 *
 * @param method The method.
 * @param params Its params; absent when omitted.
 * @returns The JSON text.
 */
export function notificationMessage(method: string, params?: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: VERSION, method, params }); // JSON.stringify leaves out an undefined member
}

/**
 * Serialises a JSON-RPC request (a server→client request, on the MCP 2025 revisions).
 *
 * @param id Its id.
 * @param method The method.
 * @param params Its params.
 * @returns The JSON text.
 */
export function requestMessage(id: JsonRpcId, method: string, params: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: VERSION, id, method, params });
}
