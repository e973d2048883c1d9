/**
 * The decoded MCP request each method handler receives, and what it replies.
 *
 * @module
 */
import type { JsonRpcRequest } from "../../internal/jsonrpc.ts";
import type { ServerCore } from "../../server/server-core.ts";
import type { Envelope } from "./envelope.ts";

/** A decoded MCP request. */
export interface McpRequest {
  /** The JSON-RPC request. */
  readonly rpc: JsonRpcRequest;
  /** The era, version and caller metadata. */
  readonly envelope: Envelope;
  /** The HTTP request. */
  readonly http: Request;
  /** Whether the client accepts an SSE response. */
  readonly sse: boolean;
}

/** Sends a notification on the request's SSE stream. */
export type Notify = (method: string, params: Record<string, unknown>) => void;

/**
 * A method's reply: a result sent as JSON, or a stream that sends notifications before its result
 * (sent as SSE).
 */
export type McpReply =
  | { readonly result: Record<string, unknown> }
  | { readonly stream: (notify: Notify, signal: AbortSignal) => Promise<Record<string, unknown>> };

/** Handles one MCP method. */
export type McpMethod = (core: ServerCore, request: McpRequest) => McpReply | Promise<McpReply>;
