/**
 * The headers an option accepts, declared here rather than with the DOM library's `HeadersInit`: Node's
 * own type setup (`lib: ["es2023"]`, `types: ["node"]`) declares `Headers` but not `HeadersInit`, so a
 * public declaration naming it would not type-check there.
 *
 * @module
 */

/**
 * Headers as `new Headers(init)` takes them (WHATWG Fetch, §5.2 "Headers class", `HeadersInit`): a
 * `Headers` object, a record of names to values, or a list of `[name, value]` pairs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { HeadersLike } from "./headers-like.ts";
 * const headers: HeadersLike = { authorization: "Bearer token" };
 * assert.equal(new Headers(headers).get("authorization"), "Bearer token");
 * ```
 */
export type HeadersLike = Headers | Record<string, string> | [string, string][];
