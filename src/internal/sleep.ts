/**
 * Waiting: the one abortable delay (the server's redeem loop, the client's polling), and a bounded wait
 * for a promise (shutdowns).
 *
 * @module
 */

/**
 * Resolves after `ms` milliseconds, or rejects with the signal's reason as soon as it aborts.
 *
 * @param ms The delay; negative counts as 0.
 * @param signal Cancels the wait.
 * @returns When the time is up.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Waits for a promise, but `ms` at most (its outcome is not awaited after that, nor its rejection).
 *
 * @param promise What to wait for.
 * @param ms The most to wait.
 * @returns Whether it settled in time.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settlesWithin } from "./sleep.ts";
 * assert.equal(await settlesWithin(Promise.resolve(), 10), true);
 * assert.equal(await settlesWithin(new Promise(() => {}), 10), false);
 * ```
 */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise.then(() => true, () => true),
    new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), ms)),
  ]).finally(() => clearTimeout(timer));
}
