/**
 * SSE polling of 2025-11-25 calls (`mcpBinding({ ssePolling })`; MCP 2025-11-25, Transports: "Resumability and
 * Redelivery"; SEP-1699): a call's stream, primed and its events numbered, carried by one connection after another
 * (the server closes each `closeAfterMs` after it opens; the client's GET with `Last-Event-ID` opens the next, from
 * the event after it). Held in this process. Why: docs/guides/mcp.md.
 *
 * @module
 */
import { createSseStream, MAX_QUEUED_BYTES, type SseWriter } from "../../internal/sse.ts";
import { unrefTimer } from "../../runtime/unref-timer.ts";

/** SSE polling, as `mcpBinding({ ssePolling })` sets it, resolved. */
export interface PollingSettings {
  /** How long each connection of a call's stream stays open while the call runs, in ms. */
  readonly closeAfterMs: number;
  /** How long the client waits before it reconnects (the `retry` field), in ms. */
  readonly retryMs: number;
}

/**
 * How long a stream waits for its client to come back (after a close, or a connection it dropped) before its call is
 * given up, and how long an ended stream's last events stay to be fetched: ten `retry` delays, at least 30 s.
 */
function patienceOf(settings: PollingSettings): number {
  return Math.max(30_000, 10 * settings.retryMs);
}

/** Why a call whose client never came back for its stream is aborted. */
function abandoned(): Error {
  return new Error("the client did not come back for its stream");
}

/** Why a call whose stream made room for newer ones is aborted. */
function evicted(): Error {
  return new Error("the stream made room for newer ones: its client can no longer resume it");
}

/** The resumable streams of one binding, by stream id, at most `limit` of them (the oldest forgotten first). */
export class ResumableStreams {
  readonly settings: PollingSettings;
  readonly #streams = new Map<string, ResumableStream>();
  readonly #limit: number;
  readonly #heartbeatMs: number;

  /**
   * Creates the table.
   *
   * @param settings The polling settings.
   * @param limit The most streams kept.
   * @param heartbeatMs The keep-alive interval of each connection (0: none).
   */
  constructor(settings: PollingSettings, limit: number, heartbeatMs: number) {
    this.settings = settings;
    this.#limit = limit;
    this.#heartbeatMs = heartbeatMs;
  }

