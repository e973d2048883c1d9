/**
 * SSE polling of 2025-11-25 calls (`sessionStreams({ polling })`; MCP 2025-11-25, Transports:
 * "Resumability and Redelivery"; SEP-1699), as a layer over the binding's route: a call's SSE answer becomes a
 * stream, primed and its events numbered, carried by one connection after another (the server closes each
 * `closeAfterMs` after it opens; the client's GET with `Last-Event-ID` opens the next, from the event after it),
 * while the call runs on. Held in this process. Why: docs/guides/mcp.md. The binding itself is untouched: a server
 * that does not poll bundles none of this.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { legacyErrorToWire } from "../../errors/mcp-codes.ts";
import { createSseStream, MAX_QUEUED_BYTES, type SseWriter } from "../../internal/sse.ts";
import { unrefTimer } from "../../runtime/unref-timer.ts";
import { acceptsEventStream, type Host, type Route, sseResponse } from "../../server/mod.ts";
import { jsonRpcErrorResponse } from "../jsonrpc-error.ts";
import { MODERN_VERSION, PROTOCOL_VERSION_HEADER, SESSION_HEADER } from "./envelope.ts";
import type { McpContext } from "./mcp-request.ts";

/** SSE polling, as `sessionStreams({ polling })` sets it, resolved. */
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

/** The refusal of a `Last-Event-ID` that names no stream the GET may resume here. */
const NO_STREAM = /* @__PURE__ */ new ProtocolError(
  "invalid_request",
  "Invalid Request: no stream of this Last-Event-ID and session to resume here",
);

/** The resumable streams of one binding, by stream id, at most `limit` of them (the oldest forgotten first). */
export class ResumableStreams {
  readonly settings: PollingSettings;
  /** The binding: its 2025 sessions, its session limit (the most streams kept), the server's keep-alive interval. */
  readonly binding: McpContext;
  readonly #streams = new Map<string, ResumableStream>();

  /**
   * Creates the table.
   *
   * @param settings The polling settings.
   * @param binding The binding whose route it serves.
   */
  constructor(settings: PollingSettings, binding: McpContext) {
    this.settings = settings;
    this.binding = binding;
  }

  /**
   * Serves the binding's route with polling: a 2025-11-25 call's SSE answer becomes a resumable stream, and a GET
   * with `Last-Event-ID` and its session gets the stream's next connection. The route answers the rest as before: a
   * GET of a session that ended (404), and one without `Last-Event-ID`, which resumes nothing (the endpoint offers no
   * standalone stream: 405).
   *
   * @param route The binding's route.
   * @returns The route, answering GET too.
   */
  serve(route: Route): Route {
    const { handle } = route;
    return {
      ...route,
      methods: "GET, POST, DELETE",
      handle: (http, host) => {
        if (http.method === "GET") return this.#resume(http) ?? handle(http, host);
        const session = this.#resumable(http);
        return session === undefined ? handle(http, host) : this.#poll(http, host, session, handle);
      },
    };
  }

  /**
   * Keeps a stream that opened; the oldest makes room: its client can no longer resume it, so its call, if it
   * runs, is given up.
   *
   * @param stream The stream.
   */
  add(stream: ResumableStream): void {
    if (this.#streams.size >= this.binding.settings.sessionLimit) {
      this.#streams.get(this.#streams.keys().next().value!)!.giveUp(evicted());
    }
    this.#streams.set(stream.id, stream);
  }

  /**
   * Forgets a stream: a GET for it is then refused.
   *
   * @param id The stream's id.
   */
  drop(id: string): void {
    this.#streams.delete(id);
  }

  /**
   * The 2025 session of a POST whose answer, should it be a stream, its client may resume: one that takes SSE, of
   * 2025-11-25 on (older clients may not take a priming event, with empty data), its version read as the binding
   * reads it (`parseLegacyEnvelope`: the version header, else the session's; a 2026-07-28 request must carry its
   * version in that header, and has no session).
   */
  #resumable(http: Request): string | undefined {
    const session = http.headers.get(SESSION_HEADER);
    if (session === null || http.method !== "POST" || !acceptsEventStream(http)) return undefined;
    const version = http.headers.get(PROTOCOL_VERSION_HEADER)?.trim() ??
      this.binding.sessions.get(session)?.protocolVersion;
    return version !== undefined && version >= "2025-11-25" && version < MODERN_VERSION ? session : undefined;
  }

  /**
   * Answers a POST whose answer may become a resumable stream. The call's signal follows the client's request until
   * its answer is a stream; from then on the stream's connections come and go without ending the call (MCP
   * 2025-11-25, Transports: a disconnection is no cancellation), and the stream aborts it when its client does not
   * come back.
   */
  #poll(http: Request, host: Host, session: string, handle: Route["handle"]): Response | Promise<Response> {
    const call = new AbortController();
    let open = false;
    const follow = () => open || call.abort(http.signal.reason);
    if (http.signal.aborted) follow();
    else http.signal.addEventListener("abort", follow, { once: true });
    const answered = handle(new Request(http, { signal: call.signal }), host);
    const poll = (response: Response) => {
      if (response.body === null || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
        return response;
      }
      open = true;
      const stream = new ResumableStream(this, session, (reason) => call.abort(reason), response.body);
      return new Response(stream.connect(0), response);
    };
    return answered instanceof Promise ? answered.then(poll) : poll(answered);
  }

  /** A GET's next connection of the stream its `Last-Event-ID` names; `undefined` for a GET that names none. */
  #resume(http: Request): Response | undefined {
    const lastEventId = http.headers.get("last-event-id");
    const session = http.headers.get(SESSION_HEADER);
    if (lastEventId === null || this.binding.sessions.end(session, true)) return undefined;
    const at = lastEventId.lastIndexOf("-");
    const stream = at < 1 || session === null ? undefined : this.#streams.get(lastEventId.slice(0, at));
    const after = Number(lastEventId.slice(at + 1));
    if (stream === undefined || stream.session !== session || !Number.isSafeInteger(after) || after < stream.floor) {
      // Ended and fetched, given up, another session's, or kept by another instance: nothing to resume here.
      return jsonRpcErrorResponse(null, NO_STREAM, legacyErrorToWire);
    }
    return sseResponse(stream.connect(after));
  }
}

