/**
 * One HTTP endpoint a transport talks to: its URL, the fetch function (wrapped by `auth`) and the
 * extra headers every request carries, so that each transport builds and sends its requests alike.
 *
 * @module
 */
import { baseHeaders, fetcherOf, type FetchLike, type HeadersOption, type HttpOptions, send } from "./http.ts";
import { peerOf } from "./carry-trace.ts";
import { responseBound } from "./response-bound.ts";
import type { RequestPeer } from "./transport.ts";

/** An endpoint: where a transport's requests go, and how. */
export class HttpEndpoint {
  /** The endpoint's URL. */
  readonly url: string;
  /** The fetch function, wrapped by the options' `auth`. */
  readonly fetch: FetchLike;
  /** The most bytes one answer may hold (`maxResponseBytes`): a JSON body, one SSE event. */
  readonly maxResponseBytes: number;
  readonly #headers: HeadersOption | undefined;
  #peer: RequestPeer | undefined;

  /**
   * Creates an endpoint.
   *
   * @param url The URL; a base URL (`trim`) loses its trailing slash, so paths append to it.
   * @param options The fetch function, extra headers, auth and `maxResponseBytes`.
   * @throws {TypeError} When `maxResponseBytes` is not a positive number.
   * @param trim Whether `url` is a base that paths are appended to.
   */
  constructor(url: string | URL, options: HttpOptions, trim = false) {
    const text = String(url);
    this.url = trim && text.endsWith("/") ? text.slice(0, -1) : text;
    this.fetch = fetcherOf(options);
    this.maxResponseBytes = responseBound(options.maxResponseBytes);
    this.#headers = options.headers;
  }

  /** Where the requests go, for telemetry (`server.address`, `server.port`, `network.transport`). */
  get peer(): RequestPeer {
    return this.#peer ??= peerOf(this.url);
  }

  /**
   * Fresh request headers: the options' (resolved per request), then `extra`'s, then `fields`.
   *
   * @param fields Headers this request sets.
   * @param extra More headers, e.g. `Mcp-Param-*`.
   * @returns The headers.
   */
  async headers(fields: Record<string, string> = {}, extra?: Headers): Promise<Headers> {
    const headers = await baseHeaders(this.#headers);
    extra?.forEach((value, key) => headers.set(key, value));
    for (const name in fields) headers.set(name, fields[name]);
    return headers;
  }

  /**
   * POSTs a body to the endpoint (or a path below it), with clean network errors.
   *
   * @param path Appended to the URL (`""` for the URL itself).
   * @param headers The request headers.
   * @param body The body.
   * @param signal The call's signal.
   * @returns The response.
   */
  post(path: string, headers: Headers, body: string, signal: AbortSignal): Promise<Response> {
    return send(this.fetch, new Request(this.url + path, { method: "POST", headers, body, signal }), signal);
  }

  /**
   * GETs the endpoint (or a path below it), with clean network errors.
   *
   * @param path Appended to the URL.
   * @param headers The request headers.
   * @param signal The call's signal.
   * @returns The response.
   */
  get(path: string, headers: Headers, signal: AbortSignal): Promise<Response> {
    return send(this.fetch, new Request(this.url + path, { method: "GET", headers, signal }), signal);
  }
}
