/**
 * What every resource URI and template is: an absolute URI, a scheme and its rest (RFC 3986 §4.3), without
 * spaces. Checked where a definition is made, and where a served URI is made from one (a prefixed group).
 *
 * @module
 */

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * Checks that a string is an absolute URI (it starts with a scheme).
 *
 * @param uri The URI.
 * @param what Names the definition in the error.
 * @throws {TypeError} When it is not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { assertAbsoluteUri } from "./absolute-uri.ts";
 * assert.throws(() => assertAbsoluteUri("notes/1", "resource"), TypeError);
 * ```
 */
export function assertAbsoluteUri(uri: string, what: string): void {
  if (typeof uri !== "string" || !SCHEME.test(uri) || /\s/.test(uri)) {
    throw new TypeError(`${what}: ${JSON.stringify(uri)} is not an absolute URI (scheme:rest, no spaces)`);
  }
}
