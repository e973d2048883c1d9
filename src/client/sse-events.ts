/**
 * The events of a Server-Sent Events body (HTML Living Standard §9.2.6, parsed by `eventsource-parser`),
 * each within the client's byte bound; loaded with a client's first stream ({@link readSse}).
 *
 * @module
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { responseTooLarge, tallyOf } from "./response-bound.ts";

/** What a stream told the client about resuming it. */
export interface SseCursor {
  /** The id of the last event that had one (sent back as `Last-Event-ID`). */
  lastEventId: string | undefined;
  /** The server's `retry` field, in ms. */
  retryMs: number | undefined;
}

/**
 * Yields the events of an SSE body until it ends: {@link readSse}'s work, loaded on demand.
 *
 * @param body The response body.
 * @param cursor Updated with the last event id and retry delay.
 * @param signal Ends the read.
 * @param limit The most bytes one event may take.
 * @returns The events.
 */
export async function* sseEvents(
  body: ReadableStream<Uint8Array>,
  cursor: SseCursor,
  signal: AbortSignal | undefined,
  limit: number,
): AsyncGenerator<EventSourceMessage, void, undefined> {
  const queue: EventSourceMessage[] = [];
  const parser = createParser({
    onEvent: (event) => queue.push(event),
    onId: (id) => {
      cursor.lastEventId = id;
    },
    onRetry: (ms) => {
      cursor.retryMs = ms;
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener("abort", onAbort, { once: true });
  const event = new EventSize(limit);
  const tally = tallyOf(signal);
  let held = 0;
  let done = false;
  try {
    while (true) {
      if (signal?.aborted) throw signal.reason;
      const chunk = await reader.read();
      if (!chunk.done) {
        event.scan(chunk.value);
        // Hold what the event being read holds (not yet handed on), counted in the tally.
        if (tally !== undefined && event.bytes !== held) {
          if (event.bytes > held) tally.take(event.bytes - held);
          else tally.give(held - event.bytes);
          held = event.bytes;
        }
      }
      // An event cut off by the end of the stream is dropped, as the SSE spec says.
      parser.feed(chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true }));
      while (queue.length > 0) {
        const event = queue.shift()!;
        if (event.data !== "") yield event;
      }
      if (chunk.done) break;
    }
    if (signal?.aborted) throw signal.reason;
    done = true;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
    if (held > 0) tally?.give(held);
  }
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Counts the bytes of the SSE event being read: its lines' bytes since the blank line that ended the
 * last one (HTML Living Standard §9.2.6: a line ends at CRLF, LF or CR; an empty line dispatches).
 */
class EventSize {
  /** The bytes of the event so far, line ends not counted. */
  bytes = 0;
  #line = 0;
  #afterCr = false;
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Counts a chunk; throws as soon as one event passes the limit. */
  scan(chunk: Uint8Array): void {
    let bytes = this.bytes, line = this.#line, afterCr = this.#afterCr;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === LF && afterCr) { // the LF of a CRLF: the line already ended
        afterCr = false;
        continue;
      }
      afterCr = byte === CR;
      if (byte === LF || byte === CR) {
        if (line === 0) {
          if (bytes > this.#limit) throw responseTooLarge(this.#limit, "An SSE event");
          bytes = 0;
        }
        line = 0;
      } else {
        line++;
        bytes++;
      }
    }
    this.bytes = bytes;
    this.#line = line;
    this.#afterCr = afterCr;
    if (bytes > this.#limit) throw responseTooLarge(this.#limit, "An SSE event");
  }
}
