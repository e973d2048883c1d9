/**
 * The seam between the client and a wire. A transport sends one request and reads one reply; the
 * client around it redeems promises, answers input rounds, polls tasks, caches lists and keeps time.
 * MCP-lite and MCP ship here; gRPC and Webtools plug in the same way.
 *
 * @module
 */
import type { ClientInfo } from "../core/call/call-context.ts";
import type { InputRequest } from "../core/call/call-sink.ts";
import type { ToolDescriptor } from "../core/definitions/tool.ts";
import type { MessageMiddleware } from "../message-middleware/message-middleware.ts";

export type { ClientInfo, InputRequest };

/** How a tool runs as a task (MCP 2025-11-25, Tasks: tool-level negotiation). */
export interface ToolExecution {
  /** `required`: only as a task; `optional`: either way; `forbidden` (the default): never. */
  taskSupport?: "forbidden" | "optional" | "required";
}

/** A tool as a server lists it: name, `@type`, description, JSON Schemas, and how it runs. */
export type ToolInfo = ToolDescriptor & {
  /** How it runs as a task (MCP 2025-11-25). */
  execution?: ToolExecution;
};

/** A progress report. */
export interface Progress {
  /** The progress so far. */
  progress: number;
  /** The total, if known. */
  total?: number;
  /** A human-readable message. */
  message?: string;
}

/** A log message the server sent while handling the request. */
export interface LogEntry {
  /** The syslog severity. */
  level: string;
  /** The logger name. */
  logger?: string;
  /** The message or structured data. */
  data: unknown;
}

/** One `tools/list` answer, with its caching hints. */
export interface ToolListing {
  /** The tools (every page). */
  tools: ToolInfo[];
  /** How long the list stays fresh, in ms (0 or absent: revalidate every time). */
  ttlMs?: number;
  /** Who may share it: across auth contexts (`public`) or not (`private`). */
  cacheScope?: "public" | "private";
  /** The entity tag, for `If-None-Match` revalidation. */
  etag?: string;
  /** The server answered 304: the cached list (whose `etag` was sent) is still current. */
  notModified?: boolean;
}

/** The status of an MCP task (MCP 2025-11-25, Tasks: `TaskStatus`). */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/**
 * An MCP task, as the tasks extension's `resultType: "task"` and `tasks/get` carry it, or MCP
 * 2025-11-25's `CreateTaskResult` and `tasks/get` (whose `ttl` and `pollInterval` read as `ttlMs` and
 * `pollIntervalMs`; its result comes from `tasks/result`).
 */
export interface TaskInfo {
  /** The task id. */
  taskId: string;
  /** Its status. */
  status: TaskStatus;
  /** A human-readable status. */
  statusMessage?: string;
  /** When it was created, ISO 8601. */
  createdAt?: string;
  /** When it last changed, ISO 8601. */
  lastUpdatedAt?: string;
  /** How long it stays readable, in ms (`null`: no limit). */
  ttlMs?: number | null;
  /** How often to poll, in ms. */
  pollIntervalMs?: number;
  /** `input_required`: the outstanding requests, by key. */
  inputRequests?: Record<string, InputRequest>;
  /** `completed`: the original result. */
  result?: Record<string, unknown>;
  /** `failed`: the JSON-RPC error. */
  error?: { code: number; message: string; data?: unknown };
}

/**
 * A reply, as every wire's result types map onto it: a complete result, a promise to redeem
 * (MCP-lite), input to give before retrying (MCP `input_required`, MCP-lite `elicitation`), or a task
 * to poll (MCP tasks extension).
 */
export type Reply =
  | { readonly kind: "complete"; readonly result: Record<string, unknown> }
  | {
    readonly kind: "promise";
    readonly token: string;
    readonly retryAfterMs?: number;
    readonly estimatedCompletion?: string;
    readonly expiresAt?: string;
  }
  | {
    readonly kind: "input_required";
    readonly inputRequests: Record<string, InputRequest>;
    readonly requestState?: string;
  }
  | { readonly kind: "task"; readonly task: TaskInfo };

/** A tool call as a transport sends it; a retry after an input round adds the answers and the state. */
export interface ToolCallRequest {
  /** The tool name. */
  name: string;
  /** The arguments. */
  arguments: Record<string, unknown>;
  /** The answers to the last input round, by key. */
  inputResponses?: Record<string, unknown>;
  /** The last input round's state, byte for byte. */
  requestState?: string;
}

