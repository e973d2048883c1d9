/**
 * What carries MCP messages between a client and the MCP dispatch (`dispatch.ts`): one HTTP request (JSON, or SSE
 * from its first notification or keep-alive), an element of a 2025-03-26 batch, a stdio connection,
 * or any other connection (a WebSocket). A carrier states what it can do and receives what goes out;
 * the dispatch does the rest (routing, running the method, cancellation, the result's form), so a new
 * carrier is a driver of a few lines, not a copy.
 *
 * @module
 */
import type { CacheHint, SignalSource } from "../../core/mod.ts";
import type { Host } from "../../server/mod.ts";
import type { JsonRpcId } from "../jsonrpc.ts";
import type { CachedBody } from "./caching.ts";
import type { McpRequest } from "./mcp-request.ts";

/** A result ready to go out: an object with what its revision adds, or a body serialised once. */
export type FinishedResult = Record<string, unknown> | CachedBody;

/** What a carrier sees of the request it answers. */
export interface Exchange {
  /** The request id (`null` while unknown). */
  readonly id: JsonRpcId;
  /** The routed request; absent when the message failed before routing completed. */
  readonly request: McpRequest | undefined;
  /** The caching hint the method set (`resources/read`), if any. */
  readonly cacheHint: CacheHint | undefined;
  /** Aborted when the request ends early: the client cancelled, went away, or the connection closed. */
  readonly signal: AbortSignal;
  /**
   * Serialises a result as the JSON-RPC response to this request.
   *
   * @param result The result.
   * @returns The JSON text.
   */
  message(result: FinishedResult): string;
}

/** A carrier of MCP messages: its abilities, and where the messages for the client go. */
export interface Carrier extends SignalSource {
  /** Whether messages may reach the client before the response (SSE accepted; a connection). */
  readonly streaming: boolean;
  /**
   * Whether the carrier is one connection that outlives its requests (stdio, a WebSocket): it is then
   * the scope of `notifications/cancelled`, a cancelled request gets no response, a subscription
   * stays open on it, and the 2025 revisions get list changes outside requests.
   */
  readonly persistent: boolean;
  /** The 2025-era session id the message comes with, if any. */
  readonly session: string | null;
  /**
   * The message's HTTP headers, checked against it (`MCP-Protocol-Version`, `Mcp-Method`…); absent
   * where the carrier has none, and each request then gets its own empty `Headers`.
   */
  readonly headers: Headers | undefined;
  /**
   * The headers of the connection a carrier without per-message headers runs on (a WebSocket's
   * upgrade request): each request sees a copy as `ctx.meta.headers`, never checked against it.
   */
  readonly connectionHeaders?: Headers;
  /** What the platform handed `fetch` besides the request (a Worker's `env` and `waitUntil`). */
  readonly host: Host;
  /**
   * Whether the messages come through a pipe (stdio) rather than over TCP (HTTP, a WebSocket): what
   * OpenTelemetry's `network.transport` reports. Absent means TCP.
   */
  readonly piped?: boolean;
  /** Aborted when the client goes away; a persistent carrier's requests abort through the in-flight table. */
  readonly signal: AbortSignal;
  /**
   * Receives a message that goes out before the response: a notification, or a 2025 server→client
   * request. Called only on a streaming carrier.
   *
   * @param message The serialised message.
   */
  send(message: string): void;
  /**
   * Receives the response to a request. A carrier that sends text sends `exchange.message(result)`.
   *
   * @param exchange The request.
   * @param result Its result.
   */
  respond(exchange: Exchange, result: FinishedResult): void;
  /**
   * Receives an error response.
   *
   * @param exchange The request (or the message that failed).
   * @param message The serialised error response.
   * @param status The HTTP status that carries the error.
   * @param headers The headers that go with that status (`Retry-After` of a 503), for HTTP.
   * @param error What was thrown: an HTTP carrier hands a refusal for a scope back with its response,
   *   for the edge's step-up challenge.
   */
  fail(exchange: Exchange, message: string, status: number, headers?: Record<string, string>, error?: unknown): void;
  /**
   * Turns the answer into a stream soon (a second, with a keep-alive), so that its headers go out: the
   * request will take long (a held call), and a proxy's response-header timeout must not cut it. Absent
   * where the answer is no HTTP response of its own (a connection, a batch).
   */
  keepAlive?(): void;
  /**
   * Learns the 2025-era session `initialize` opened (the `Mcp-Session-Id` of the HTTP response; the
   * connection's session on stdio).
   *
   * @param session The session id.
   */
  opened(session: string): void;
}
