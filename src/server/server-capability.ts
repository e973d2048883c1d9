/**
 * A capability `createServer()` takes as a value (`longRunning`, `inputRounds`, `group`, `cors()`,
 * `toolSearch()`): opaque to its users, so that what it holds (the promise store, the token codec, the gate's
 * parts) stays the server's business and can change without a change of the public API.
 *
 * @module
 */

/**
 * A capability of the server, passed to `createServer()` as it is: `createServer({ longRunning })`,
 * `createServer({ cors: cors({ origins }) })`. Opaque: only the value this package builds has one.
 *
 * @typeParam K Which capability: `"longRunning"`, `"inputRounds"`, `"group"`, `"cors"` or `"oauth"`.
 */
export interface Capability<K extends string> {
  /** Which capability it is. */
  readonly capability: K;
}

/**
 * Marks a value (the server's own implementation) as the capability `kind`.
 *
 * @param kind Which capability.
 * @param value What the server runs with.
 * @returns The value, now also a `Capability<K>`.
 */
export function capability<K extends string, T extends object>(kind: K, value: T): T & Capability<K> {
  return Object.assign(value, { capability: kind });
}
