/**
 * Conditional requests: the `If-None-Match` check that lets a client revalidate a cached body and get
 * 304 Not Modified (RFC 9110 §13.1.2).
 *
 * @module
 */

/**
 * Tells whether an `If-None-Match` header matches an entity tag, with the weak comparison RFC 9110
 * §13.1.2 prescribes for it: `W/` prefixes are ignored on both sides; a list and `*` are allowed.
 *
 * @param header The request's `If-None-Match`, or `null`.
 * @param etag The current entity tag, weak or strong.
 * @returns `true` when the client's copy is current.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchesEtag } from "./conditional.ts";
 * assert.equal(matchesEtag('W/"a1", "b2"', '"b2"'), true);
 * assert.equal(matchesEtag('"a1"', 'W/"a1"'), true);
 * assert.equal(matchesEtag('"a1"', '"a2"'), false);
 * ```
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