/** A connection of a stream: where its events are written, and how the server closes it. */
interface Connection {
  readonly writer: SseWriter;
  readonly close: () => void;
}

/**
 * One call's resumable stream: the events of the call's SSE answer, each kept with its id until the client
 * acknowledges it by resuming after it, carried by one connection after another.
 */
export class ResumableStream {
  /** The stream's id, the prefix of its events' (random: a GET cannot guess another call's stream). */
  readonly id: string = crypto.randomUUID();
  readonly session: string;
  readonly #streams: ResumableStreams;
  readonly #abort: (reason: Error) => void;
  readonly #answer: ReadableStreamDefaultReader<Uint8Array>;
  /** The events not acknowledged yet, oldest first, each with its number (the last part of its id). */
  readonly #events: { n: number; data: string }[] = [];
  #bytes = 0;
  #last = 0;
  /** The last event dropped before the client acknowledged it: a resumption from before it cannot be served. */
  floor = 0;
  #live: Connection | undefined;
  #ended = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * Opens a call's stream: it reads the call's SSE answer to its end, whatever the client's connections do.
   *
   * @param streams The binding's streams, which keep it.
   * @param session The 2025 session the call came with: a GET resumes the stream only with it.
   * @param abort Gives the call up (its client never came back, or fell too far behind).
   * @param answer The call's SSE answer, as the binding wrote it.
   */
  constructor(
    streams: ResumableStreams,
    session: string,
    abort: (reason: Error) => void,
    answer: ReadableStream<Uint8Array>,
  ) {
    this.#streams = streams;
    this.session = session;
    this.#abort = abort;
    this.#answer = answer.getReader();
    streams.add(this);
    void this.#read();
  }

  /**
   * Reads the call's answer: each event is kept, and sent on the open connection; the keep-alives stay behind (each
   * connection has its own).
   */
  async #read(): Promise<void> {
    const decoder = new TextDecoder();
    let rest = "";
    try {
      for (let read = await this.#answer.read(); !read.done; read = await this.#answer.read()) {
        const frames = (rest + decoder.decode(read.value, { stream: true })).split("\n\n");
        rest = frames.pop()!;
        // The binding's events (`createSseStream`'s): `data: ` lines only, one for each line of the message.
        for (const frame of frames) {
          if (frame.startsWith("data: ")) this.#event(frame.slice(6).replaceAll("\ndata: ", "\n"));
        }
      }
    } catch { /* the answer broke off: the stream ends with what it had */ }
    this.#end();
  }

  /** Keeps an event with its id, and writes it on the open connection, if any. */
  #event(data: string): void {
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

  /** The call's last event was sent: the open connection closes, and the stream stays until fetched. */
  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#live?.close();
    this.#live = undefined;
    this.#wait(() => this.#forget());
  }

  /**
   * Opens a connection: primed (an event id, `retry`, empty data: what a client keeps to resume the stream with
   * `Last-Event-ID`), then the events after `after` that are kept, then the live ones; closed by the server
   * `closeAfterMs` later while the call runs, or once the stream has ended and everything is sent.
   *
   * @param after The number of the last event the client has (0: none), which it acknowledges.
   * @returns The connection's body.
   */
  connect(after: number): ReadableStream<Uint8Array> {
    while (this.#events.length > 0 && this.#events[0].n <= after) this.#bytes -= this.#events.shift()!.data.length;
    this.#live?.close(); // the client's newer connection replaces an older one still open
    let connection: Connection | undefined;
    const { closeAfterMs, retryMs } = this.#streams.settings;
    return createSseStream((writer, write) =>
      new Promise<void>((close) => {
        write(`id: ${this.id}-${after}\nretry: ${retryMs}\ndata:\n\n`);
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
      heartbeatMs: this.#streams.binding.core.options.heartbeatMs,
      onCancel: () => connection !== undefined && this.#dropped(connection),
    });
  }

  /**
   * Forgets the stream and aborts its call, if it still runs.
   *
   * @param reason Why.
   */
  giveUp(reason: Error): void {
    const running = !this.#ended;
    this.#forget();
    if (!running) return;
    this.#abort(reason);
    void this.#answer.cancel(reason).catch(() => {});
  }

  /** Forgets the stream (ended and fetched, given up, or evicted): a GET for it is then refused. */
  #forget(): void {
    clearTimeout(this.#timer);
    this.#live?.close();
    this.#live = undefined;
    this.#ended = true;
    this.#events.length = 0;
    this.#streams.drop(this.id);
  }

  /** A connection closed (by the server, or the client went away): the call waits for the client's return. */
  #dropped(connection: Connection): void {
    if (this.#live !== connection) return;
    this.#live = undefined;
    if (!this.#ended) this.#wait(() => this.giveUp(abandoned()));
  }

  /** Runs `then` after `ms` (by default, the stream's patience), in place of what waited before. */
  #wait(then: () => void, ms: number = patienceOf(this.#streams.settings)): void {
    clearTimeout(this.#timer);
    this.#timer = unrefTimer(setTimeout(then, ms));
  }
}
