/**
 * The MCP binding's shapes: its per-server state, a decoded request, the channel a running request
 * talks to its client through, and what a method returns. None of it knows HTTP: the HTTP handler is
 * one carrier of these requests.
 *
 * @module
 */
import type { CacheHint, SignalSource } from "../../core/mod.ts";
import type * as longRunning from "../../jobs/mod.ts";
import type { DelayQueue } from "../../internal/delay-queue.ts";
import type { SseWriter } from "../../internal/sse.ts";
import type { Host, ServerCore } from "../../server/mod.ts";
import type { JsonRpcRequest } from "../jsonrpc.ts";
import type { CachedBody } from "./caching.ts";
import type { Envelope, LegacySession } from "./envelope.ts";
import type { McpSettings } from "./mcp-options.ts";
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
  /** Requests a client may cancel with `notifications/cancelled` (and a connection aborts when it closes). */
  readonly inFlight: longRunning.InFlight;
  /** Receives errors that get masked. */
  readonly report: (error: unknown) => void;
  /** Sends the first keep-alive of calls still quiet after the heartbeat, on one timer; none when 0. */
  readonly keepAlive: DelayQueue | undefined;
  /** Sends the first keep-alive of held calls still quiet after a second (the heartbeat, if sooner). */
  readonly heldKeepAlive: DelayQueue | undefined;
  /** The 2025 sessions' streams over HTTP, set as the binding is made when it serves them (`sessionStreams()`). */
  streams?: {
    /** Follows a 2025 `resources/subscribe` or `resources/unsubscribe` over HTTP (`SessionStreams.subscribe`). */
    subscribe(request: McpRequest): void;
  };
}

/** A decoded MCP request. */
export interface McpRequest {
  /** The JSON-RPC request. */
  readonly rpc: JsonRpcRequest;
  /** The era, version and caller metadata. */
  readonly envelope: Envelope;
  /** The request's transport headers (empty where the carrier has none). */
  readonly headers: Headers;
  /** Whether the answer may be a stream (the client accepts SSE, and the request is not in a batch). */
  readonly sse: boolean;
  /** The 2025-era session id, if the request carries one. */
  readonly session: string | null;
  /** Whether the carrier is a pipe (stdio) rather than TCP (HTTP, a WebSocket). */
  readonly piped: boolean;
  /** What the platform handed `fetch` besides the request (a Worker's `env` and `waitUntil`). */
  readonly host: Host;
}

/**
 * Where a running request talks to its client before its result. It is a `SignalSource`: the call
 * pipeline takes the channel itself, so the signal is built only if a handler reads it.
 */
export interface Channel extends SignalSource {
  /** Aborted when the client goes away (or cancels, on the 2025 revisions). */
  readonly signal: AbortSignal;
  /** Whether messages reach the client before the result (the answer is, or may become, a stream). */
  readonly streaming: boolean;
  /**
   * Whether the carrier is one connection that outlives its requests (stdio): the 2025 revisions then
   * also get list changes and resource updates outside any request, and `initialize` advertises them.
   */
  readonly persistent: boolean;
  /**
   * Sends a notification.
   *
   * @param method The notification method.
   * @param params Its params.
   */
  notify(method: string, params: Record<string, unknown>): void;
  /**
   * Says the request will take long (it holds a call while deferred work runs): where the answer may be
   * a stream (SSE accepted), it opens within a second, so that its headers go out before a proxy gives
   * up on them; a hold that ends sooner answers as before.
   */
  holding(): void;
  /**
   * Sends a raw JSON-RPC message (a server→client request, on the 2025 revisions).
   *
   * @param message The serialised message.
   */
  send(message: string): void;
  /**
   * Sets the caching hint of the result (`resources/read`): `Cache-Control` on HTTP.
   *
   * @param hint The hint.
   */
  cache(hint: CacheHint): void;
  /**
   * Opens a 2025-era session for what `initialize` negotiated: on HTTP, a new id in the response's
   * `Mcp-Session-Id`.
   *
   * @param session What the session remembers.
   */
  openSession(session: LegacySession): void;
}

/**
 * A stream that stays open and carries notifications (`subscriptions/listen`). It may end itself with its result (as
 * the server drains): `close` stops it, as when the client goes away, and answers the request with the result.
 */
export class Subscription {
  /** Starts writing to the stream; returns the function that stops. */
  declare readonly open: (writer: SseWriter, close: (result: Record<string, unknown>) => void) => () => void;

  /**
   * Creates a subscription.
   *
   * @param open Starts writing (`close` ends it with its result); returns the function that stops.
   */
  constructor(open: (writer: SseWriter, close: (result: Record<string, unknown>) => void) => () => void) {
    this.open = open;
  }
}

/**
 * What a method returns: a result (a JSON object); a result serialised once, with its entity tag
 * ({@link CachedBody}: the lists and `server/discover`); or a {@link Subscription}.
 */
export type McpResult = Record<string, unknown> | CachedBody | Subscription;

/**
 * Handles one MCP method. It runs to its result, talking to the client through the channel on the way
 * (progress, logs, 2025 server→client requests).
 */
export interface McpMethod {
  (ctx: McpContext, request: McpRequest, channel: Channel): McpResult | Promise<McpResult>;
  /**
   * Set (by `ownLayer()`) on a method that runs the request middleware itself, through a core runner,
   * so that routing does not wrap it a second time.
   */
  readonly ownsRequestLayer?: true;
  /**
   * Set on the method of a client notification an extension declared (SEP-2133): routing runs it for a
   * notification of its name, which no other method gets.
   */
  readonly notification?: true;
}