  /**
   * Opens a call's stream, and its first connection (the POST's response body).
   *
   * @param session The 2025 session the call came with: a GET resumes the stream only with it.
   * @param abort Gives the call up (its client never came back, or fell too far behind).
   * @returns The stream, which writes the call's events, and the body of its first connection.
   */
  open(session: string, abort: (reason: Error) => void): { stream: ResumableStream; body: ReadableStream<Uint8Array> } {
    // The oldest stream makes room: its client can no longer resume it, so its call, if it runs, is given up.
    if (this.#streams.size >= this.#limit) this.#streams.get(this.#streams.keys().next().value!)!.giveUp(evicted());
    const stream = new ResumableStream(this, session, abort, (id) => this.#streams.delete(id));
    this.#streams.set(stream.id, stream);
    return { stream, body: stream.connect(0) };
  }

  /**
   * Resumes a stream on a client's GET: a new connection, from the event after `Last-Event-ID`.
   *
   * @param session The GET's `Mcp-Session-Id`.
   * @param lastEventId Its `Last-Event-ID`.
   * @returns The connection's body, or `undefined` when no stream of that id and session is here.
   */
  resume(session: string | null, lastEventId: string | null): ReadableStream<Uint8Array> | undefined {
    const at = lastEventId?.lastIndexOf("-") ?? -1;
    if (at < 1 || session === null) return undefined;
    const stream = this.#streams.get(lastEventId!.slice(0, at));
    const after = Number(lastEventId!.slice(at + 1));
    if (stream === undefined || stream.session !== session || !Number.isSafeInteger(after) || after < stream.floor) {
      return undefined;
    }
    return stream.connect(after);
  }

  /** The keep-alive interval of a connection. */
  get heartbeatMs(): number {
    return this.#heartbeatMs;
  }
}

/** A connection of a stream: where its events are written, and how the server closes it. */
interface Connection {
  readonly writer: SseWriter;
  readonly close: () => void;
}

/**
 * One call's resumable stream: an SSE writer to the call (every event kept, with its id, until the client
 * acknowledges it by resuming after it), carried by one connection after another.
 */
export class ResumableStream implements SseWriter {
  /** The stream's id, the prefix of its events' (random: a GET cannot guess another call's stream). */
  readonly id: string = crypto.randomUUID();
  readonly session: string;
  readonly #streams: ResumableStreams;
  readonly #abort: (reason: Error) => void;
  readonly #drop: (id: string) => void;
  /** The events not acknowledged yet, oldest first, each with its number (the last part of its id). */
  readonly #events: { n: number; data: string }[] = [];
  #bytes = 0;
  #last = 0;
  /** The last event dropped before the client acknowledged it: a resumption from before it cannot be served. */
  floor = 0;
  #live: Connection | undefined;
  #ended = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(streams: ResumableStreams, session: string, abort: (reason: Error) => void, drop: (id: string) => void) {
    this.#streams = streams;
    this.session = session;
    this.#abort = abort;
    this.#drop = drop;
  }

  get open(): boolean {
    return !this.#ended;
  }

  /**
   * Sends an event: kept with its id, and written on the open connection, if any.
   *
   * @param data The event's data (one JSON-RPC message).
   */
  event(data: string): void {
    if (this.#ended) return;
    const n = ++this.#last;
    this.#events.push({ n, data });
    this.#bytes += data.length;
    // Kept within a bound: while a connection is open the oldest go (a resumption from before them is refused); a
    // client that is away and never comes back to read them must not grow the stream without end (as `createSseStream`).
    if (this.#bytes > MAX_QUEUED_BYTES && this.#live === undefined) {
      return this.giveUp(new Error("the client fell too far behind its stream"));
    }
    while (this.#bytes > MAX_QUEUED_BYTES) {
      const dropped = this.#events.shift()!;
      this.#bytes -= dropped.data.length;
      this.floor = dropped.n;
    }
    this.#live?.writer.event(data, undefined, `${this.id}-${n}`);
  }

  comment(text: string): void {
    this.#live?.writer.comment(text);
  }

  prime(): void {
    // A stream's connections are primed as they open (connect()).
  }

  /** The call's last event was sent: the open connection closes, and the stream stays until fetched. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#live?.close();
    this.#live = undefined;
    this.#wait(() => this.forget());
  }

  /**
   * Opens a connection: primed, then the events after `after` that are kept, then the live ones; closed by the
   * server `closeAfterMs` later while the call runs, or once the stream has ended and everything is sent.
   *
   * @param after The number of the last event the client has (0: none), which it acknowledges.
   * @returns The connection's body.
   */
  connect(after: number): ReadableStream<Uint8Array> {
    while (this.#events.length > 0 && this.#events[0].n <= after) this.#bytes -= this.#events.shift()!.data.length;
    this.#live?.close(); // the client's newer connection replaces an older one still open
    let connection: Connection | undefined;
    const { closeAfterMs, retryMs } = this.#streams.settings;
    return createSseStream((writer) =>
      new Promise<void>((close) => {
        writer.prime(`${this.id}-${after}`, retryMs);
        for (const { n, data } of this.#events) writer.event(data, undefined, `${this.id}-${n}`);
        if (this.#ended) return close();
        connection = { writer, close };
        this.#live = connection;
        this.#wait(() => {
          // MCP 2025-11-25, Transports: the server may close the connection, not the stream; the client polls.
          close();
          this.#dropped(connection!);
        }, closeAfterMs);
      }), {
      heartbeatMs: this.#streams.heartbeatMs,
      onCancel: () => connection !== undefined && this.#dropped(connection),
    });
  }

  /** Forgets the stream (ended and fetched, given up, or evicted): a GET for it is then refused. */
  forget(): void {
    clearTimeout(this.#timer);
    this.#live?.close();
    this.#live = undefined;
    this.#ended = true;
    this.#events.length = 0;
    this.#drop(this.id);
  }

  /** A connection closed (by the server, or the client went away): the call waits for the client's return. */
  #dropped(connection: Connection): void {
    if (this.#live !== connection) return;
    this.#live = undefined;
    if (!this.#ended) this.#wait(() => this.giveUp(abandoned()));
  }

  /**
   * Forgets the stream and aborts its call, if it still runs.
   *
   * @param reason Why.
   */
  giveUp(reason: Error): void {
    const running = !this.#ended;
    this.forget();
    if (running) this.#abort(reason);
  }

  /** Runs `then` after `ms` (by default, the stream's patience), in place of what waited before. */
  #wait(then: () => void, ms: number = patienceOf(this.#streams.settings)): void {
    clearTimeout(this.#timer);
    this.#timer = unrefTimer(setTimeout(then, ms));
  }
}