/** What a transport gets with every request. */
export interface RequestContext {
  /** Aborted when the caller cancels or a timeout runs out; transports pass it to `fetch`. */
  readonly signal: AbortSignal;
  /** Tells the client something arrived (a result, progress, a partial): resets the idle timeout. */
  activity(): void;
  /** The capabilities this client declares (MCP, per request on 2026-07-28). */
  readonly capabilities: Record<string, unknown>;
  /**
   * What this request declares over `capabilities` where each request declares its own (MCP 2026-07-28): a call's
   * own (`CallOptions.capabilities`; a key given as `undefined` is not declared). A 2025 session keeps what it
   * declared at `initialize`.
   */
  readonly callCapabilities?: Record<string, unknown>;
  /** Who the client is. */
  readonly clientInfo: ClientInfo;
  /** The log level to ask for (MCP 2026 `_meta` logLevel), if any. */
  readonly logLevel?: string;
  /** Ask for a streamed answer: partials, progress and logs as they come. */
  readonly stream: boolean;
  /** Receives progress reports; its presence asks the server for them. */
  readonly onProgress?: (progress: Progress) => void;
  /** Receives partial results. */
  readonly onPartial?: (partial: unknown) => void;
  /** Receives log messages. */
  readonly onLog?: (entry: LogEntry) => void;
  /** Receives warnings (e.g. a tool dropped for an invalid `x-mcp-header`). */
  readonly onWarning?: (message: string) => void;
  /**
   * Answers a request the server sends mid-call (MCP 2025 elicitation, sampling, roots on the call's
   * SSE stream), through the user's handlers.
   */
  readonly answer: (request: InputRequest) => Promise<unknown>;
  /** Receives `notifications/elicitation/complete` (MCP 2025-11-25, URL-mode elicitation), by its `elicitationId`. */
  readonly onElicitationComplete?: (elicitationId: string) => void;
  /**
   * Receives any other notification that arrives on the request's own stream (an extension's, SEP-2133), for
   * `client.onNotification()`; absent where the transport hears them on its connection instead (stdio).
   */
  readonly onNotification?: (method: string, params: Record<string, unknown>) => void;
  /**
   * Set when the request's caller hears its notifications itself (`RequestOptions.onNotification`, as
   * `client.events.stream()` does): a wire that streams a request only when asked streams it then (gRPC's
   * `CallMethodStream`, this SDK's MCP-lite extension E5, rather than the unary `CallMethod`).
   */
  readonly hearsNotifications?: true;
  /**
   * Set when `request()` is to send a notification (an extension's, SEP-2133: `client.notify()`): without an id,
   * resolving with an empty complete reply once the server took it (HTTP 202). A wire that carries none rejects
   * with `unsupported`.
   */
  readonly notification?: true;
  /** For `tools/list`: the entity tag of the cached copy, sent as `If-None-Match`. */
  readonly etag?: string;
  /**
   * Receives a tool list the transport read on its own, not as the answer to `listTools` (finding
   * the wire lists the tools): the client keeps it, so that its next `listTools()` sends none.
   */
  readonly onListing?: (listing: ToolListing) => void;
  /**
   * Trace context to carry to the server (W3C Trace Context `traceparent` and `tracestate`, W3C
   * Baggage `baggage`), set by the client's `telemetry`: transports send each field in `params._meta`
   * (MCP SEP-414) where the request has params, and as an HTTP header or gRPC metadata.
   */
  readonly traceContext?: Readonly<Record<string, string>>;
  /**
   * Set by the client's `telemetry` for a transport that declares {@link Transport.tracesRequests}:
   * the transport sends each request through it (its own probes, lists and handshakes included), so
   * that each is a span of its own.
   */
  readonly traceRequest?: TraceRequest;
}

