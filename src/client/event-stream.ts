/**
 * `client.events.stream()` (SEP-3415 "Push"): one `events/stream` request held open, its notifications read as they
 * come (`active`, `event` with its cursor, `heartbeat` with the cursor), the events yielded in order; reconnected from
 * the last cursor received when it drops, so the server's log gives what was missed and nothing twice.
 *
 * @module
 */
import { McpliteError } from "../errors/error.ts";
import { sleep } from "../internal/sleep.ts";
import { isTransportError } from "./errors.ts";
import type { RequestOptions } from "./client-types.ts";
import type { EventPoll, EventStream, StreamOptions } from "./event-types.ts";

type Event = EventPoll<unknown>["events"][number];

/** What the stream needs of the client: sending a request (`client-events.ts`'s backend). */
type Requests = {
  request(method: string, params: Record<string, unknown>, options?: RequestOptions): Promise<Record<string, unknown>>;
};

/** The longest wait between two reconnections, in ms. */
const MAX_BACKOFF_MS = 30_000;
/** ResourceExhausted in both numberings (ChatGPT's, SEP-3415's): no room for the stream now, later perhaps. */
const EXHAUSTED = new Set([-32013, -32025]);
/** The conditions a later attempt may not meet: the network, the server's load, its own failure. */
const PASSING = new Set(["rate_limited", "request_timeout", "internal", "transport"]);

/**
 * Whether a stream (or a poll) that ended with this error is tried again, later: the network, the server's load or
 * its own failure, which a restart ends; else (an unknown event, a refusal) it is thrown.
 *
 * @param error What the request failed with.
 * @returns `true` when a later attempt may not meet it.
 */
export function passes(error: unknown): boolean {
  if (isTransportError(error)) return true;
  if (!(error instanceof McpliteError)) return false;
  return PASSING.has(error.code) || EXHAUSTED.has((error as { rpcCode?: number }).rpcCode ?? 0);
}

/**
 * The wait before the next attempt after one that failed: 1 s, doubling to 30 s.
 *
 * @param last The wait before this attempt (0: none).
 * @returns The wait, in ms.
 */
export function nextBackoff(last: number): number {
  return Math.min(Math.max(1_000, last * 2), MAX_BACKOFF_MS);
}

/**
 * Streams an event, reconnecting from its last cursor.
 *
 * @param backend The client's requests.
 * @param name The event.
 * @param options Its arguments, the cursor, how far back, the signal, the silence allowed.
 * @returns The occurrences, as they come.
 */
export async function* streamEvents(
  backend: Requests,
  name: string,
  options: StreamOptions<Record<string, unknown>> = {},
): EventStream<unknown> {
  const { signal, timeoutMs = 70_000 } = options;
  let cursor = options.cursor ?? null;
  let backoff = 0;
  const stopped = () => signal?.aborted === true; // read afresh: the signal aborts while the stream runs
  while (!stopped()) {
    const attempt = new AbortController();
    const stop = () => attempt.abort(signal?.reason);
    signal?.addEventListener("abort", stop, { once: true });
    const queue: Event[] = [];
    let wake = () => {};
    let heard = Date.now();
    let active = false;
    let silent = false;
    let ended: { error?: unknown } | undefined;
    const opened = Date.now();
    const request = backend.request("events/stream", {
      name,
      arguments: options.arguments ?? {},
      // SEP-3415: a `null` cursor is now, `maxAgeMs` beside it ignored: from now and that far back, it is left out.
      ...(cursor === null && options.maxAgeMs !== undefined ? { maxAgeMs: options.maxAgeMs } : { cursor }),
    }, {
      signal: attempt.signal,
      timeoutMs: 0, // the silence is watched here, heartbeats included
      onNotification: (method, params) => {
        heard = Date.now();
        const at = typeof params.cursor === "string" ? params.cursor : undefined;
        if (method === "notifications/events/active") active = true;
        if (method === "notifications/events/event" && at !== undefined) queue.push(params as unknown as Event);
        if (at !== undefined) cursor = at; // past what is queued: reconnecting from it misses nothing
        wake();
      },
    });
    request.then(() => ended = {}, (error) => ended = { error }).finally(() => wake());
    const watch = setInterval(() => {
      if (Date.now() - heard <= timeoutMs) return;
      silent = true;
      attempt.abort(new Error("the stream was silent too long"));
    }, Math.min(timeoutMs, 5_000));
    try {
      for (;;) {
        while (queue.length > 0) yield queue.shift()!;
        if (ended !== undefined) break;
        await new Promise<void>((resolve) => wake = resolve);
      }
    } finally {
      // Left early (a `break`, a `return`), or ended: the request goes with it.
      clearInterval(watch);
      signal?.removeEventListener("abort", stop);
      attempt.abort();
    }
    if (stopped()) return;
    const { error } = ended as { error?: unknown };
    if (error !== undefined && !silent && !passes(error)) throw error;
    // At once after a stream that lived; else 1 s, doubling to 30 s.
    backoff = active && Date.now() - opened >= 1_000 ? 0 : nextBackoff(backoff);
    if (backoff > 0) await sleep(backoff, signal).catch(() => {});
  }
}
