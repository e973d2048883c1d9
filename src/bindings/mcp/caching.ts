/**
 * Caching on the wire: MCP's `ttlMs`/`cacheScope` hints mapped to HTTP `Cache-Control`, weak `ETag`s
 * for list bodies and the `If-None-Match` check that answers 304.
 *
 * @module
 */
import type { CacheHint } from "../../resource/resource-def.ts";
import { jsonInit, responseInit } from "../../server/server-core.ts";
import type { CachedBody } from "./request.ts";

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

/**
 * Tells whether an `If-None-Match` header matches a tag (weak comparison, lists and `*` allowed).
 *
 * @param header The request's `If-None-Match`, or `null`.
 * @param etag The current tag.
 * @returns `true` when the client's copy is current.
 */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const bare = etag.startsWith("W/") ? etag.slice(2) : etag;
  for (const part of header.split(",")) {
    const tag = part.trim();
    if (tag === "*" || (tag.startsWith("W/") ? tag.slice(2) : tag) === bare) return true;
  }
  return false;
}

/**
 * Wraps a serialised result for answers by entity tag: its `ETag`, `Cache-Control`, and the inits of
 * its 200 and 304 responses, all built once per change of what it lists.
 *
 * @param body The result, as JSON.
 * @param hint Its caching hint.
 * @returns The cached body.
 */
export function cachedBody(body: string, hint: CacheHint): CachedBody {
  const etag = etagOf(body);
  const control = cacheControl(hint);
  const headers = { etag, "cache-control": control };
  return { body, etag, cacheControl: control, ok: jsonInit(headers), notModified: responseInit(headers, 304) };
}
