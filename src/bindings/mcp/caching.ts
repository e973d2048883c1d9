/**
 * Caching on the wire: MCP's `ttlMs`/`cacheScope` hints mapped to HTTP `Cache-Control`, and weak
 * `ETag`s for list bodies (a request whose `If-None-Match` matches gets 304).
 *
 * @module
 */
import type { CacheHint } from "../../core/mod.ts";
import { jsonInit, responseInit } from "../../server/mod.ts";

/**
 * Maps a caching hint to a `Cache-Control` value: the scope, then `max-age` in seconds, or `no-cache`
 * (store, but revalidate) when the hint is shorter than a second.
 *
 * @param hint The hint.
 * @returns The header value, e.g. `public, max-age=60` or `private, no-cache`.
 */
export function cacheControl(hint: CacheHint): string {
  const seconds = Math.floor(hint.ttlMs / 1000);
  return seconds > 0 ? `${hint.scope}, max-age=${seconds}` : `${hint.scope}, no-cache`;
}

/**
 * Computes a weak entity tag for a serialised result (weak: the JSON-RPC envelope around it carries
 * each request's own id). The hash is cyrb53, 53 bits: enough to tell versions of one list apart.
 *
 * @param text The serialised result.
 * @returns The tag, e.g. `W/"3k9x2a1b0c"`.
 */
export function etagOf(text: string): string {
  let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return `W/"${hash.toString(36)}-${text.length.toString(36)}"`;
}

/** A serialised result with its entity tag and caching header, built once per change of what it lists. */
export class CachedBody {
  /** The result, as JSON. */
  declare readonly body: string;
  /** Its weak entity tag. */
  declare readonly etag: string;
  /** The `Cache-Control` value. */
  declare readonly cacheControl: string;
  /** The init of its 200 response (`Content-Type`, `ETag`, `Cache-Control`), built once. */
  declare readonly ok: ResponseInit;
  /** The init of its 304 response (`ETag`, `Cache-Control`), built once. */
  declare readonly notModified: ResponseInit;

  /**
   * Wraps a serialised result for answers by entity tag.
   *
   * @param body The result, as JSON.
   * @param hint Its caching hint.
   */
  constructor(body: string, hint: CacheHint) {
    this.body = body;
    this.etag = etagOf(body);
    this.cacheControl = cacheControl(hint);
    const headers = { etag: this.etag, "cache-control": this.cacheControl };
    this.ok = jsonInit(headers);
    this.notModified = responseInit(headers, 304);
  }
}
