/**
 * What a handler returns to say "not done yet": a promise in MCP-lite's sense (MCP-lite spec v0.042 §3.5), made with
 * `ctx.promise()` (a continuation the tool's `.redeem()` resumes from signed state, on any instance)
 * or `ctx.defer()` (work that runs on in this process, its result kept in a `ResultStore`).
 *
 * @module
 */
import type { CallSink } from "./call-sink.ts";

/** Options of `ctx.promise()`. */
export interface PromiseOptions<S> {
  /** The continuation state handed to the tool's `.redeem()` handler: any JSON value, signed into the token. */
  state: S;
  /** When the client should redeem, in milliseconds (MCP-lite `retry_after_ms`). */
  retryAfterMs?: number;
  /** When the work should be done (MCP-lite `estimated_completion`). */
  estimatedCompletion?: Date | string;
  /** How long the token stays redeemable, in milliseconds (default: the tool's, else the server's). */
  ttlMs?: number;
}

/** Options of `ctx.defer()`. */
export type DeferOptions = Omit<PromiseOptions<unknown>, "state">;

/** Work that `ctx.defer()` runs in this process; its signal aborts when the promise is cancelled. */
export type DeferredWork = (signal: AbortSignal) => unknown;

/**
 * What a promise token carries for deferred work: its result-store entry, the call's arguments when the tool's
 * `retry` may run its declared work again on another instance, and whether a server with a queue runs it in process.
 */
export interface DeferredState {
  /** The result-store id. */
  readonly d: string;
  /** The call's arguments. */
  readonly a?: unknown;
  /**
   * Set on a server with a queue for inline work (`ctx.defer(fn)`), which runs in process and never meets the queue:
   * a read watches its lease, as without a queue.
   */
  readonly i?: 1;
}

/** Hands deferred work the sink of its job (questions become the task's `input_required`), as it starts. */
export type JobBinder = (sink: CallSink) => void;

/**
 * A pending answer: the handler's way of answering "redeem this later". Create one with
 * `ctx.promise()` or `ctx.defer()` and return it; the server turns it into a signed promise token.
 *
 * @typeParam S The promise's state, handed back to the tool's `.redeem()` handler.
 */
export interface ToolPromise<S = unknown> {
  /** The promise's state, handed back to the tool's `.redeem()` handler. */
  readonly state: S;
  /** When the client should redeem, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** When the work should be done, ISO 8601. */
  readonly estimatedCompletion: string | undefined;
  /** How long the token stays redeemable, in milliseconds. */
  readonly ttlMs: number | undefined;
}

/** The {@link ToolPromise} `ctx.promise()` and `ctx.defer()` make, with what the server needs to run it. */
export class PendingPromise<S = unknown> implements ToolPromise<S> {
  /** The promise's state. */
  declare readonly state: S;
  /** When the client should redeem, in milliseconds. */
  declare readonly retryAfterMs: number | undefined;
  /** When the work should be done, ISO 8601. */
  declare readonly estimatedCompletion: string | undefined;
  /** How long the token stays redeemable, in milliseconds. */
  declare readonly ttlMs: number | undefined;
  /** @internal The deferred work to start (from `ctx.defer()`). */
  declare readonly "~work": DeferredWork | undefined;
  /** @internal The token state of deferred work already running (a re-issued promise). */
  declare readonly "~entry": DeferredState | undefined;
  /** @internal The tool the promise belongs to, when another tool (`redeem`) returned it. */
  declare "~tool": string | undefined;
  /** @internal Rebinds the handler's context to the job of the deferred work (from `ctx.defer()`). */
  declare "~bind": JobBinder | undefined;
  /** @internal The input of the tool's declared work (`ctx.defer(input)`; `undefined` inside: the arguments). */
  declare readonly "~input": { readonly work: unknown } | undefined;

  /**
   * Creates a pending answer; handlers use `ctx.promise()` or `ctx.defer()` instead.
   *
   * @param options The state and timing.
   * @param work Deferred work to start, if any.
   * @param entry The token state of running work, if any.
   * @param input The input of the tool's declared work to start, if any.
   */
  constructor(
    options: PromiseOptions<S>,
    work?: DeferredWork,
    entry?: DeferredState,
    input?: { readonly work: unknown },
  ) {
    if (options.retryAfterMs !== undefined && !(options.retryAfterMs >= 0)) {
      throw new TypeError("retryAfterMs must be a number ≥ 0");
    }
    if (options.ttlMs !== undefined && !(options.ttlMs > 0)) throw new TypeError("ttlMs must be a number > 0");
    const eta = options.estimatedCompletion;
    this.state = options.state;
    this.retryAfterMs = options.retryAfterMs;
    this.estimatedCompletion = eta instanceof Date ? eta.toISOString() : eta;
    this.ttlMs = options.ttlMs;
    this["~work"] = work;
    this["~entry"] = entry;
    this["~tool"] = undefined;
    this["~bind"] = undefined;
    this["~input"] = input;
  }
}

/**
 * Tells whether a handler's value is a pending answer.
 *
 * @param value The value.
 * @returns `true` for a {@link ToolPromise}.
 */
export function isToolPromise(value: unknown): value is PendingPromise {
  return value instanceof PendingPromise;
}

/** The continuation state a handler's return type carries, or `never` when it returns no promise. */
export type PromiseStateOf<R> = Awaited<R> extends infer V ? V extends ToolPromise<infer S> ? S : never : never;
