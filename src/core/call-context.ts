/**
 * The context every handler receives as its second argument: the cancellation signal, progress and
 * logging, the caller's metadata and what middleware learned about the caller. Always explicit, never
 * ambient (no AsyncLocalStorage).
 *
 * @module
 */

/** The wires a call can arrive on. */
export type Wire = "mcp-lite" | "mcp" | "webtools" | "grpc" | "in-process";

/** Syslog severities, as MCP's logging uses them, least severe first. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

/** One of the {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Who the client says it is (MCP `clientInfo`). */
export interface ClientInfo {
  /** The client's name. */
  name: string;
  /** The client's version. */
  version: string;
  /** Other fields the client sent (title, description, websiteUrl, icons). */
  [key: string]: unknown;
}

/** What is known about the caller of this request. */
export interface CallMeta {
  /** The wire the call came in on. */
  readonly wire: Wire;
  /** The protocol version of the request, when the wire has one. */
  readonly protocolVersion?: string;
  /** The client's self-description, when sent. */
  readonly clientInfo?: ClientInfo;
  /** The capabilities the client declared for this request (MCP). */
  readonly clientCapabilities?: Record<string, unknown>;
  /** The HTTP request headers (empty for in-process calls). */
  readonly headers: Headers;
  /** The JSON-RPC id of the request, when there is one. */
  readonly requestId?: string | number | null;
}

/** What authentication middleware learned about the caller. */
export interface AuthInfo {
  /** The authenticated principal, e.g. a user id. */
  subject?: string;
  /** The scopes granted. */
  scopes?: string[];
  /** The raw credential, if the handler needs to forward it. */
  token?: string;
  /** Anything else. */
  [key: string]: unknown;
}

/** Where a binding sends what a handler reports while it runs. */
export interface CallSink {
  /** Receives a progress report. */
  progress?(progress: number, total: number | undefined, message: string | undefined): void;
  /** Receives a log message. */
  log?(level: LogLevel, data: unknown, logger: string | undefined): void;
}

/** A typed key for per-call values set by middleware (as Connect's `createContextKey`). */
export interface ContextKey<T> {
  /** The unique identity of the key. */
  readonly id: symbol;
  /** The value returned when none was set. */
  readonly defaultValue: T;
}

/**
 * Creates a typed key for values that middleware hands to handlers.
 *
 * @param defaultValue The value returned when none was set.
 * @param description A name for debugging.
 * @returns The key.
 *
 * @example
 * ```ts
 * import { createContextKey } from "./call-context.ts";
 * const tenantKey = createContextKey("public", "tenant");
 * // in middleware: ctx.set(tenantKey, "acme"); in a handler: ctx.get(tenantKey)
 * ```
 */
export function createContextKey<T>(defaultValue: T, description?: string): ContextKey<T> {
  return { id: Symbol(description), defaultValue };
}

const NO_SINK: CallSink = {};

/**
 * The context of one call. Bindings create one per call; nothing else is allocated for it.
 */
export class CallContext {
  /** The name of the tool being called. */
  readonly tool: string;
  /** Aborted when the caller goes away or cancels. */
  readonly signal: AbortSignal;
  /** What is known about the caller. */
  readonly meta: CallMeta;
  /** Set by authentication middleware. */
  auth: AuthInfo | undefined;
  #sink: CallSink;
  #values: Map<symbol, unknown> | undefined;
  #lastProgress = -Infinity;

  /**
   * Creates a call context; bindings do this, handlers only receive it.
   *
   * @param tool The tool name.
   * @param signal The cancellation signal.
   * @param meta The caller's metadata.
   * @param sink Where progress and logs go.
   */
  constructor(tool: string, signal: AbortSignal, meta: CallMeta, sink: CallSink = NO_SINK) {
    this.tool = tool;
    this.signal = signal;
    this.meta = meta;
    this.auth = undefined;
    this.#sink = sink;
  }

  /**
   * Reports progress. Values never go backwards: a lower value than the last one is ignored.
   *
   * @param progress The progress so far.
   * @param total The total, if known.
   * @param message A human-readable message.
   */
  progress(progress: number, total?: number, message?: string): void {
    if (!(progress >= this.#lastProgress)) return;
    this.#lastProgress = progress;
    this.#sink.progress?.(progress, total, message);
  }

  /**
   * Logs a message to the client, if the wire and the client's log level allow it.
   *
   * @param level The severity.
   * @param data The message or structured data.
   * @param logger The logger name.
   */
  log(level: LogLevel, data: unknown, logger?: string): void {
    this.#sink.log?.(level, data, logger);
  }

  /**
   * Reads a value set by middleware.
   *
   * @param key The key.
   * @returns The value, or the key's default.
   */
  get<T>(key: ContextKey<T>): T {
    const values = this.#values;
    return values !== undefined && values.has(key.id) ? values.get(key.id) as T : key.defaultValue;
  }

  /**
   * Sets a value for the handler (from middleware).
   *
   * @param key The key.
   * @param value The value.
   * @returns This context.
   */
  set<T>(key: ContextKey<T>, value: T): this {
    (this.#values ??= new Map()).set(key.id, value);
    return this;
  }
}
