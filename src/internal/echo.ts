/**
 * What an error may repeat of the request that caused it: a URI, a name, a method, a header, cut to a
 * bounded length, so that a megabyte URI is not sent back whole (nor logged whole) in its error.
 *
 * @module
 */

/** The most characters of a client's input an error message or its `data` repeats. */
export const ECHO_MAX = 200;

/**
 * Cuts a piece of a client's input for an error to repeat: at most {@link ECHO_MAX} characters, then
 * `…`; never half a surrogate pair.
 *
 * @param input What the client sent (anything: it is made a string).
 * @returns The text, cut when longer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { echoed } from "./echo.ts";
 * assert.equal(echoed("ui://short"), "ui://short");
 * const long = echoed("x".repeat(1_000_000));
 * assert.equal(long.length, 201);
 * assert.ok(long.endsWith("…"));
 * ```
 */
export function echoed(input: unknown): string {
  const text = typeof input === "string" ? input : String(input);
  if (text.length <= ECHO_MAX) return text;
  const code = text.charCodeAt(ECHO_MAX - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? ECHO_MAX - 1 : ECHO_MAX; // a high surrogate stays with its pair
  return `${text.slice(0, end)}…`;
}
