/**
 * The client's end of MCP's HTTP+SSE transport (MCP 2024-11-05, Transports: HTTP with SSE; replaced by
 * Streamable HTTP in 2025-03-26, whose Backwards Compatibility section says how a client still reaches it): a
 * {@link MessageConnection} whose messages from the server are the `message` events of one `GET` event
 * stream, and whose messages to it are POSTed to the URL its first event, `endpoint`, names. A stream that
 * ends fails the requests in flight and every later one.
 *
 * @module
 */
import { isObject } from "../../internal/is-object.ts";
import { transportError } from "../errors.ts";
import { httpError, isEventStream } from "../http.ts";
import type { HttpEndpoint } from "../http-endpoint.ts";
import { readSse, type SseCursor } from "../read-sse.ts";
import { MessageConnection } from "./message-connection.ts";

/** The connection of one event stream. */
export class SseConnection extends MessageConnection {
  readonly #http: HttpEndpoint;
  readonly #endpoint: string;
  readonly #stop: AbortController;

  private constructor(http: HttpEndpoint, endpoint: string, stop: AbortController) {
    super();
    this.#http = http;
    this.#endpoint = endpoint;
    this.#stop = stop;
  }

  /**
   * Opens the event stream and waits for its `endpoint` event.
   *
   * @param http The stream's URL, and how requests to the server go (its fetch, headers).
   * @param timeoutMs How long the stream may take to name its endpoint.
   * @returns The open connection.
   * @throws {McpliteError} `transport`: When the URL answers with no event stream (its status kept: a 4xx says "not here"),
   *   or the stream names no endpoint in time.
   */
  static async open(http: HttpEndpoint, timeoutMs: number): Promise<SseConnection> {
    const stop = new AbortController();
    const headers = await http.headers({ accept: "text/event-stream" });
    const response = await http.get("", headers, stop.signal);
    if (!response.ok) throw await httpError(response);
    if (!isEventStream(response) || response.body === null) {
      await response.body?.cancel().catch(() => {});
      // 406: the stream was asked for (Accept: text/event-stream) and something else answered.
      throw transportError(`${http.url} answered GET with no event stream`, { status: 406 });
    }
    const events = readSse(response.body, { lastEventId: undefined, retryMs: undefined } as SseCursor, stop.signal)
      [Symbol.asyncIterator]();
    const timer = setTimeout(() => stop.abort(), timeoutMs);
    let endpoint: string | undefined;
    try {
      const first = await events.next();
      if (!first.done && first.value.event === "endpoint") endpoint = new URL(first.value.data, http.url).href;
    } catch {
      // ended, broke or timed out before naming its endpoint
    } finally {
      clearTimeout(timer);
    }
    if (endpoint === undefined) {
      stop.abort();
      throw transportError(`${http.url} sent no endpoint event: not MCP's HTTP+SSE transport`, { status: 406 });
    }
    const connection = new SseConnection(http, endpoint, stop);
    void connection.#read(events);
    return connection;
  }

  async #read(events: AsyncIterator<{ event?: string; data: string }>): Promise<void> {
    try {
      for (let next = await events.next(); !next.done; next = await events.next()) {
        if (next.value.event !== undefined && next.value.event !== "message") continue;
        let message: unknown;
        try {
          message = JSON.parse(next.value.data);
        } catch {
          continue;
        }
        if (isObject(message)) this.receive(message);
      }
    } catch {
      // the stream broke: failed below, as when it ends
    }
    this.fail(transportError("the server's event stream (HTTP+SSE) ended"));
  }

  /** Whether the stream ended (the connection takes no more requests). */
  get ended(): boolean {
    return this.failed;
  }

  protected async write(text: string): Promise<void> {
    const headers = await this.#http.headers({ "content-type": "application/json" });
    const signal = AbortSignal.any([this.#stop.signal, AbortSignal.timeout(30_000)]);
    const response = await this.#http.fetch(
      new Request(this.#endpoint, { method: "POST", headers, body: text, signal }),
    );
    await response.body?.cancel().catch(() => {});
    if (!response.ok) throw transportError(`the server refused a message: HTTP ${response.status}`);
  }

  /** Closes the event stream (the server ends the session). */
  close(): void {
    this.endStandalone();
    this.#stop.abort();
  }
}
