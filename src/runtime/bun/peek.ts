/**
 * A synchronous look at a promise, where the runtime offers one (Bun's `Bun.peek`): a body the runtime
 * already holds is read without a microtask hop, a race or a deadline.
 *
 * @module
 */

interface BunPeek {
  <T>(promise: Promise<T>): T | Promise<T>;
  status(promise: Promise<unknown>): "pending" | "fulfilled" | "rejected";
}

const bunPeek = (globalThis as { Bun?: { peek?: BunPeek } }).Bun?.peek;

/** What {@link peekFulfilled} returns for a promise not (yet) fulfilled. */
export const NOT_YET: unique symbol = Symbol("not yet");

/** Whether this runtime can look at a promise synchronously. */
export const CAN_PEEK: boolean = bunPeek !== undefined;

/**
 * The value of a promise that is already fulfilled, without waiting for it.
 *
 * @param promise The promise.
 * @returns Its value, or {@link NOT_YET} when it is pending, rejected (awaiting it throws), or the
 *   runtime cannot tell.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CAN_PEEK, NOT_YET, peekFulfilled } from "./peek.ts";
 * assert.equal(peekFulfilled(new Promise(() => {})), NOT_YET);
 * assert.equal(peekFulfilled(Promise.resolve(1)), CAN_PEEK ? 1 : NOT_YET);
 * ```
 */
export function peekFulfilled<T>(promise: Promise<T>): T | typeof NOT_YET {
  return bunPeek !== undefined && bunPeek.status(promise) === "fulfilled" ? bunPeek(promise) as T : NOT_YET;
}
