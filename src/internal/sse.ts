import { utf8Encoder as encoder } from "./utf8.ts";
/**
 * A Server-Sent Events response body with keep-alives and cancellation. What is written waits in the
 * stream's queue until the server hands it to the network (WHATWG Streams, `desiredSize`): a client
 * that stops reading would grow it without end, so past `maxQueuedBytes` the stream is errored (the
 * connection drops) and the run is cancelled, as a client that went away.
 *
 * @module
 */

/** Writes events to an SSE stream. Writing after the stream closed is a no-op. */
export interface SseWriter {
  /** Sends an event; `data` is sent as is (one `data:` line per line of it). */
  event(data: string, name?: string, id?: string): void;
  /** Sends a comment line (a keep-alive). */
  comment(text: string): void;
  /** Whether the stream is still open. */
  readonly open: boolean;
}

/** Options of {@link createSseStream}. */
export interface SseStreamOptions {
  /** Sends a keep-alive this often, in milliseconds; 0 disables them. */
  heartbeatMs: number;
  /** Writes one keep-alive; defaults to a `:` comment. */
  heartbeat?: (writer: SseWriter) => void;
  /** Called when the client goes away before the stream ended (or reads too slowly, past `maxQueuedBytes`). */
  onCancel?: () => void;
  /** The most bytes written but not yet sent before the stream is dropped (default {@link MAX_QUEUED_BYTES}). */
  maxQueuedBytes?: number;
}

/** The default bound of what an SSE stream queues for a client that does not read: 8 MiB. */
export const MAX_QUEUED_BYTES = 8 * 1024 * 1024;

/** Counts a chunk by its bytes, with no high-water mark: `desiredSize` is minus the bytes queued. */
const BYTES: QueuingStrategy<Uint8Array> = { highWaterMark: 0, size: (chunk) => chunk.byteLength };

/**
 * Creates an SSE body driven by `run`; the stream closes when `run` settles.
 *
 * @param run Writes the events; `write` writes a frame as it is, for fields the writer does not make (`retry`).
 * @param options Keep-alive and cancellation.
 * @returns The response body.
 */
export function createSseStream(
  run: (writer: SseWriter, write: (frame: string) => void) => Promise<void>,
  options: SseStreamOptions,
): ReadableStream<Uint8Array> {
  let timer: ReturnType<typeof setInterval> | undefined;
  let open = true;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const maxQueuedBytes = options.maxQueuedBytes ?? MAX_QUEUED_BYTES;
  const write = (text: string) => {
    if (!open) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      open = false;
      return;
    }
    if (-(controller.desiredSize ?? 0) > maxQueuedBytes) {
      stop();
      controller.error(new Error(`the client fell ${maxQueuedBytes} bytes behind the stream`));
      options.onCancel?.();
    }
  };
  const writer: SseWriter = {
    event(data, name, id) {
      let frame = "";
      if (id !== undefined) frame += `id: ${id}\n`;
      if (name !== undefined) frame += `event: ${name}\n`;
      write(`${frame}data: ${data.replaceAll("\n", "\ndata: ")}\n\n`); // one data line per line of it
    },
    comment(text) {
      write(`: ${text}\n\n`);
    },
    get open() {
      return open;
    },
  };
  const stop = () => {
    open = false;
    if (timer !== undefined) clearInterval(timer);
  };
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      if (options.heartbeatMs > 0) {
        const beat = options.heartbeat ?? ((w: SseWriter) => w.comment("keep-alive"));
        timer = setInterval(() => beat(writer), options.heartbeatMs);
      }
      run(writer, write).finally(() => {
        if (!open) return;
        stop();
        try {
          controller.close();
        } catch { /* already closed */ }
      });
    },
    cancel() {
      stop();
      options.onCancel?.();
    },
  }, BYTES);
}
