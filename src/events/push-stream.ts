/**
 * `events/stream` (SEP-3415 "Push"): a long-lived request that delivers a caller's occurrences of one event as
 * notifications on the request's own stream (an SSE answer over HTTP, the connection on stdio and a WebSocket, gRPC's
 * `CallMethodStream`), read from the occurrence log `events/poll` reads, from the caller's cursor: a client that
 * reconnects with its last cursor misses nothing the log kept and sees nothing twice, on whichever instance sharing
 * the store it reaches.
 *
 * @module
 */
import type { ExtensionContext } from "../core/definitions/extension.ts";
import { ProtocolError } from "../errors/error.ts";
import { META } from "../internal/mcp-wire.ts";
import type { Occurrence } from "./delivery/mod.ts";
import type { LogRead } from "./occurrence-log.ts";
import type { EventsRuntime } from "./subscription-store.ts";

/** ChatGPT's Unsupported (the router renumbers it SEP-3415's -32026 for a client that declared the extension). */
const UNSUPPORTED = -32014;
/** The most occurrences read from the log at once; more are read straight after. */
const BATCH = 100;

/** What a checked `events/stream` request asks for. */
export interface StreamRequest {
  /** The event's own name (the log's). */
  readonly name: string;
  /** The name the caller streams it by, when another (a group's namespace). */
  readonly servedAs: string | undefined;
  /** Where to start: a cursor this server gave, or `null` (now, or `maxAgeMs` back). */
  readonly cursor: string | null;
  /** How far back to start without a cursor, in ms. */
  readonly maxAgeMs: number | undefined;
  /** Whether an occurrence is the caller's (its arguments, the event's `match`). */
  readonly match: (occurrence: Occurrence) => boolean | Promise<boolean>;
}

/**
 * Streams an event to the caller until it aborts the request or the server drains (SEP-3415 "Push-Based Delivery"):
 * `notifications/events/active` once the stream is live (`{ cursor, truncated }`), each occurrence as `notifications/events/event`
 * (as a poll answers it, with its `cursor`), `notifications/events/heartbeat` (`{ cursor }`) after
 * `events.heartbeatMs` without one, and `notifications/events/error` (`{ error: { code, message } }`) when the log
 * cannot be read (it is read again at the next poll). Each carries the request's id in
 * `_meta["io.modelcontextprotocol/subscriptionId"]`, by which a client routes several streams on one connection
 * (stdio, a WebSocket). Exempt from the request budgets, bounded by the streams' own.
 *
 * @param runtime The server's events runtime.
 * @param request What the caller asked for, checked.
 * @param ctx The request's context.
 * @returns The final result (SEP-3415's empty `StreamEventsResult`: the subscription id in `_meta`), once the client
 *   aborted (when nobody reads it any more), or the server drains (`server.drain()`: its client reconnects from its
 *   cursor; never `notifications/events/terminated`, which SEP-3415 keeps for a subscription ended for good).
 * @throws {ProtocolError} -32014 where no stream reaches the client, -32013 past the streams' budget, -32602 for a
 *   cursor this server did not give: each before the stream opens.
 */
export async function pushStream(
  runtime: EventsRuntime,
  request: StreamRequest,
  ctx: ExtensionContext,
): Promise<Record<string, unknown>> {
  const held = heldForPush(ctx);
  const close = runtime.streams.admit(held.caller);
  try {
    return await run(runtime, request, ctx, { [META.subscriptionId]: held.id });
  } finally {
    close();
  }
}

/**
 * Holds an `events/stream` request open (`ctx.holdOpen()`), out of the request budgets.
 *
 * @param ctx The request's context.
 * @returns Who the caller is (for the streams' own budget) and the request's id, which names the stream.
 * @throws {ProtocolError} -32014 (Unsupported) where no stream reaches the client.
 */
export function heldForPush(ctx: ExtensionContext): { readonly caller: string; readonly id: string | number | null } {
  const held = ctx.holdOpen?.();
  if (held === undefined) {
    throw new ProtocolError(
      UNSUPPORTED,
      "Unsupported: push needs a stream to the client (MCP over HTTP accepting SSE, stdio, a WebSocket, " +
        "gRPC's CallMethodStream); poll instead",
    );
  }
  return held;
}

async function run(
  runtime: EventsRuntime,
  request: StreamRequest,
  ctx: ExtensionContext,
  _meta: Record<string, unknown>,
) {
  const { log, streams, options: { heartbeatMs } } = runtime;
  const { name, servedAs, match } = request;
  const shown = servedAs ?? name;
  const signal = ctx.signal;
  const read = (cursor: string | null, maxAgeMs?: number) => log.read(name, { cursor, maxAgeMs, limit: BATCH, match });
  let batch: LogRead = await read(request.cursor, request.maxAgeMs); // a forged cursor: -32602, as an answer
  // Where the stream starts: the log's position when nothing is replayed, else the caller's own cursor.
  const start = batch.events.length === 0 ? batch.cursor : request.cursor;
  await ctx.notify("notifications/events/active", { cursor: start, truncated: batch.truncated, _meta });
  let cursor = batch.cursor;
  let sent = performance.now();
  let failing = false;
  while (!signal.aborted) {
    for (const event of batch.events) {
      await ctx.notify("notifications/events/event", { ...event, name: shown, _meta });
      sent = performance.now();
    }
    cursor = batch.cursor;
    if (!batch.hasMore) {
      // SEP-3415 "Push": a heartbeat at least every 30 s, carrying the cursor, so a quiet stream's reconnect is exact.
      if (performance.now() - sent >= heartbeatMs) {
        await ctx.notify("notifications/events/heartbeat", { cursor, _meta });
        sent = performance.now();
      }
      // An emit on this instance wakes it at once; one on another instance at the next poll of the log's head.
      await streams.wait(name, batch.at, Math.max(0, heartbeatMs - (performance.now() - sent)), signal);
      if (signal.aborted) break;
    }
    try {
      batch = await read(cursor);
      failing = false;
    } catch (error) {
      batch = { events: [], cursor, truncated: false, hasMore: false, at: "" }; // "": woken at the next poll
      if (failing) continue; // told once per outage; read again at the next poll
      failing = true;
      runtime.deliveries.onError(error);
      await ctx.notify("notifications/events/error", {
        error: { code: -32603, message: "the occurrence log could not be read; the stream reads it again shortly" },
        _meta,
      });
    }
  }
  return { _meta };
}
