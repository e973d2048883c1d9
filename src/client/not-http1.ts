/**
 * Telling a server that does not speak HTTP/1.1 from one that cannot be reached: `fetch` speaks
 * HTTP/1.1 (or HTTP/2 negotiated over TLS with ALPN), so against a cleartext HTTP/2 listener with
 * prior knowledge (h2c, RFC 9113 §3.3), such as `serveGrpc()`'s, its connection opens and the answer
 * that comes back is not HTTP/1.1. Each runtime words that failure its own way.
 *
 * @module
 */

/**
 * Whether a `fetch` failure means that the server answered, but not in HTTP/1.1: Bun's
 * `Malformed_HTTP_Response`, Node's (undici) `HPE_INVALID_CONSTANT` "Expected HTTP/", Deno's (hyper)
 * "invalid HTTP version parsed", looked for in the error and its causes.
 *
 * @param error What `fetch` threw.
 * @returns `true` for an answer that was not HTTP/1.1.
 */
export function isNotHttp1(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === "HPE_INVALID_CONSTANT") return true;
    if (/Malformed_HTTP_Response|invalid HTTP version|Expected HTTP\//.test(e.message)) return true;
  }
  return false;
}
