/**
 * The one streaming driver: runs a call and follows what it pushes, as events, for every wire that
 * streams (MCP-lite SSE, MCP-lite over stdio and WebSocket, gRPC `CallToolStream`). One call goes in;
 * out come the call's progress and logs, its partials (a streaming tool), the progress and logs of the
 * deferred work it started (MCP-lite spec v0.042 §5.3, server-pushed updates), then its final outcome.
 * A wire only encodes these events (the shape of the official TypeScript SDK v2's
 * `dispatch() → AsyncGenerator`).
 *
 * @module
 */
import { createContext } from "./tool-call-context.ts";
import type { CallSink, LogLevel } from "./call-sink.ts";
import type { CallOutcome } from "./outcome.ts";
import type { CallRequest } from "./call-request.ts";
import { runCall } from "./pipeline.ts";
import { followAbort } from "../../internal/follow-abort.ts";
import type { Registry } from "../definitions/registry.ts";

/**
 * What a streamed call yields: progress, a log message, a partial, then one final outcome; `held` when
 * the call started deferred work and is followed (no refusal of the caller can come after it).
 */
export type CallEvent =
  | {
    readonly type: "progress";
    readonly progress: number;
    readonly total: number | undefined;
    readonly message: string | undefined;
    /** Whether the deferred work the call started reported it (rather than the call itself). */
    readonly pushed: boolean;
  }
  | {
    readonly type: "log";
    readonly level: LogLevel;
    readonly logger: string | undefined;
    readonly data: unknown;
    /** Whether the deferred work the call started logged it (rather than the call itself). */
    readonly pushed: boolean;
  }
  | { readonly type: "partial"; readonly partial: unknown }
  | { readonly type: "held" }
  | { readonly type: "outcome"; readonly outcome: CallOutcome };

/** A call to stream: a decoded call without a sink or a partials callback (the events replace them). */
export type StreamedCall = Omit<CallRequest, "sink" | "onPartial">;

/** How a streamed call is run. */
export interface StreamCallOptions {
  /**
   * How long the deferred work the call started (`ctx.defer()`) is followed, in ms, before the promise
   * is the outcome (0: at once). Bindings pass the server's `holdMs`, or their own override.
   */
  readonly holdMs: number;
}

type Item =
  | { readonly event: CallEvent; readonly taken?: () => void }
  | { readonly error: unknown };

/**
 * Runs a call and yields what it reports, then its outcome (the last event). A partial is yielded as
 * the reader pulls it and the handler makes at most one more meanwhile (back-pressure reaches the
 * handler); progress and logs are queued. Cancellation: the call's `signal` (a client that went away)
 * aborts it; so does a reader that stops before the outcome. A `ProtocolError` the call fails with is
 * thrown by the iterator.
 *
 * @param registry The server's registry.
 * @param call The decoded call.
 * @param options How long to follow the deferred work the call started.
 * @returns The events, the outcome last.
 * @throws {ProtocolError} What {@link runCall} throws, or one the deferred work failed with.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineTool } from "../../tool/define-tool.ts";
 * import { Definitions } from "../definitions/registry.ts";
 * import { Runtime } from "../instance/runtime.ts";
 * import { streamCall } from "./stream-call.ts";
 *
 * const registry = new Definitions(new Runtime());
 * registry.add(defineTool("count").stream(async function* () {
 *   yield "a";
 *   yield "b";
 * }));
 * const meta = { wire: "in-process" as const, headers: new Headers() };
 * const call = { name: "count", arguments: {}, meta, signal: new AbortController().signal };
 * const types: string[] = [];
 * for await (const event of streamCall(registry, call, { holdMs: 0 })) types.push(event.type);
 * assert.deepEqual(types, ["partial", "partial", "outcome"]);
 * ```
 */
export async function* streamCall(
  registry: Registry,
  call: StreamedCall,
  options: StreamCallOptions,
): AsyncGenerator<CallEvent, void, undefined> {
  const queue: Item[] = [];
  const waiting: (() => void)[] = []; // partials handed over and not yet pulled
  let wake: (() => void) | undefined;
  let closed = false;
  const push = (item: Item): void => {
    if (closed) return;
    queue.push(item);
    wake?.();
    wake = undefined;
  };
  // The call's signal: the caller's, and aborted too when the reader goes away.
  const stop = new AbortController();
  const from = call.signal;
  const unfollow = followAbort(stop, from instanceof AbortSignal ? from : from.signal);
  const signal = stop.signal;
  const sinkOf = (pushed: boolean): CallSink => ({
    progress: (progress, total, message) => push({ event: { type: "progress", progress, total, message, pushed } }),
    log: (level, data, logger) => push({ event: { type: "log", level, logger, data, pushed } }),
  });
  const onPartial = (partial: unknown): Promise<void> | undefined =>
    closed ? undefined : new Promise<void>((taken) => {
      waiting.push(taken);
      push({ event: { type: "partial", partial }, taken });
    });
  runCall(registry, { ...call, signal, sink: sinkOf(false), onPartial })
    .then((outcome) => {
      if (outcome.kind !== "promise" || options.holdMs <= 0) return outcome;
      // The follower's context: the caller's, on the streamed call's signal (its cancellation stops the wait).
      const caller = createContext({ name: call.name, signal, meta: call.meta, host: call.host });
      push({ event: { type: "held" } });
      // Only a server with long-running support answers with deferred work: its engine follows it (MCP-lite spec
      // v0.042 §5.3, pushed updates), through the interface the server was handed (`LongRunning.follow`).
      const follow = { caller, holdMs: options.holdMs, watch: sinkOf(true) };
      return registry.longRunning?.follow(registry, outcome, follow) ?? outcome;
    })
    .then((outcome) => push({ event: { type: "outcome", outcome } }), (error: unknown) => push({ error }));
  let ended = false;
  try {
    while (true) {
      if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const item = queue.shift()!;
      if ("error" in item) {
        ended = true;
        throw item.error;
      }
      if (item.taken !== undefined) {
        waiting.splice(waiting.indexOf(item.taken), 1);
        item.taken(); // the handler may make the next partial while this one is sent
      }
      if (item.event.type === "outcome") ended = true;
      yield item.event;
      if (ended) return;
    }
  } finally {
    closed = true;
    for (const taken of waiting) taken();
    if (!ended) stop.abort(new Error("the stream's reader went away"));
    unfollow();
  }
}