/** One request a transport is about to send, as its telemetry describes it. */
export interface OutgoingRequest {
  /** The method (`tools/list` for MCP-lite's `POST /listtools`). */
  readonly method: string;
  /** Its params: the tool's or prompt's `name`, the resource's `uri`. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The JSON-RPC id; absent for a request that is not JSON-RPC (MCP-lite's `/listtools`). */
  readonly id?: string | number;
  /** The MCP revision the request speaks (MCP only). */
  readonly protocolVersion?: string;
  /** The MCP 2025 session it belongs to. */
  readonly sessionId?: string;
  /**
   * Where it goes, as the OpenTelemetry `server.*` and `network.*` attributes name it: the server's host name or IP
   * address (`server.address`, absent on stdio), its port (`server.port`), and `tcp` over HTTP and WebSocket, `pipe`
   * on stdio (`network.transport`).
   */
  readonly peer?: { readonly address?: string; readonly port?: number; readonly transport: "tcp" | "pipe" };
}

/** Where a request goes: {@link OutgoingRequest.peer}, named for the transports that fill it in. */
export type RequestPeer = NonNullable<OutgoingRequest["peer"]>;

/**
 * Sends one request under the client's telemetry: `exchange` sends it with the context it is given
 * (which carries the request's trace context) and reads its reply.
 *
 * @param request What the request is.
 * @param ctx The request context.
 * @param exchange Sends the request and reads its reply.
 * @returns What `exchange` gave.
 */
export type TraceRequest = <T>(
  request: OutgoingRequest,
  ctx: RequestContext,
  exchange: (ctx: RequestContext) => Promise<T>,
) => Promise<T>;

/**
 * Client telemetry (`createClient(target, { telemetry })`), such as `otelClient()` from
 * `@mcplite/sdk/otel`: it wraps the client's transport, so that every request it sends (each redeem,
 * input round and task poll included) can be traced, and hands the transport the trace context to send.
 */
export interface ClientTelemetry {
  /**
   * Wraps a transport.
   *
   * @param transport The client's transport.
   * @returns The transport to send through.
   */
  instrument(transport: Transport): Transport;
}

/**
 * A wire. `listTools` and `callTool` are all a wire needs; `request` sends any other method (MCP
 * resources, prompts, tasks); `close` releases what the transport holds (an MCP 2025 session).
 */
export interface Transport {
  /** The wire's name: `mcp-lite`, `mcp`, `grpc`, `webtools`. */
  readonly wire: string;
  /**
   * Lists the tools.
   *
   * @param ctx The request context.
   * @returns The tools and caching hints.
   */
  listTools(ctx: RequestContext): Promise<ToolListing>;
  /**
   * Calls a tool once, and reads its reply as it is (a promise is not redeemed, an input round not
   * answered: the client does that).
   *
   * @param call The call.
   * @param ctx The request context.
   * @returns The reply.
   */
  callTool(call: ToolCallRequest, ctx: RequestContext): Promise<Reply>;
  /**
   * Sends any other request (MCP: `resources/read`, `prompts/get`, `tasks/get`, …).
   *
   * @param method The JSON-RPC method.
   * @param params The params.
   * @param ctx The request context.
   * @returns The reply.
   */
  request?(method: string, params: Record<string, unknown>, ctx: RequestContext): Promise<Reply>;
  /**
   * Tells who the server is: MCP 2026-07-28's `server/discover` answer (`supportedVersions`,
   * `capabilities`, `serverInfo`, `instructions`), or on a 2025 revision the `initialize` answer
   * (`protocolVersion`, `capabilities`, `serverInfo`, `instructions`).
   *
   * @param ctx The request context.
   * @returns The server's description.
   */
  discover?(ctx: RequestContext): Promise<Record<string, unknown>>;
  /** Releases what the transport holds. */
  close?(): Promise<void>;
  /**
   * Runs message middleware over every JSON-RPC message the transport sends and receives (stdio, a WebSocket):
   * `createClient(transport, { intercept })` calls it once, before any request. A transport without it takes none.
   *
   * @param middleware The middleware, outermost first.
   */
  intercept?(middleware: readonly MessageMiddleware[]): void;
  /**
   * Whether the transport sends each request through `ctx.traceRequest` (MCP and MCP-lite do): the
   * client's telemetry then traces each request the wire carries, not each method called on the
   * transport.
   */
  readonly tracesRequests?: boolean;
}

/**
 * Tells whether a value is a {@link Transport}.
 *
 * @param value The value to test.
 * @returns `true` when it has `listTools` and `callTool`.
 */
export function isTransport(value: unknown): value is Transport {
  if (typeof value !== "object" || value === null) return false;
  const t = value as Record<string, unknown>;
  return typeof t.listTools === "function" && typeof t.callTool === "function" && typeof t.wire === "string";
}
