/**
 * The decoded MCP request each method handler receives, the binding's per-server state, and what a
 * method replies.
 *
 * @module
 */
import type { DelayQueue } from "../../internal/delay-queue.ts";
import type { JsonRpcRequest } from "../../internal/jsonrpc.ts";
import type { SseWriter } from "../../internal/sse.ts";
import type { CacheHint } from "../../resource/resource-def.ts";
import type { ServerCore } from "../../server/server-core.ts";
import type { Envelope } from "./envelope.ts";
import type { InFlightCalls } from "./in-flight.ts";
import type { McpSettings } from "./options.ts";
import type { PendingRequests } from "./pending.ts";
import type { SessionTable } from "./sessions.ts";

/** The binding's state, built once per server. */
export interface McpContext {
  /** The registry and the server options. */
  readonly core: ServerCore;
  /** The MCP options. */
  readonly settings: McpSettings;
  /** `{ "io.modelcontextprotocol/serverInfo": { name, version } }`, added to every 2026 result's `_meta`. */
  readonly serverInfo: Readonly<Record<string, unknown>>;
  /** 2025-era sessions. */
  readonly sessions: SessionTable;
  /** Server→client requests awaiting the client's answer (2025 era). */
  readonly pending: PendingRequests;
  /** Calls a 2025 client may cancel with `notifications/cancelled`. */
  readonly inFlight: InFlightCalls;
  /** Receives errors that get masked. */
  readonly report: (error: unknown) => void;
  /** Sends the first keep-alive of calls still quiet after the heartbeat, on one timer; none when 0. */
  readonly keepAlive: DelayQueue | undefined;
}

/** A decoded MCP request. */
export interface McpRequest {
  /** The JSON-RPC request. */
  readonly rpc: JsonRpcRequest;
  /** The era, version and caller metadata. */
  readonly envelope: Envelope;
  /** The HTTP request. */
  readonly http: Request;
  /** Whether the answer may be an SSE stream (the client accepts it, and it is not part of a batch). */
  readonly sse: boolean;
  /** The 2025-era `Mcp-Session-Id`, if sent. */
  readonly session: string | null;
}

/**
 * Where a running request talks to its client before its result: the SSE stream, once open. It is a
 * `SignalSource`: pass the channel itself to `CallContext`, so the signal is built only if read.
 */
export interface Channel {
  /** Aborted when the client goes away (or cancels, on the 2025 revisions). */
  readonly signal: AbortSignal;
  /** Whether messages reach the client (the answer is, or may become, an SSE stream). */
  readonly streaming: boolean;
  /**
   * Sends a notification.
   *
   * @param method The notification method.
   * @param params Its params.
   */
  notify(method: string, params: Record<string, unknown>): void;
  /**
   * Sends a raw JSON-RPC message (a server→client request, on the 2025 revisions).
   *
   * @param message The serialised message.
   */
  send(message: string): void;
}

/** A serialised result with its entity tag and caching header, built once per change of a list. */
export interface CachedBody {
  /** The result, as JSON. */
  readonly body: string;
  /** Its weak entity tag. */
  readonly etag: string;
  /** The `Cache-Control` value. */
  readonly cacheControl: string;
  /** The init of its 200 response (`Content-Type`, `ETag`, `Cache-Control`), built once. */
  readonly ok: ResponseInit;
  /** The init of its 304 response (`ETag`, `Cache-Control`), built once. */
  readonly notModified: ResponseInit;
}

/**
 * What a method replies:
 * - `result`: a result, sent as JSON (with `Cache-Control` when it carries a hint);
 * - `cached`: a result serialised once, sent with its `ETag`, or 304 when the client has it;
 * - `run`: work that may talk (progress, logs, questions) before its result: JSON when it does not,
 *   an SSE stream as soon as it does;
 * - `listen`: a subscription stream that stays open.
 */
export type McpReply =
  | {
    readonly kind: "result";
    readonly result: Record<string, unknown>;
    readonly cache?: CacheHint;
    readonly headers?: Readonly<Record<string, string>>;
  }
  | { readonly kind: "cached"; readonly cached: CachedBody }
  | { readonly kind: "run"; readonly run: (channel: Channel) => Promise<Record<string, unknown>>; readonly cache?: CacheHint }
  | { readonly kind: "listen"; readonly open: (writer: SseWriter) => () => void };

/** Handles one MCP method. */
export type McpMethod = (ctx: McpContext, request: McpRequest) => McpReply | Promise<McpReply>;
