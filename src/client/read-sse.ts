/**
 * Reads a Server-Sent Events body, keeping the last event id and the server's `retry` delay for a
 * resumption. The reader (`sse-events.ts`, with `eventsource-parser`) loads with the first stream: a
 * client whose calls are answered in JSON never pays for it.
 *
 * @module
 */
import type { EventSourceMessage } from "eventsource-parser";
import { DEFAULT_MAX_RESPONSE_BYTES } from "./response-bound.ts";
import type { SseCursor } from "./sse-events.ts";

export type { SseCursor };

/**
 * Yields the events of an SSE body until it ends. Comments are skipped by the parser; events with
 * empty data (priming events) are skipped here. Stopping the iteration, or aborting `signal`, cancels
 * the body; an abort rejects with the signal's reason. One event (its lines up to the blank line that
 * ends it, an unterminated line included) may hold at most `limit` bytes: past it the body is
 * cancelled and the read fails (`maxResponseBytes`). The bytes of the event being read are held
 * against the signal's tally, if any.
 *
 * @param body The response body.
 * @param cursor Updated with each id and retry delay.
 * @param signal Cancels the read.
 * @param limit The most bytes one event may hold.
 * @returns The events.
 * @throws {McpliteError} `payload_too_large` when an event passes `limit`.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  cursor: SseCursor,
  signal?: AbortSignal,
  limit: number = DEFAULT_MAX_RESPONSE_BYTES,
): AsyncGenerator<EventSourceMessage, void, undefined> {
  const { sseEvents } = await import("./sse-events.ts");
  yield* sseEvents(body, cursor, signal, limit);
}

/**
 * Yields the messages of an SSE body ({@link readSse}): each event's data parsed as JSON, an event whose data is not
 * a JSON object or array skipped (a keep-alive, or not JSON-RPC: ignored, as MCP's streams may carry other events).
 *
 * @param body The response body.
 * @param cursor Updated with each id and retry delay.
 * @param signal Cancels the read.
 * @param limit The most bytes one event may hold.
 * @returns The messages, unchecked beyond their being objects.
 * @throws {McpliteError} `payload_too_large` when an event passes `limit`.
 */
export async function* readSseMessages(
  body: ReadableStream<Uint8Array>,
  cursor: SseCursor,
  signal?: AbortSignal,
  limit?: number,
): AsyncGenerator<object, void, undefined> {
  for await (const event of readSse(body, cursor, signal, limit)) {
    let message: unknown;
    try {
      message = JSON.parse(event.data);
    } catch {
      continue;
    }
    if (typeof message === "object" && message !== null) yield message;
  }
}
