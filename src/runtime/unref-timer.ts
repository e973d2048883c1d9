/**
 * Timers that do not keep the process alive, on every runtime.
 *
 * @module
 */

/**
 * Lets the process exit while a timer is pending: `unref()` on Node and Bun, `Deno.unrefTimer` on
 * Deno; a no-op where neither exists (browsers, Workers).
 *
 * @param timer The timer `setTimeout` or `setInterval` returned.
 * @returns The same timer.
 *
 * @example
 * ```ts
 * import { unrefTimer } from "./unref-timer.ts";
 * clearTimeout(unrefTimer(setTimeout(() => {}, 60_000)));
 * ```
 */
export function unrefTimer<T extends ReturnType<typeof setTimeout>>(timer: T): T {
  if (typeof timer === "object" && timer !== null && "unref" in timer) (timer as { unref(): void }).unref();
  else (globalThis as { Deno?: { unrefTimer?(id: number): void } }).Deno?.unrefTimer?.(timer as unknown as number);
  return timer;
}
