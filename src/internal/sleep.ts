/**
 * The one abortable delay, shared by the server's redeem loop and the client's polling.
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
