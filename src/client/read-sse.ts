/**
 * Reads a Server-Sent Events body with `eventsource-parser`, keeping the last event id and the
 * server's `retry` delay for a resumption. The parser loads with the first stream: a client whose
 * calls are answered in JSON never pays for it.
 *
 * @module
 */
import type { EventSourceMessage } from "eventsource-parser";

/** What a stream told the client about resuming it. */
export interface SseCursor {
  /** The id of the last event that had one (sent back as `Last-Event-ID`). */
  lastEventId: string | undefined;
  /** The server's `retry` field, in ms. */
  retryMs: number | undefined;
}

/**
 * Yields the events of an SSE body until it ends. Comments are skipped by the parser; events with
 * empty data (priming events) are skipped here. Stopping the iteration, or aborting `signal`, cancels
 * the body; an abort rejects with the signal's reason.
 *
 * @param body The response body.
 * @param cursor Updated with each id and retry delay.
 * @param signal Cancels the read.
 * @returns The events.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  cursor: SseCursor,
  signal?: AbortSignal,
): AsyncGenerator<EventSourceMessage, void, undefined> {
  const queue: EventSourceMessage[] = [];
  const { createParser } = await import("eventsource-parser");
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
  let done = false;
  try {
    while (true) {
      if (signal?.aborted) throw signal.reason;
      const chunk = await reader.read();
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
  }
}
